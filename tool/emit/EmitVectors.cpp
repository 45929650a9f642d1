// Vector types (ferry::float4 and kin; <ferry/vectors.hpp>): OpenCL C's own
// vectors. The C++ header spells their arithmetic as operator templates
// over components; OpenCL C has it built in, so each operator is printed
// infix, a constructor as a vector literal, and dot, length, distance,
// normalize, vload and vstore as the built-ins of those names.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"

using namespace clang;

namespace ferry {
namespace emit {

namespace {

const char *infixOf(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Plus: return "+";
  case OO_Minus: return "-";
  case OO_Star: return "*";
  case OO_Slash: return "/";
  case OO_Percent: return "%";
  case OO_Amp: return "&";
  case OO_Pipe: return "|";
  case OO_Caret: return "^";
  case OO_PlusEqual: return "+=";
  case OO_MinusEqual: return "-=";
  case OO_StarEqual: return "*=";
  case OO_SlashEqual: return "/=";
  case OO_PercentEqual: return "%=";
  case OO_AmpEqual: return "&=";
  case OO_PipeEqual: return "|=";
  case OO_CaretEqual: return "^=";
  default: return nullptr;
  }
}

bool inFerry(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      return NS->getName() == "ferry" &&
             NS->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}

} // namespace

std::string Emitter::vectorTypeName(QualType T, SourceLocation Loc) {
  auto [Element, Width] = vectorShape(T);
  return typeName(Element.getUnqualifiedType(), Loc) + std::to_string(Width);
}

std::optional<std::string> Emitter::vectorConstruct(const CXXConstructExpr *CE) {
  if (!isVectorType(CE->getType()))
    return std::nullopt;
  if (CE->getConstructor()->isCopyOrMoveConstructor() && CE->getNumArgs() == 1)
    return expr(CE->getArg(0));
  std::string S =
      "(" + vectorTypeName(CE->getType(), CE->getBeginLoc()) + ")(";
  if (CE->getNumArgs() == 0)
    return S + "0)";
  // Each component as the element type: OpenCL C converts a literal's
  // components only where the types allow it implicitly.
  const QualType Element = vectorShape(CE->getType()).first;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    S += (I ? ", " : "") + converted(CE->getArg(I), Element);
  return S + ")";
}

std::optional<std::string> Emitter::vectorCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !inFerry(Callee))
    return std::nullopt;
  const bool OnVectors =
      isVectorType(CE->getType()) ||
      llvm::any_of(CE->arguments(), [](const Expr *A) {
        return isVectorType(A->getType());
      });
  if (!OnVectors)
    return std::nullopt;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const OverloadedOperatorKind K = Op->getOperator();
    if (K == OO_Subscript) {
      // An element of local memory holding vectors is no vector's index.
      if (!isVectorType(Op->getArg(0)->getType()))
        return std::nullopt;
      error(CE->getBeginLoc(),
            "OpenCL C 1.2 does not index vectors; name the component "
            "('.x', '.y', '.z', '.w')",
            CE->getSourceRange());
      return "0";
    }
    if (K == OO_Minus && Op->getNumArgs() == 1)
      return "(-" + expr(Op->getArg(0)) + ")";
    if (const char *Infix = infixOf(K); Infix && Op->getNumArgs() == 2)
      return "(" + expr(Op->getArg(0)) + " " + Infix + " " +
             expr(Op->getArg(1)) + ")";
    return std::nullopt;
  }
  if (!Callee->getIdentifier())
    return std::nullopt;
  const llvm::StringRef Name = Callee->getName();
  if (Name == "dot" || Name == "length" || Name == "distance" ||
      Name == "normalize" || Name == "vload2" || Name == "vload4" ||
      Name == "vstore2" || Name == "vstore4") {
    std::string S = Name.str() + "(";
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      S += (I ? ", " : "") + expr(CE->getArg(I));
    return S + ")";
  }
  return std::nullopt;
}

} // namespace emit
} // namespace ferry
