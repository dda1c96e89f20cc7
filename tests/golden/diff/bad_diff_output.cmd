diff pruned_sibling_json.stdout identical.new.json
