diff bad/empty.json identical.new.json
