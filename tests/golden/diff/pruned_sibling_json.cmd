diff --format json pruned_sibling.old.json pruned_sibling.new.json
