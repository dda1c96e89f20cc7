/# dbg() {} #/
f() { dbg(); /# dbg(); #/ }
