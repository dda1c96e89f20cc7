f() { foo(); }
