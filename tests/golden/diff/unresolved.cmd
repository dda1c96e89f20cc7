diff unresolved.old.json unresolved.new.json
