#pragma once
// The C and C++ math functions Ferry maps onto OpenCL C built-ins, and how
// their arguments must be converted so the OpenCL overload that is picked
// computes in the same type as the C++ one.

#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace ferry {

enum class MathKind {
  /// Every argument converted to the call's (floating) result type.
  SameType,
  /// `ldexp(x, int)`: the first argument to the result type, the second int.
  FloatInt,
  /// `isnan(x)` and friends: the argument keeps its floating type; the OpenCL
  /// result (int) is converted to the C++ result (bool).
  Classify,
  /// `abs`: `fabs` on floating types; on integers `abs`, whose OpenCL result
  /// is unsigned, cast back to the C++ type.
  Abs,
  /// `min`, `max`, `clamp`: `fmin`/`fmax`/`clamp` on floating types,
  /// `min`/`max`/`clamp` on integers.
  MinMax,
};

struct MathBuiltin {
  std::string OpenCLName;
  MathKind Kind;
  unsigned Arity;
};

/// The built-in `F` maps to, if F is one of the C or `std::` math functions
/// OpenCL C has (`sqrtf` and `std::sqrt` alike). The caller decides whether F
/// is a library function (declared in a system header or without a body).
std::optional<MathBuiltin> lookupMathBuiltin(const clang::FunctionDecl *F);

/// True for the allocation functions (`malloc`, `free`, ...), which get their
/// own diagnostic.
bool isAllocationFunction(const clang::FunctionDecl *F);

} // namespace ferry
