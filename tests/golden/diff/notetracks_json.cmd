diff --format json notetracks.old.json notetracks.new.json
