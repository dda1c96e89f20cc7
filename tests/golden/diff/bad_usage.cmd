diff identical.old.json
