diff identical.old.json .
