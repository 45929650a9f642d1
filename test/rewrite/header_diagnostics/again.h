#pragma once
// Includes once.h again: skipped by Clang, but not once Ferry has written
// once.h's text into the Ferry source.
#include "once.h"
// CHECK: 4:10: error: 'once.h' is included again here
