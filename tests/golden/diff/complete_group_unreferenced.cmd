diff complete_unref.old.json complete_unref.new.json
