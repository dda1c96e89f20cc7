diff identical.old.json bad/escapes.json
