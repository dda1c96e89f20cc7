diff pruned_sibling.new.json pruned_sibling.old.json
