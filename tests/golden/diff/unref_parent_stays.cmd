diff unref_parent.old.json unref_parent.new.json
