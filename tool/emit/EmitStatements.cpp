// Statements and local declarations, printed line by line in the user's
// layout.

#include "emit/Emitter.h"
#include "model/Naming.h"
#include "analyses/kernel/WorkGroupUse.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ferry {
namespace emit {

/// OpenCL C's spelling of an unroll hint, or "" for another loop hint.
static std::string unrollPragma(const LoopHintAttr *Hint, ASTContext &Ctx) {
  using H = LoopHintAttr;
  if (Hint->getOption() == H::Unroll)
    return Hint->getState() == H::Disable ? "#pragma unroll 1"
                                          : "#pragma unroll";
  if (Hint->getOption() == H::UnrollCount && Hint->getValue())
    if (std::optional<llvm::APSInt> N =
            Hint->getValue()->getIntegerConstantExpr(Ctx))
      return "#pragma unroll " + llvm::toString(*N, 10);
  return "";
}

void Emitter::compoundBody(const CompoundStmt *CS, bool SwitchBody) {
  SourceLocation Prev = CS->getLBracLoc();
  for (const Stmt *S : CS->body()) {
    comments(Prev, S->getBeginLoc());
    Prev = endOf(S->getEndLoc());
    if (SwitchBody) {
      // Labels one level out, their statements at the body's level.
      while (isa<SwitchCase>(S)) {
        const auto *SC = cast<SwitchCase>(S);
        std::string Label;
        if (const auto *C = dyn_cast<CaseStmt>(SC)) {
          if (C->getRHS()) {
            cannot(C);
            Label = "default:";
          } else {
            const Expr *LHS = C->getLHS()->IgnoreParenImpCasts();
            if (const auto *CE = dyn_cast<ConstantExpr>(LHS))
              LHS = CE->getSubExpr()->IgnoreParenImpCasts();
            std::string V;
            if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS);
                DRE && isa<EnumConstantDecl>(DRE->getDecl()))
              V = declRef(DRE);
            else if (isa<IntegerLiteral>(LHS) || isa<CharacterLiteral>(LHS))
              V = expr(LHS);
            else
              V = llvm::toString(C->getLHS()->EvaluateKnownConstInt(Ctx), 10);
            Label = "case " + V + ":";
          }
        } else {
          Label = "default:";
        }
        const Stmt *Sub = SC->getSubStmt();
        // `case 3: {` keeps its block on the label's line.
        if (const auto *Block = dyn_cast<CompoundStmt>(Sub);
            Block && !isa<SwitchCase>(Sub) &&
            lineOf(Block->getLBracLoc()) == lineOf(SC->getBeginLoc())) {
          line(SC->getBeginLoc(), Label + " {", -1);
          compoundBody(Block, false);
          line({}, "}", -1);
          S = nullptr;
          break;
        }
        line(SC->getBeginLoc(), Label, -1);
        S = Sub;
      }
      if (!S)
        continue;
    }
    stmt(S);
  }
  comments(Prev, CS->getRBracLoc());
}

void Emitter::subStmt(const Stmt *S) {
  ++Cur->Indent;
  stmt(S);
  --Cur->Indent;
}

void Emitter::headedBody(SourceLocation Loc, const std::string &Head,
                         const Stmt *Body) {
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    line(Loc, Head + " {");
    ++Cur->Indent;
    compoundBody(CS, false);
    --Cur->Indent;
    line({}, "}");
  } else {
    line(Loc, Head);
    subStmt(Body);
  }
}

std::string Emitter::forInit(const Stmt *S) {
  if (!S)
    return "";
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    std::string Out;
    std::string FirstType;
    SourceLocation LastEnd;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD) {
        cannot(S);
        return "";
      }
      std::string One = varDeclInline(VD);
      SourceLocation PrevEnd = LastEnd;
      LastEnd = VD->getEndLoc();
      if (Out.empty()) {
        Out = One;
        FirstType = typeName(VD->getType(), VD->getLocation());
      } else {
        // `int i = 0, j = n`: the declarator part after the type.
        std::string T = typeName(VD->getType(), VD->getLocation());
        if (One.compare(0, T.size() + 1, T + " ") != 0 || T != FirstType ||
            VD->getType()->isPointerType() || VD->getType()->isArrayType() ||
            VD->getType()->isReferenceType()) {
          error(VD->getLocation(), "declarations of different types in one "
                                   "for-init cannot be translated to OpenCL C");
          return Out;
        }
        Out += "," + gap(PrevEnd, VD->getLocation()) + One.substr(T.size() + 1);
      }
    }
    return Out;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    return expr(E);
  cannot(S);
  return "";
}

std::string Emitter::varDeclInline(const VarDecl *VD) {
  SourceLocation Loc = VD->getLocation();
  QualType T = VD->getType();
  std::string Name = VD->getName().str();
  if (isReservedInOpenCL(Name))
    Name += "_";
  VarInfo Info;
  Info.Name = Name;
  if (isa<DecompositionDecl>(VD)) {
    error(Loc, "structured bindings cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (VD->isStaticLocal() &&
      !(T.isConstQualified() && VD->hasConstantInitialization())) {
    error(Loc, "static local variables cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (isReducerType(T)) {
    error(Loc, "a ferry reducer exists only as a kernel's parameter: "
               "combine into that parameter itself");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (isLocalArrayType(T) || isLocalSpanType(T)) {
    error(Loc, isLocalArrayType(T)
                   ? "a ferry::Local must be declared on its own"
                   : "a ferry::LocalSpan cannot be copied or referred to by "
                     "another name; use the parameter");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (VD->hasExternalStorage()) {
    error(Loc, "extern declarations cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  const Expr *Init = VD->getInit();
  // A lambda or a function pointer is one error, at its declaration; its
  // uses stay quiet.
  QualType NR = T.getNonReferenceType();
  if (const auto *RD = NR->getAsCXXRecordDecl(); RD && RD->isLambda()) {
    error(Init ? Init->getBeginLoc() : Loc,
          "lambdas cannot be translated to OpenCL C; use a helper function");
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (NR->isFunctionPointerType() || NR->isFunctionReferenceType() ||
      NR->isMemberPointerType()) {
    error(Loc, "function pointers cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (T->isReferenceType()) {
    QualType Pointee = T.getNonReferenceType();
    bool Temporary =
        Init && (isa<MaterializeTemporaryExpr>(Init->IgnoreImpCasts()) ||
                 isa<ExprWithCleanups>(Init));
    if (!Init || Temporary || Pointee->isArrayType()) {
      if (Pointee->isArrayType()) {
        error(Loc, "references to arrays cannot be translated to OpenCL C");
        Cur->Poisoned.insert(VD);
      }
      Cur->Vars[VD] = Info;
      std::string D = declare(Pointee, Name, Loc);
      return Init ? D + " = " + expr(Init) : D;
    }
    Info.RefPointer = true;
    Info.Where = objectSpace(Init);
    Cur->Vars[VD] = Info;
    std::string Addr;
    if (const VarInfo *VI = varInfo(Init); VI && VI->RefPointer)
      Addr = VI->Name;
    else if (const auto *U = dyn_cast<UnaryOperator>(Init->IgnoreParens());
             U && U->getOpcode() == UO_Deref)
      Addr = expr(U->getSubExpr());
    else
      Addr = "&" + postfixBase(Init);
    return spaceQualifier(Info.Where) +
           typeName(Pointee, Loc, Info.Where != Space::Private) + "* " + Name +
           " = " + Addr;
  }
  if (!checkDeviceType(T, Loc)) {
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (T->isPointerType()) {
    // A pointer declared null (or uninitialised) points where it is first
    // assigned to point.
    const Expr *From = Init;
    if (!From || From->isNullPointerConstant(
                     Ctx, Expr::NPC_ValueDependentIsNotNull))
      From = firstAssignment(VD);
    Info.Where = From ? pointerSpace(From) : Space::Private;
  }
  Cur->Vars[VD] = Info;
  std::string D = declare(T, Name, Loc, Info.Where);
  if (!Init)
    return D;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit())) {
    if (CE->getNumArgs() == 0 && CE->getConstructor()->isTrivial() &&
        !CE->requiresZeroInitialization())
      return D;
    if (CE->getNumArgs() == 0)
      return D + " = {0}";
  }
  if (isa<ImplicitValueInitExpr>(Init))
    return D + " = {0}";
  if (const auto *IL = dyn_cast<InitListExpr>(skipTransparent(Init));
      IL && (T->isArrayType() || T->isRecordType()))
    return D + " = " + initList(IL);
  if (const auto *IL = dyn_cast<InitListExpr>(Init);
      IL && !T->isArrayType() && !T->isRecordType()) {
    if (IL->getNumInits() == 0)
      return D + " = 0";
    return D + " = " + expr(IL->getInit(0));
  }
  return D + " = " + expr(Init);
}


void Emitter::varDecl(const VarDecl *VD, SourceLocation Loc) {
  line(Loc, varDeclInline(VD) + ";");
}

void Emitter::stmt(const Stmt *S) {
  if (!S)
    return;
  SourceLocation Loc = S->getBeginLoc();
  Cur->StmtStart = Loc;
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass: {
    line(Loc, "{");
    ++Cur->Indent;
    compoundBody(cast<CompoundStmt>(S), false);
    --Cur->Indent;
    line({}, "}");
    return;
  }
  case Stmt::NullStmtClass:
    line(Loc, ";");
    return;
  case Stmt::DeclStmtClass: {
    // `int x = 1, y = 2;` stays one line when the declarators share a type.
    const auto *DS = cast<DeclStmt>(S);
    if (!DS->isSingleDecl()) {
      bool Joinable = true;
      QualType First;
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD) {
          Joinable = false;
          break;
        }
        QualType T = VD->getType().getCanonicalType();
        if (T->isPointerType() || T->isArrayType() || T->isReferenceType() ||
            isLocalArrayType(T) ||
            isa<DecompositionDecl>(VD) || (!First.isNull() && T != First)) {
          Joinable = false;
          break;
        }
        First = T;
      }
      if (Joinable) {
        line(Loc, forInit(S) + ";");
        return;
      }
    }
    for (const Decl *D : DS->decls()) {
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && isLocalArrayType(VD->getType()))
        localDecl(VD);
      else if (const auto *VD = dyn_cast<VarDecl>(D))
        varDecl(VD, D->getLocation());
      else if (isa<TypedefNameDecl>(D) || isa<UsingDecl>(D) ||
               isa<UsingDirectiveDecl>(D) || isa<StaticAssertDecl>(D) ||
               isa<TagDecl>(D) || isa<NamespaceAliasDecl>(D) ||
               isa<UsingShadowDecl>(D))
        continue; // types print canonically, names fully
      else
        error(D->getLocation(), std::string("Ferry cannot translate ") +
                                    D->getDeclKindName() +
                                    " declarations to OpenCL C");
    }
    return;
  }
  case Stmt::ReturnStmtClass: {
    const Expr *E = cast<ReturnStmt>(S)->getRetValue();
    if (!E) {
      line(Loc, "return;");
      return;
    }
    if (Cur->F->getReturnType()->isPointerType()) {
      Space Sp = pointerSpace(E);
      if (Cur->ReturnSpaceKnown && Sp != Cur->ReturnSpace)
        error(E->getBeginLoc(), "this function returns pointers into "
                                "different address spaces");
      Cur->ReturnSpaceKnown = true;
      Cur->ReturnSpace = Sp;
    }
    line(Loc, "return " + expr(E) + ";");
    return;
  }
  case Stmt::IfStmtClass: {
    const auto *If = cast<IfStmt>(S);
    if (If->getInit() || If->getConditionVariable()) {
      cannot(If->getInit() ? If->getInit() : S);
      return;
    }
    if (If->isConstexpr()) {
      bool Taken = If->getCond()->EvaluateKnownConstInt(Ctx).getBoolValue();
      const Stmt *Branch = Taken ? If->getThen() : If->getElse();
      if (Branch)
        stmt(Branch);
      return;
    }
    std::string Prefix = "if (" + cond(If->getCond()) + ")";
    for (;;) {
      const Stmt *Then = If->getThen();
      const Stmt *Else = If->getElse();
      // A braced branch closes on the line of the next `else`: `} else {`.
      const auto *ThenBlock = dyn_cast<CompoundStmt>(Then);
      const std::string Join = ThenBlock ? "} " : "";
      if (ThenBlock) {
        line(Loc, Prefix + " {");
        ++Cur->Indent;
        compoundBody(ThenBlock, false);
        --Cur->Indent;
      } else {
        line(Loc, Prefix);
        subStmt(Then);
      }
      if (!Else) {
        if (ThenBlock)
          line({}, "}");
        return;
      }
      if (const auto *ElseIf = dyn_cast<IfStmt>(Else);
          ElseIf && !ElseIf->getInit() && !ElseIf->getConditionVariable() &&
          !ElseIf->isConstexpr()) {
        Cur->StmtStart = ElseIf->getBeginLoc();
        Prefix = Join + "else if (" + cond(ElseIf->getCond()) + ")";
        Loc = {};
        If = ElseIf;
        continue;
      }
      if (const auto *ElseBlock = dyn_cast<CompoundStmt>(Else)) {
        line({}, Join + "else {");
        ++Cur->Indent;
        compoundBody(ElseBlock, false);
        --Cur->Indent;
        line({}, "}");
        return;
      }
      line({}, Join + "else");
      subStmt(Else);
      return;
    }
  }
  case Stmt::ForStmtClass: {
    const auto *For = cast<ForStmt>(S);
    if (For->getConditionVariable()) {
      cannot(S);
      return;
    }
    std::string Head = "for (" + forInit(For->getInit()) + ";";
    if (For->getCond())
      Head += " " + cond(For->getCond());
    Head += ";";
    if (For->getInc())
      Head += " " + expr(For->getInc());
    Head += ")";
    headedBody(Loc, Head, For->getBody());
    return;
  }
  case Stmt::WhileStmtClass: {
    const auto *W = cast<WhileStmt>(S);
    if (W->getConditionVariable()) {
      cannot(S);
      return;
    }
    std::string Head = "while (" + cond(W->getCond()) + ")";
    headedBody(Loc, Head, W->getBody());
    return;
  }
  case Stmt::DoStmtClass: {
    const auto *D = cast<DoStmt>(S);
    if (const auto *CS = dyn_cast<CompoundStmt>(D->getBody())) {
      line(Loc, "do {");
      ++Cur->Indent;
      compoundBody(CS, false);
      --Cur->Indent;
      Cur->StmtStart = D->getWhileLoc();
      line({}, "} while (" + cond(D->getCond()) + ");");
    } else {
      line(Loc, "do");
      subStmt(D->getBody());
      Cur->StmtStart = D->getWhileLoc();
      line({}, "while (" + cond(D->getCond()) + ");");
    }
    return;
  }
  case Stmt::SwitchStmtClass: {
    const auto *Sw = cast<SwitchStmt>(S);
    if (Sw->getInit() || Sw->getConditionVariable()) {
      cannot(S);
      return;
    }
    const auto *CS = dyn_cast<CompoundStmt>(Sw->getBody());
    if (!CS) {
      cannot(Sw->getBody());
      return;
    }
    line(Loc, "switch (" + expr(Sw->getCond()) + ") {");
    // Labels indented under the switch, or level with it, as the user has
    // them; statements one level deeper than the labels.
    unsigned Step = 2;
    if (!CS->body_empty() && isa<SwitchCase>(CS->body_front())) {
      SourceLocation L0 = SM.getExpansionLoc(Loc);
      SourceLocation L1 = SM.getExpansionLoc(CS->body_front()->getBeginLoc());
      if (SM.getExpansionColumnNumber(L1) <= SM.getExpansionColumnNumber(L0))
        Step = 1;
    }
    Cur->Indent += Step;
    compoundBody(CS, true);
    Cur->Indent -= Step;
    line({}, "}");
    return;
  }
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    cannot(S); // only directly in a switch body
    return;
  case Stmt::BreakStmtClass:
    line(Loc, "break;");
    return;
  case Stmt::ContinueStmtClass:
    line(Loc, "continue;");
    return;
  case Stmt::AttributedStmtClass: {
    // An unroll hint on a loop (`#pragma GCC unroll 4`, which the reference
    // build's GCC honours too, or Clang's `#pragma unroll`, `nounroll`)
    // becomes OpenCL C's `#pragma unroll`, on its own line before the loop.
    // Other loop hints (`#pragma clang loop vectorize(…)`) and attributes
    // (`[[likely]]`) have no OpenCL C spelling: the kernel compiler decides.
    const auto *A = cast<AttributedStmt>(S);
    for (const Attr *At : A->getAttrs())
      if (const auto *Hint = dyn_cast<LoopHintAttr>(At))
        if (std::string Pragma = unrollPragma(Hint, Ctx); !Pragma.empty())
          line(Hint->getLocation(), Pragma);
    stmt(A->getSubStmt());
    return;
  }
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
  case Stmt::LabelStmtClass:
    error(Loc, "'goto' and labels cannot be translated to OpenCL C");
    return;
  case Stmt::CXXTryStmtClass:
    error(Loc, "exceptions (try/catch) cannot be translated to OpenCL C");
    return;
  case Stmt::CXXForRangeStmtClass: {
    // Over a fixed-size array: an index loop, the element by value (or, for
    // a non-const reference, through a pointer).
    const auto *FR = cast<CXXForRangeStmt>(S);
    const Expr *Range = FR->getRangeInit();
    const auto *AT =
        Range ? Ctx.getAsConstantArrayType(Range->getType()) : nullptr;
    if (!AT || FR->getInit()) {
      if (const auto *RD = Range ? Range->getType()->getAsCXXRecordDecl()
                                 : nullptr;
          RD && inStdNamespace(RD)) {
        recordName(RD, Range->getBeginLoc());
        return;
      }
      error(Loc, "range-based for loops can be translated to OpenCL C only "
                 "over fixed-size arrays");
      return;
    }
    std::string Index =
        "ferry_i" + (RangeDepth ? std::to_string(RangeDepth) : std::string());
    std::string R = postfixBase(Range);
    line(Loc, "for (int " + Index + " = 0; " + Index + " < " +
                  std::to_string(AT->getSize().getZExtValue()) + "; ++" +
                  Index + ") {");
    ++RangeDepth;
    ++Cur->Indent;
    const VarDecl *LV = FR->getLoopVariable();
    QualType T = LV->getType();
    VarInfo Info;
    Info.Name = LV->getName().str();
    if (isReservedInOpenCL(Info.Name))
      Info.Name += "_";
    std::string Element = R + "[" + Index + "]";
    if (T->isReferenceType() && T.getNonReferenceType()->isArrayType()) {
      // A row of a multi-dimensional array: OpenCL C has no references, and
      // the element expression names the row as well.
      Info.Name = Element;
    } else if (T->isLValueReferenceType() &&
        !T.getNonReferenceType().isConstQualified()) {
      Info.RefPointer = true;
      Info.Where = objectSpace(Range);
      line(LV->getLocation(),
           spaceQualifier(Info.Where) +
               typeName(T.getNonReferenceType(), LV->getLocation(),
                        Info.Where != Space::Private) +
               "* " + Info.Name + " = &" + Element + ";");
    } else {
      line(LV->getLocation(),
           declare(T.getNonReferenceType(), Info.Name, LV->getLocation()) +
               " = " + Element + ";");
    }
    Cur->Vars[LV] = Info;
    if (const auto *CS = dyn_cast<CompoundStmt>(FR->getBody()))
      compoundBody(CS, false);
    else
      stmt(FR->getBody());
    --Cur->Indent;
    --RangeDepth;
    line({}, "}");
    return;
  }
  default:
    if (const auto *E = dyn_cast<Expr>(S)) {
      std::string Text = expr(E);
      line(Loc, Text + ";");
      return;
    }
    cannot(S);
    return;
  }
}

} // namespace emit
} // namespace ferry
