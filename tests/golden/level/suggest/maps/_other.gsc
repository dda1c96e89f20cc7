fromElsewhere()
{
}
