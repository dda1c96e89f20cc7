diff bad/duplicate_tree.json bad/duplicate_tree.json
