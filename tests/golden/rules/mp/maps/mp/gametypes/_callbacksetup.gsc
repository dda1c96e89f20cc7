CodeCallback_StartGameType() {}
CodeCallback_PlayerConnect() {}
CodeCallback_PlayerDisconnect() {}
CodeCallback_PlayerDamage(a, b, c, d, e, f, g, h, i, j) {}
CodeCallback_PlayerKilled(a, b, c, d, e, f, g, h, i) {}
CodeCallback_PlayerLastStand(a, b, c, d, e, f, g, h, i) {}
