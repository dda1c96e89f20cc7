diff bad/forward_parent.json identical.new.json
