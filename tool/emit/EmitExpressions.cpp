// Expressions: operators, casts and conversions, names, members,
// initialiser lists, with the parentheses OpenCL C needs.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ferry {
namespace emit {

bool isTransparentCast(CastKind K) {
  switch (K) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ArrayToPointerDecay:
  case CK_IntegralCast:
  case CK_FloatingCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_ConstructorConversion:
    return true;
  default:
    return false;
  }
}

bool isToBoolean(CastKind K) {
  return K == CK_IntegralToBoolean || K == CK_FloatingToBoolean ||
         K == CK_PointerToBoolean;
}

const Expr *skipTransparent(const Expr *E) {
  for (;;) {
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
        ICE && isTransparentCast(ICE->getCastKind()))
      E = ICE->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      E = CE->getSubExpr();
    else if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      E = S->getReplacement();
    else if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    else if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      E = D->getExpr();
    else
      return E;
  }
}

/// The sub-expression an explicit cast converts, and whether the cast is
/// printed at all: casts that only add const or keep the type vanish.
const Expr *castOperand(const ExplicitCastExpr *C) {
  return C->getSubExprAsWritten();
}

bool castIsPrinted(const ExplicitCastExpr *C) {
  CastKind K = C->getCastKind();
  if (K == CK_ToVoid)
    return true;
  if (K == CK_ConstructorConversion || C->getType()->isRecordType() ||
      C->getType()->isArrayType() || C->getType()->isReferenceType())
    return false;
  QualType To = C->getType().getUnqualifiedType().getCanonicalType();
  QualType From = castOperand(C)
                      ->getType()
                      .getNonReferenceType()
                      .getUnqualifiedType()
                      .getCanonicalType();
  if (To->isPointerType() && From->isPointerType())
    return To->getPointeeType().getCanonicalType() !=
           From->getPointeeType().getCanonicalType();
  return To != From;
}

/// How tightly an expression as printed binds. `IsRefPointer` tells a use of
/// a C++ reference printed as `*name`.
Prec precOf(const Expr *E,
            llvm::function_ref<bool(const DeclRefExpr *)> IsRefPointer) {
  E = skipTransparent(E);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_NullToPointer)
      return Prec::Primary;
    if (isToBoolean(ICE->getCastKind()))
      return Prec::Cast;
    return Prec::Other;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return IsRefPointer(DRE) ? Prec::Cast : Prec::Primary;
  if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<CXXBoolLiteralExpr>(E) || isa<CharacterLiteral>(E) ||
      isa<ParenExpr>(E) || isa<ArraySubscriptExpr>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
      isa<CXXThisExpr>(E))
    return Prec::Primary;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!ME->isArrow() && isKernelContextType(ME->getBase()->getType()))
      return Prec::Cast; // possibly (int)get_global_id(0)
    return Prec::Primary;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript)
    return Prec::Primary; // tile[i], or a call of a user's operator[]
  if (isa<CallExpr>(E))
    return Prec::Cast; // (int)abs(x) at worst
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
    if (!castIsPrinted(C))
      return precOf(castOperand(C), IsRefPointer);
    return Prec::Cast;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return Prec::Cast;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Extension)
      return precOf(U->getSubExpr(), IsRefPointer);
    if (U->isPostfix())
      return Prec::Primary;
  }
  return Prec::Other;
}

Prec Emitter::prec(const Expr *E) {
  return precOf(E, [&](const DeclRefExpr *DRE) {
    auto It = Cur->Vars.find(DRE->getDecl());
    return It != Cur->Vars.end() && It->second.RefPointer &&
           !Cur->Poisoned.count(DRE->getDecl());
  });
}

std::string Emitter::operand(const Expr *E) {
  std::string S = expr(E);
  return prec(E) == Prec::Other ? "(" + S + ")" : S;
}

std::string Emitter::postfixBase(const Expr *E) {
  std::string S = expr(E);
  return prec(E) == Prec::Primary ? S : "(" + S + ")";
}

std::string Emitter::cond(const Expr *E) {
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      ICE && isToBoolean(ICE->getCastKind())) {
    // `assert(c && "why")`: a string literal is a non-null pointer.
    if (isa<StringLiteral>(ICE->getSubExpr()->IgnoreParenImpCasts()))
      return "true";
    return expr(ICE->getSubExpr());
  }
  return expr(E);
}


std::string Emitter::converted(const Expr *E, QualType Target) {
  Target = Target.getNonReferenceType().getUnqualifiedType().getCanonicalType();
  const Expr *S = skipTransparent(E);
  QualType ST = S->getType().getUnqualifiedType().getCanonicalType();
  if (ST == Target)
    return expr(S);
  if ((isa<IntegerLiteral>(S) || isa<FloatingLiteral>(S)) &&
      Target->isRealFloatingType() &&
      !Target->isSpecificBuiltinType(BuiltinType::LongDouble))
    return literalAs(S, Target);
  return cat({"(", typeName(Target, E->getBeginLoc()), ")", operand(S)});
}

std::string Emitter::castTo(QualType T, const Expr *Sub, SourceLocation Loc) {
  QualType C = T.getCanonicalType();
  if (C->isVoidType())
    return "(void)" + operand(Sub);
  if (C->isPointerType())
    return cat({"(", declare(T, "", Loc, pointerSpace(Sub)), ")", operand(Sub)});
  if (C->isRecordType() || C->isArrayType()) {
    error(Loc, "Ferry cannot translate a conversion to '" +
                   T.getAsString(Policy) + "' to OpenCL C");
    return "0";
  }
  return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", operand(Sub)});
}

std::string Emitter::declRef(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  SourceLocation Loc = DRE->getLocation();
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    const auto *ED = cast<EnumDecl>(EC->getDeclContext());
    std::string EName = enumName(ED, Loc);
    return ED->isScoped() ? EName + "__" + EC->getName().str() : flatName(EC);
  }
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (Cur->Poisoned.count(VD))
      return "0";
    auto It = Cur->Vars.find(VD);
    if (It != Cur->Vars.end() && It->second.Reducer) {
      error(Loc, "a reducer can be named only to combine into it ('" +
                     It->second.Name + " += v' or '" + It->second.Name +
                     ".combine(v)')",
            DRE->getSourceRange());
      return "0";
    }
    if (It != Cur->Vars.end()) {
      Cur->Used.insert(VD);
      return It->second.RefPointer ? "*" + It->second.Name
                                   : It->second.Name;
    }
    if (VD->hasGlobalStorage() && !VD->isStaticLocal()) {
      QualType T = VD->getType();
      if (!T.isConstQualified() && !VD->isConstexpr()) {
        error(Loc, "the mutable global '" + VD->getQualifiedNameAsString() +
                       "' cannot be used on the device; make it const or "
                       "constexpr, or pass it to the kernel as an argument",
              DRE->getSourceRange());
        Cur->Poisoned.insert(VD);
        return "0";
      }
      if (T->isReferenceType()) {
        error(Loc, "global references cannot be translated to OpenCL C");
        return "0";
      }
      return globalName(VD, Loc);
    }
    error(Loc, "Ferry cannot translate this use of '" + VD->getNameAsString() +
                   "' to OpenCL C");
    return "0";
  }
  if (isa<FunctionDecl>(D)) {
    error(Loc, "function pointers cannot be translated to OpenCL C",
          DRE->getSourceRange());
    return "0";
  }
  return cannot(DRE);
}

std::string Emitter::member(const MemberExpr *ME) {
  const Expr *Base = ME->getBase();
  const ValueDecl *D = ME->getMemberDecl();
  if (const auto *VD = dyn_cast<VarDecl>(D)) { // static data member
    if (!VD->getType().isConstQualified() && !VD->isConstexpr()) {
      error(ME->getMemberLoc(), "the mutable global '" +
                                    VD->getQualifiedNameAsString() +
                                    "' cannot be used on the device");
      return "0";
    }
    return globalName(VD, ME->getMemberLoc());
  }
  const auto *FD = dyn_cast<FieldDecl>(D);
  if (!FD)
    return cannot(ME);
  std::string Field = FD->getName().str();
  if (isReservedInOpenCL(Field))
    Field += "_";
  if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return std::string(Cur->This == FunctionState::ThisMode::Value ? "self."
                                                                    : "self->") +
           Field;
  if (!ME->isArrow() && isKernelContextParamRef(Base)) {
    if (std::optional<std::string> F = workItemField(FD->getName()))
      return *F;
    return cannot(ME);
  }
  if (ME->isArrow())
    return postfixBase(Base) + "->" + Field;
  if (const VarInfo *VI = varInfo(Base); VI && VI->RefPointer)
    return VI->Name + "->" + Field;
  if (const auto *U = dyn_cast<UnaryOperator>(Base->IgnoreParens());
      U && U->getOpcode() == UO_Deref)
    return postfixBase(U->getSubExpr()) + "->" + Field;
  return postfixBase(Base) + "." + Field;
}

std::string Emitter::initList(const InitListExpr *IL) {
  if (IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  QualType T = IL->getType();
  if (!T->isRecordType() && !T->isArrayType()) {
    if (IL->getNumInits() == 0)
      return "0";
    return expr(IL->getInit(0));
  }
  unsigned N = IL->getNumInits();
  while (N > 0 && isa<ImplicitValueInitExpr>(IL->getInit(N - 1)))
    --N;
  if (N == 0)
    return "{0}";
  if (T->isUnionType()) {
    const FieldDecl *F = IL->getInitializedFieldInUnion();
    std::string V = expr(IL->getInit(0));
    if (F && F->getFieldIndex() != 0)
      return "{." + F->getName().str() + " = " + V + "}";
    return "{" + V + "}";
  }
  std::string S = "{";
  for (unsigned I = 0; I < N; ++I) {
    const Expr *E = IL->getInit(I);
    S += I ? ", " : "";
    if (const auto *Sub = dyn_cast<InitListExpr>(skipTransparent(E)))
      S += initList(Sub);
    else if (isa<ImplicitValueInitExpr>(E))
      S += E->getType()->isScalarType() ? "0" : "{0}";
    else if (const auto *SL = dyn_cast<StringLiteral>(skipTransparent(E)))
      S += cannot(SL);
    else
      S += expr(E);
  }
  return S + "}";
}

std::string Emitter::construct(const CXXConstructExpr *CE) {
  if (std::optional<std::string> S = vectorConstruct(CE))
    return *S;
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  QualType T = CE->getType();
  if (Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
      CE->getNumArgs() >= 1)
    return expr(CE->getArg(0));
  if (CE->getNumArgs() == 0 && Ctor->isTrivial())
    return "(" + typeName(T.getUnqualifiedType(), CE->getBeginLoc()) + "){0}";
  if (CE->getNumArgs() == 0 && Ctor->isDefaulted() &&
      CE->requiresZeroInitialization())
    return "(" + typeName(T.getUnqualifiedType(), CE->getBeginLoc()) + "){0}";
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && inStdNamespace(RD)) {
    recordName(RD, CE->getBeginLoc());
    return "0";
  }
  error(CE->getBeginLoc(),
        "constructors cannot be translated to OpenCL C; use aggregate "
        "initialization ('" +
            T.getUnqualifiedType().getAsString(Policy) + " v{...}') instead",
        CE->getSourceRange());
  return "0";
}


std::string Emitter::expr(const Expr *E) {
  if (!E)
    return "";
  SourceLocation Loc = E->getBeginLoc();
  switch (E->getStmtClass()) {
  case Stmt::ParenExprClass:
    return "(" + expr(cast<ParenExpr>(E)->getSubExpr()) + ")";
  case Stmt::IntegerLiteralClass:
    return intLiteral(cast<IntegerLiteral>(E));
  case Stmt::FloatingLiteralClass:
    return floatLiteral(cast<FloatingLiteral>(E));
  case Stmt::CXXBoolLiteralExprClass:
    return cast<CXXBoolLiteralExpr>(E)->getValue() ? "true" : "false";
  case Stmt::CharacterLiteralClass: {
    unsigned V = cast<CharacterLiteral>(E)->getValue();
    if (V >= 32 && V < 127 && V != '\'' && V != '\\')
      return std::string("'") + char(V) + "'";
    return std::to_string(V);
  }
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
    return "0";
  case Stmt::StringLiteralClass:
    error(Loc, "string literals cannot be used in OpenCL C kernels",
          E->getSourceRange());
    return "0";
  case Stmt::DeclRefExprClass:
    return declRef(cast<DeclRefExpr>(E));
  case Stmt::CXXThisExprClass:
    if (Cur->This == FunctionState::ThisMode::Pointer)
      return "self";
    if (Cur->This == FunctionState::ThisMode::Value)
      return "(&self)";
    return cannot(E);
  case Stmt::MemberExprClass:
    return member(cast<MemberExpr>(E));
  case Stmt::ArraySubscriptExprClass: {
    const auto *A = cast<ArraySubscriptExpr>(E);
    return cat({postfixBase(A->getBase()), "[", expr(A->getIdx()), "]"});
  }
  case Stmt::UnaryOperatorClass: {
    const auto *U = cast<UnaryOperator>(E);
    const Expr *Sub = U->getSubExpr();
    switch (U->getOpcode()) {
    case UO_PostInc:
      return postfixBase(Sub) + "++";
    case UO_PostDec:
      return postfixBase(Sub) + "--";
    case UO_PreInc:
      return "++" + operand(Sub);
    case UO_PreDec:
      return "--" + operand(Sub);
    case UO_AddrOf:
      if (const VarInfo *VI = varInfo(Sub); VI && VI->RefPointer)
        return VI->Name;
      return "&" + operand(Sub);
    case UO_Deref:
      if (isa<CXXThisExpr>(Sub->IgnoreParenImpCasts()) &&
          Cur->This == FunctionState::ThisMode::Value)
        return "self";
      return "*" + operand(Sub);
    case UO_Plus:
      return "+" + operand(Sub);
    case UO_Minus:
      return "-" + operand(Sub);
    case UO_Not:
      return "~" + operand(Sub);
    case UO_LNot: {
      const Expr *C = Sub;
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(C);
          ICE && isToBoolean(ICE->getCastKind()))
        C = ICE->getSubExpr();
      return "!" + operand(C);
    }
    case UO_Extension:
      return expr(Sub);
    default:
      return cannot(E);
    }
  }
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass: {
    const auto *B = cast<BinaryOperator>(E);
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_PtrMemD || Op == BO_PtrMemI || Op == BO_Cmp)
      return cannot(E);
    if (Op == BO_LAnd || Op == BO_LOr)
      return cat({cond(B->getLHS()),
                  around(B->getLHS(), B->getOperatorLoc(), B->getRHS(),
                         B->getOpcodeStr()),
                  cond(B->getRHS())});
    if (Op == BO_Assign && B->getLHS()->getType()->isPointerType())
      if (const VarInfo *VI = varInfo(B->getLHS());
          VI && !VI->RefPointer && !isa<CXXNullPtrLiteralExpr>(skipTransparent(B->getRHS())) &&
          pointerSpace(B->getRHS()) != VI->Where)
        error(B->getOperatorLoc(),
              "the pointer '" + VI->Name +
                  "' would point into different address spaces ('" +
                  spaceWord(VI->Where) + "' and '" +
                  spaceWord(pointerSpace(B->getRHS())) + "')");
    return cat({expr(B->getLHS()),
                around(B->getLHS(), B->getOperatorLoc(), B->getRHS(),
                       B->getOpcodeStr()),
                expr(B->getRHS())});
  }
  case Stmt::ConditionalOperatorClass: {
    const auto *C = cast<ConditionalOperator>(E);
    if (C->getType()->isPointerType())
      pointerSpace(C);
    return cat({cond(C->getCond()),
                around(C->getCond(), C->getQuestionLoc(), C->getTrueExpr(), "?"),
                expr(C->getTrueExpr()),
                around(C->getTrueExpr(), C->getColonLoc(), C->getFalseExpr(),
                       ":"),
                expr(C->getFalseExpr())});
  }
  case Stmt::ImplicitCastExprClass: {
    const auto *C = cast<ImplicitCastExpr>(E);
    CastKind K = C->getCastKind();
    if (isTransparentCast(K) || K == CK_ToVoid)
      return expr(C->getSubExpr());
    if (isToBoolean(K) &&
        isa<StringLiteral>(C->getSubExpr()->IgnoreParenImpCasts()))
      return "true"; // `assert(c && "why")`: a non-null pointer
    if (isToBoolean(K))
      return "(bool)" + operand(C->getSubExpr());
    if (K == CK_NullToPointer)
      return "0";
    if (K == CK_FunctionToPointerDecay) {
      error(Loc, "function pointers cannot be translated to OpenCL C",
            E->getSourceRange());
      return "0";
    }
    if (K == CK_BitCast || K == CK_IntegralToPointer ||
        K == CK_PointerToIntegral || K == CK_BooleanToSignedIntegral)
      return castTo(C->getType(), C->getSubExpr(), Loc);
    if (K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
        K == CK_BaseToDerived) {
      error(Loc, "class hierarchies cannot be translated to OpenCL C");
      return "0";
    }
    if (K == CK_UserDefinedConversion) {
      error(Loc, "user-defined conversions cannot be translated to OpenCL C",
            E->getSourceRange());
      return "0";
    }
    return cannot(E);
  }
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::CXXReinterpretCastExprClass: {
    const auto *C = cast<ExplicitCastExpr>(E);
    const Expr *Sub = castOperand(C);
    // The conversion the cast performs may sit in implicit casts beneath it
    // (static_cast<int>(f) is a NoOp over a FloatingToIntegral): look at
    // the whole chain.
    for (const Expr *X = C; X != Sub;) {
      const auto *CE = dyn_cast<CastExpr>(X);
      if (!CE)
        break;
      CastKind K = CE->getCastKind();
      if (K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
          K == CK_BaseToDerived || K == CK_Dynamic) {
        error(Loc, "class hierarchies cannot be translated to OpenCL C");
        return "0";
      }
      if (K == CK_UserDefinedConversion) {
        error(Loc, "user-defined conversions cannot be translated to OpenCL C",
              E->getSourceRange());
        return "0";
      }
      if (K == CK_FunctionToPointerDecay) {
        error(Loc, "function pointers cannot be translated to OpenCL C",
              E->getSourceRange());
        return "0";
      }
      X = CE->getSubExpr();
    }
    if (const auto *IL = dyn_cast<InitListExpr>(skipTransparent(Sub))) {
      QualType T = C->getType();
      if (T->isRecordType() || T->isArrayType())
        return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", initList(IL)});
      return castTo(T, IL, Loc);
    }
    if (C->getType()->isReferenceType() || C->getTypeAsWritten()->isReferenceType())
      return cannot(E);
    if (C->getType()->isRecordType() || C->getType()->isArrayType())
      return expr(C->getSubExpr());
    if (!castIsPrinted(C))
      return expr(Sub);
    if (C->getCastKind() == CK_ToVoid)
      return "(void)" + operand(Sub);
    return castTo(C->getType(), Sub, Loc);
  }
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    return call(cast<CallExpr>(E));
  case Stmt::InitListExprClass: {
    const auto *IL = cast<InitListExpr>(E);
    QualType T = IL->getType();
    if (T->isRecordType() || T->isArrayType())
      return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", initList(IL)});
    return initList(IL);
  }
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return construct(cast<CXXConstructExpr>(E));
  case Stmt::MaterializeTemporaryExprClass:
  case Stmt::CXXBindTemporaryExprClass:
  case Stmt::ExprWithCleanupsClass:
  case Stmt::ConstantExprClass:
  case Stmt::SubstNonTypeTemplateParmExprClass:
  case Stmt::CXXDefaultArgExprClass:
  case Stmt::CXXDefaultInitExprClass:
    return expr(skipTransparent(E));
  case Stmt::ImplicitValueInitExprClass:
    return E->getType()->isScalarType() ? "0" : "{0}";
  case Stmt::CXXScalarValueInitExprClass:
    return E->getType()->isPointerType() ? "0" : converted(E, E->getType()) ;
  case Stmt::UnaryExprOrTypeTraitExprClass: {
    const auto *U = cast<UnaryExprOrTypeTraitExpr>(E);
    QualType Arg = U->getTypeOfArgument();
    if (U->getKind() == UETT_SizeOf && !Arg->isReferenceType())
      return "(" + typeName(E->getType(), Loc) + ")sizeof(" +
             declare(Arg.getUnqualifiedType(), "", Loc, Space::Private, true) +
             ")";
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return llvm::toString(R.Val.getInt(), 10) + "UL";
    return cannot(E);
  }
  case Stmt::CXXNewExprClass:
    error(Loc, "dynamic memory ('new') cannot be used in OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::CXXDeleteExprClass:
    error(Loc, "dynamic memory ('delete') cannot be used in OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::CXXThrowExprClass:
    error(Loc, "exceptions ('throw') cannot be translated to OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::LambdaExprClass:
    error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
               "function",
          E->getSourceRange());
    return "0";
  case Stmt::CXXTypeidExprClass:
  case Stmt::CXXDynamicCastExprClass:
    error(Loc, "run-time type information cannot be used in OpenCL C");
    return "0";
  default:
    if (std::string V = constant(E); !V.empty())
      return V; // sizeof...(ts) and other constants
    return cannot(E);
  }
}

} // namespace emit
} // namespace ferry
