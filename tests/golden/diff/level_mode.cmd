diff level.old.json level.new.json
