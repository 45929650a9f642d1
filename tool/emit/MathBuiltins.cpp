#include "emit/MathBuiltins.h"

#include "clang/AST/DeclCXX.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace ferry {

static bool inStdOrGlobal(const FunctionDecl *F) {
  const DeclContext *DC = F->getDeclContext()->getRedeclContext();
  if (DC->isTranslationUnit() || DC->isExternCContext())
    return true;
  if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
    // std, std::__1 (libc++), __gnu_cxx
    while (NS->isInline() && isa<NamespaceDecl>(NS->getParent()))
      NS = cast<NamespaceDecl>(NS->getParent());
    return (NS->getName() == "std" || NS->getName() == "__gnu_cxx") &&
           NS->getParent()->getRedeclContext()->isTranslationUnit();
  }
  return false;
}

static std::optional<MathBuiltin> byName(llvm::StringRef N) {
  using K = MathKind;
  auto Unary = MathBuiltin{N.str(), K::SameType, 1};
  auto Binary = MathBuiltin{N.str(), K::SameType, 2};
  return llvm::StringSwitch<std::optional<MathBuiltin>>(N)
      .Cases("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", Unary)
      .Cases("ceil", "cos", "cosh", "erf", "erfc", "exp", "exp2", Unary)
      .Cases("expm1", "floor", "lgamma", "log", "log10", "log1p", "log2",
             Unary)
      .Cases("logb", "rint", "round", "sin", "sinh", "sqrt", "tan", Unary)
      .Cases("tanh", "tgamma", "trunc", "fabs", Unary)
      .Cases("atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot",
             Binary)
      .Cases("nextafter", "pow", "remainder", Binary)
      .Case("fma", MathBuiltin{"fma", K::SameType, 3})
      .Case("ldexp", MathBuiltin{"ldexp", K::FloatInt, 2})
      .Cases("isnan", "isinf", "isfinite", "isnormal", "signbit",
             MathBuiltin{N.str(), K::Classify, 1})
      .Cases("abs", "labs", "llabs", MathBuiltin{"abs", K::Abs, 1})
      .Cases("min", "max", MathBuiltin{N.str(), K::MinMax, 2})
      .Case("clamp", MathBuiltin{"clamp", K::MinMax, 3})
      .Default(std::nullopt);
}

std::optional<MathBuiltin> lookupMathBuiltin(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || !inStdOrGlobal(F))
    return std::nullopt;
  llvm::StringRef N = F->getName();
  bool IsStd = !F->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
               !F->getDeclContext()->getRedeclContext()->isExternCContext();
  // min/max/clamp only from std:: (a global `min` in a system header is
  // something else); abs family from both.
  if ((N == "min" || N == "max" || N == "clamp") && !IsStd)
    return std::nullopt;
  if (auto B = byName(N))
    return B;
  // C's float variants: sqrtf, powf, fabsf, fminf ...
  if (N.size() > 2 && N.ends_with("f"))
    if (auto B = byName(N.drop_back()))
      if (B->Kind == MathKind::SameType || B->Kind == MathKind::FloatInt)
        return B;
  return std::nullopt;
}

bool isAllocationFunction(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || !inStdOrGlobal(F))
    return false;
  return llvm::StringSwitch<bool>(F->getName())
      .Cases("malloc", "calloc", "realloc", "free", "aligned_alloc", true)
      .Default(false);
}

} // namespace ferry
