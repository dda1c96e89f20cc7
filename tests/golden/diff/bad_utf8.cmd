diff bad/bad_utf8.json identical.new.json
