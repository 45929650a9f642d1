// Literals and constants: integer and floating literals as the user wrote
// them (with OpenCL C's suffixes), constant values folded by Clang, and
// literals converted to the type C++ computes in.

#include "emit/Emitter.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::floatText(const llvm::APFloat &F, bool IsFloat) {
  if (F.isNaN())
    return IsFloat ? "NAN" : "(double)NAN";
  if (F.isInfinity())
    return std::string(F.isNegative() ? "-" : "") +
           (IsFloat ? "INFINITY" : "(double)INFINITY");
  llvm::SmallString<32> S;
  F.toString(S);
  std::string Text(S.str());
  if (Text.find_first_of(".eE") == std::string::npos)
    Text += ".0";
  if (!IsFloat)
    UsesDouble = true;
  return Text + (IsFloat ? "f" : "");
}

std::string Emitter::sourceText(SourceRange R) {
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                              Ctx.getLangOpts())
      .str();
}

std::string Emitter::intLiteral(const IntegerLiteral *IL) {
  QualType T = IL->getType().getCanonicalType();
  llvm::APInt V = IL->getValue();
  // The user's digits (decimal, octal or hex, as written), without the
  // suffix: OpenCL C's is worked out from the type below.
  std::string SpellingText = sourceText(IL->getSourceRange());
  llvm::StringRef Spelling = SpellingText;
  llvm::StringRef Digits = Spelling.rtrim("uUlLzZ");
  bool Plain = !Digits.empty() && !Digits.starts_with_insensitive("0b") &&
               llvm::all_of(Digits, [](char C) {
                 return isxdigit(static_cast<unsigned char>(C)) || C == 'x' ||
                        C == 'X';
               });
  std::string Text = Plain ? Digits.str() : llvm::toString(V, 10, false);
  std::string Suffix;
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::UInt:
      Suffix = "u";
      break;
    case BuiltinType::Long:
    case BuiltinType::LongLong:
      Suffix = "L";
      break;
    case BuiltinType::ULong:
    case BuiltinType::ULongLong:
      Suffix = "UL";
      break;
    default:
      break;
    }
  }
  return Text + Suffix;
}

std::string Emitter::floatLiteral(const FloatingLiteral *FL) {
  QualType T = FL->getType().getCanonicalType();
  bool IsFloat = T->isSpecificBuiltinType(BuiltinType::Float);
  if (!IsFloat && !T->isSpecificBuiltinType(BuiltinType::Double)) {
    typeName(T, FL->getBeginLoc()); // reports long double
    return "0";
  }
  if (!IsFloat)
    UsesDouble = true;
  std::string S = sourceText(FL->getSourceRange());
  if (!S.empty() && S.find('\'') == std::string::npos &&
      llvm::all_of(S, [](char C) {
        return isalnum(static_cast<unsigned char>(C)) || C == '.' ||
               C == '+' || C == '-';
      })) {
    char Last = S.back();
    bool HasF = Last == 'f' || Last == 'F';
    bool Hex = llvm::StringRef(S).starts_with_insensitive("0x");
    if (HasF == IsFloat && (Hex || !llvm::StringRef(S).ends_with_insensitive("l")))
      return S;
  }
  return floatText(FL->getValue(), IsFloat);
}

std::string Emitter::apValue(const APValue &V, QualType T,
                             SourceLocation Loc) {
  QualType C = T.getCanonicalType();
  if (V.isInt()) {
    if (C->isBooleanType())
      return V.getInt().getBoolValue() ? "true" : "false";
    std::string S = llvm::toString(V.getInt(), 10);
    if (C->isUnsignedIntegerType())
      S += Ctx.getTypeSize(C) == 64 ? "UL" : "u";
    else if (Ctx.getTypeSize(C) == 64)
      S += "L";
    return S;
  }
  if (V.isFloat())
    return floatText(V.getFloat(),
                     C->isSpecificBuiltinType(BuiltinType::Float));
  if (V.isArray()) {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    if (!AT)
      return "{0}";
    std::string S = "{";
    unsigned N = AT->getSize().getZExtValue();
    for (unsigned I = 0; I < N; ++I) {
      const APValue &E = I < V.getArrayInitializedElts()
                             ? V.getArrayInitializedElt(I)
                             : V.getArrayFiller();
      S += (I ? ", " : "") + apValue(E, AT->getElementType(), Loc);
    }
    return S + "}";
  }
  error(Loc, "Ferry cannot translate this constant value to OpenCL C");
  return "0";
}


std::string Emitter::constant(const Expr *E) {
  if (E->isValueDependent() || E->isTypeDependent())
    return "";
  QualType T = E->getType().getCanonicalType();
  if (!T->isIntegralOrEnumerationType() && !T->isRealFloatingType())
    return "";
  if (T->isSpecificBuiltinType(BuiltinType::LongDouble))
    return "";
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return "";
  if (!R.Val.isInt() && !R.Val.isFloat())
    return "";
  std::string V = apValue(R.Val, T, E->getBeginLoc());
  return V[0] == '-' ? "(" + V + ")" : V;
}


std::string Emitter::literalAs(const Expr *E, QualType Target) {
  const llvm::fltSemantics &Sem = Ctx.getFloatTypeSemantics(Target);
  llvm::APFloat V(Sem);
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    V.convertFromAPInt(IL->getValue(),
                       IL->getType()->isSignedIntegerType(),
                       llvm::APFloat::rmNearestTiesToEven);
  } else {
    V = cast<FloatingLiteral>(E)->getValue();
    bool Lost;
    V.convert(Sem, llvm::APFloat::rmNearestTiesToEven, &Lost);
  }
  return floatText(V, Target->isSpecificBuiltinType(BuiltinType::Float));
}

} // namespace emit
} // namespace ferry
