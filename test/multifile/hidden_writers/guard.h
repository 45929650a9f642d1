#pragma once
// Defined in plain_guard.cpp, which is not a Ferry source: code Ferry
// cannot see.
void libKeep(double *p);
struct Guard {
  ~Guard();
  int unused = 0;
};
