// OpenCL C built-ins: the <cmath> functions (MathBuiltins.h has the table)
// and the work-item functions behind `kc`.

#include "emit/Emitter.h"
#include "emit/MathBuiltins.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::mathCall(const CallExpr *CE, const FunctionDecl *Callee,
                              const MathBuiltin &B) {
  QualType R =
      CE->getType().getNonReferenceType().getUnqualifiedType().getCanonicalType();
  SourceLocation Loc = CE->getBeginLoc();
  if (CE->getNumArgs() != B.Arity)
    return cannot(CE);
  if (R->isSpecificBuiltinType(BuiltinType::LongDouble)) {
    typeName(R, Loc);
    return "0";
  }
  auto Args = [&](QualType T) {
    std::string S;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      S += (I ? ", " : "") + converted(CE->getArg(I), T);
    return S;
  };
  switch (B.Kind) {
  case MathKind::SameType:
    if (!R->isRealFloatingType())
      return cannot(CE);
    typeName(R, Loc); // marks double use
    return B.OpenCLName + "(" + Args(R) + ")";
  case MathKind::FloatInt:
    typeName(R, Loc);
    return cat({B.OpenCLName, "(", converted(CE->getArg(0), R), ", ",
                converted(CE->getArg(1), Ctx.IntTy), ")"});
  case MathKind::Classify: {
    QualType A = skipTransparent(CE->getArg(0))
                     ->getType()
                     .getUnqualifiedType()
                     .getCanonicalType();
    if (!A->isRealFloatingType())
      A = Ctx.DoubleTy;
    typeName(A, Loc);
    return B.OpenCLName + "(" + converted(CE->getArg(0), A) + ")";
  }
  case MathKind::Abs:
    if (R->isRealFloatingType()) {
      typeName(R, Loc);
      return "fabs(" + converted(CE->getArg(0), R) + ")";
    }
    return cat({"(", typeName(R, Loc), ")abs(", converted(CE->getArg(0), R), ")"});
  case MathKind::MinMax: {
    std::string Name = B.OpenCLName;
    if (R->isRealFloatingType() && Name != "clamp")
      Name = "f" + Name;
    typeName(R, Loc);
    return Name + "(" + Args(R) + ")";
  }
  }
  return cannot(CE);
}

} // namespace emit
} // namespace ferry
