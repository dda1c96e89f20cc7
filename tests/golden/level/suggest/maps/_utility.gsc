// the include
spawn_fx()
{
}
