diff notetracks.old.json notetracks.new.json
