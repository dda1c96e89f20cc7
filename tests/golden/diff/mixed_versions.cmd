diff identical.old.json identical_v2.json
