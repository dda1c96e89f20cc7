diff bad/bom.json identical.new.json
