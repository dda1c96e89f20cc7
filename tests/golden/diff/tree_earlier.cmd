diff tree_earlier.old.json tree_earlier.new.json
