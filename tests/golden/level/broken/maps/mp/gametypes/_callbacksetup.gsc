CodeCallback_StartGameType() {}
CodeCallback_PlayerConnect() {}
CodeCallback_PlayerDamage() {}
/#
CodeCallback_PlayerKilled() {}
#/
