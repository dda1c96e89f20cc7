diff profile.old.json profile.new.json
