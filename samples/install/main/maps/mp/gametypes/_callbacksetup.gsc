// The engine looks these five functions up after loading this file.
CodeCallback_StartGameType() {}
CodeCallback_PlayerConnect() { self thread maps\mp\gametypes\tdm::main(); }
CodeCallback_PlayerDisconnect() {}
CodeCallback_PlayerDamage(eInflictor, eAttacker, iDamage) {}
CodeCallback_PlayerKilled(eInflictor, eAttacker, iDamage) {}
