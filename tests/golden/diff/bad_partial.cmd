diff bad/partial.json identical.new.json
