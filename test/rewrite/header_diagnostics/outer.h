#pragma once
// Includes inner.h, whose compute function Ferry must rewrite.
#include "inner.h"
