diff identical.old.json bad/not_atrc.json
