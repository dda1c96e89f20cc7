diff identical.old.json no/such.json
