diff --format json identical.old.json identical.new.json
