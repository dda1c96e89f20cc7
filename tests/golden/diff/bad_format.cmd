diff --format xml identical.old.json identical.new.json
