diff identical.old.json identical.new.json
