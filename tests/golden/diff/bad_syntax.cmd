diff bad/syntax.json identical.new.json
