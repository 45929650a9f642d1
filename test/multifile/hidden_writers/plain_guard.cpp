// Not a Ferry source (the test's CMake compiles it as a plain source).
#include "guard.h"

static double *kept = nullptr;

void libKeep(double *p) { kept = p; }

Guard::~Guard() { *kept += 100.0; }
