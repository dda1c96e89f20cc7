diff show_pruned.old.json show_pruned.new.json
