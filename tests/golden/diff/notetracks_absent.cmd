diff notetracks.noxanim.json notetracks.new.json
