f(a) {
  x = $e1;
  $e2 = 1;
  y = a.self;
  a.self = 2;
  z = a breakon(y);
  $e3[0] = 1;
  a.self.f = 1;
  a.self++;
}
