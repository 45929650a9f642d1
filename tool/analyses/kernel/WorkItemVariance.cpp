#include "analyses/kernel/WorkItemVariance.h"

#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ferry {

Variance contextFieldVariance(llvm::StringRef Field) {
  if (Field == "x" || Field == "y" || Field == "z" || Field == "localX" ||
      Field == "localY" || Field == "localZ")
    return Variance::Item;
  if (Field == "groupX" || Field == "groupY" || Field == "groupZ")
    return Variance::Group;
  // maxX, localSizeX, groupsX, ...: sizes, the same for every work-item. A
  // field Ferry does not know is taken as the worst.
  if (Field.starts_with("max") || Field.starts_with("localSize") ||
      Field.starts_with("groups"))
    return Variance::Uniform;
  return Variance::Item;
}

static bool isFerryNamespaced(const FunctionDecl *F) {
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "ferry")
        return true;
  return false;
}

WorkItemVariance::WorkItemVariance(
    const FunctionDecl *F, CallContext Ctx,
    const std::set<const ParmVarDecl *> &ReadOnly)
    : F(F), Context(std::move(Ctx)), ReadOnly(ReadOnly) {
  // A kernel's own parameters: uniform scalars, pointers into themselves.
  if (Context.Params.size() < F->getNumParams()) {
    Context.Params.resize(F->getNumParams());
    for (unsigned I = 0; I < F->getNumParams(); ++I)
      if (F->getParamDecl(I)->getType()->isPointerType())
        Context.Params[I].Buffer = F->getParamDecl(I);
  }
  if (!F->hasBody()) {
    GaveUp = true;
    return;
  }
  // Values only grow, so this ends; the bound guards against a bug.
  for (int Round = 0; Round < 32; ++Round) {
    Changed = false;
    walk(F->getBody(), Context.Control);
    if (!Changed)
      return;
  }
  GaveUp = true;
}

Variance WorkItemVariance::control(const Stmt *S) const {
  auto It = Control.find(S);
  return It == Control.end() ? Variance::Item : It->second;
}

Variance WorkItemVariance::valueOf(const ValueDecl *V) const {
  if (isKernelContextType(V->getType()) || V->getType()->isReferenceType())
    return Variance::Item;
  Variance Value = Variance::Uniform;
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    for (unsigned I = 0; I < F->getNumParams(); ++I)
      if (F->getParamDecl(I) == P)
        Value = Context.Params[I].Value;
  auto It = Vars.find(V);
  return It == Vars.end() ? Value : join(Value, It->second);
}

Variance WorkItemVariance::seen(const Stmt *S) const {
  auto It = Control.find(S);
  return It == Control.end() ? Variance::Uniform : It->second;
}

void WorkItemVariance::assign(const ValueDecl *V, Variance Value) {
  Variance &Slot = Vars[V];
  if (join(Slot, Value) != Slot) {
    Slot = join(Slot, Value);
    Changed = true;
  }
}

/// The variable an lvalue names, through `.member` and array elements of a
/// private array (`s.a = …`, `acc[i] = …` change `s` and `acc`).
static const ValueDecl *assignedVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  for (;;) {
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
        AS && AS->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      E = AS->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      // Through a decayed array: `acc[i]` where acc is `float acc[4]`.
      const auto *Cast = dyn_cast<ImplicitCastExpr>(AS->getBase());
      if (Cast && Cast->getCastKind() == CK_ArrayToPointerDecay) {
        E = Cast->getSubExpr()->IgnoreParenImpCasts();
        continue;
      }
    }
    break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(DRE->getDecl()))
      return DRE->getDecl();
  return nullptr;
}

void WorkItemVariance::visitAssignments(const Expr *E, Variance Ctl) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp()) {
    if (const ValueDecl *V = assignedVariable(BO->getLHS())) {
      Variance Value = join(of(BO->getRHS()), Ctl);
      // An element of a private array: the array holds differing values.
      if (BO->isCompoundAssignmentOp() ||
          !isa<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        Value = join(Value, valueOf(V));
      assign(V, Value);
      if (V->getType()->isPointerType()) {
        const ParmVarDecl *Root =
            BO->isCompoundAssignmentOp() ? bufferOf(BO->getLHS())
                                         : bufferOf(BO->getRHS());
        if (PointerRoots[V].insert(Root).second)
          Changed = true;
      }
    }
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp()) {
      if (const ValueDecl *V = assignedVariable(UO->getSubExpr()))
        assign(V, Ctl);
    } else if (UO->getOpcode() == UO_AddrOf) {
      // Its address escapes: anything may change it.
      if (const ValueDecl *V = assignedVariable(UO->getSubExpr());
          V && !isKernelContextType(V->getType()))
        assign(V, Variance::Item);
    }
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned First = isa<CXXOperatorCallExpr>(Call) &&
                             isa_and_nonnull<CXXMethodDecl>(Callee)
                         ? 1
                         : 0;
    for (unsigned I = First; I < Call->getNumArgs(); ++I) {
      unsigned P = I - First;
      QualType T = Callee && P < Callee->getNumParams()
                       ? Callee->getParamDecl(P)->getType()
                       : QualType();
      bool MayWrite = T.isNull() || (T->isReferenceType() &&
                                     !T.getNonReferenceType().isConstQualified());
      if (MayWrite)
        if (const ValueDecl *V = assignedVariable(Call->getArg(I));
            V && !isKernelContextType(V->getType()))
          assign(V, Variance::Item);
    }
    // A non-const member function of a local object may change it.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const CXXMethodDecl *M = MC->getMethodDecl(); M && !M->isConst())
        if (const ValueDecl *V =
                assignedVariable(MC->getImplicitObjectArgument());
            V && !isKernelContextType(V->getType()))
          assign(V, Variance::Item);
  }
}

namespace {
/// Jumps inside a statement and what they leave.
struct JumpScan {
  /// Returns, and breaks or continues that leave the statement scanned.
  std::vector<const Stmt *> Leaving;
  /// Breaks and continues that end an iteration of the loop scanned.
  std::vector<const Stmt *> OfLoop;
  bool Goto = false;

  void scan(const Stmt *S, bool InLoop, bool InSwitch, bool Top) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (isa<ReturnStmt>(S))
      Leaving.push_back(S);
    else if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      Goto = true;
    else if (isa<BreakStmt>(S)) {
      if (!InLoop && !InSwitch)
        (Top ? OfLoop : Leaving).push_back(S);
    } else if (isa<ContinueStmt>(S)) {
      if (!InLoop)
        (Top ? OfLoop : Leaving).push_back(S);
    }
    bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                isa<CXXForRangeStmt>(S);
    bool Switch = isa<SwitchStmt>(S);
    for (const Stmt *Child : S->children())
      scan(Child, InLoop || Loop, InSwitch || Switch, Top);
  }
};
} // namespace

Variance WorkItemVariance::divergentJumps(const Stmt *S, Variance Ctl,
                                          bool Loop) const {
  JumpScan J;
  if (Loop) {
    // The loop statement's own body: its breaks and continues.
    J.scan(S, false, false, /*Top=*/true);
    Variance V = Variance::Uniform;
    for (const Stmt *Jump : J.OfLoop)
      V = join(V, seen(Jump));
    return V;
  }
  J.scan(S, false, false, /*Top=*/false);
  Variance V = Variance::Uniform;
  for (const Stmt *Jump : J.Leaving)
    V = join(V, seen(Jump));
  return V;
}

void WorkItemVariance::walkChildren(const Stmt *S, Variance Ctl) {
  for (const Stmt *Child : S->children())
    if (Child)
      walk(Child, Ctl);
}

void WorkItemVariance::walk(const Stmt *S, Variance Ctl) {
  if (!S || isa<LambdaExpr>(S))
    return;
  auto [Slot, New] = Control.try_emplace(S, Ctl);
  if (!New && Slot->second != join(Slot->second, Ctl)) {
    Slot->second = join(Slot->second, Ctl);
    Changed = true;
  }
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
    GaveUp = true;
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body()) {
      walk(Child, Ctl);
      // Work-items that left early do not run what follows.
      Ctl = join(Ctl, divergentJumps(Child, Ctl, /*Loop=*/false));
    }
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit(), Ctl);
    if (If->getConditionVariableDeclStmt())
      walk(If->getConditionVariableDeclStmt(), Ctl);
    walk(If->getCond(), Ctl);
    Variance Inner = join(Ctl, of(If->getCond()));
    walk(If->getThen(), Inner);
    walk(If->getElse(), Inner);
    return;
  }
  auto Loop = [&](const Stmt *Init, const Expr *Cond, const Stmt *Inc,
                  const Stmt *Body) {
    walk(Init, Ctl);
    Variance Inner = Ctl;
    if (Cond)
      Inner = join(Inner, of(Cond));
    // Work-items that broke out or skipped an iteration alone take a
    // different number of trips from then on.
    Inner = join(Inner, divergentJumps(Body, Inner, /*Loop=*/true));
    walk(Cond, Inner);
    walk(Body, Inner);
    walk(Inc, Inner);
  };
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    if (For->getConditionVariableDeclStmt())
      walk(For->getConditionVariableDeclStmt(), Ctl);
    return Loop(For->getInit(), For->getCond(), For->getInc(), For->getBody());
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    if (While->getConditionVariableDeclStmt())
      walk(While->getConditionVariableDeclStmt(), Ctl);
    return Loop(nullptr, While->getCond(), nullptr, While->getBody());
  }
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return Loop(nullptr, Do->getCond(), nullptr, Do->getBody());
  if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    // Elements Ferry does not follow, a trip count it does not know.
    walk(RF->getRangeInit(), Ctl);
    assign(RF->getLoopVariable(), Variance::Item);
    walk(RF->getBody(), Variance::Item);
    return;
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    walk(Switch->getInit(), Ctl);
    walk(Switch->getCond(), Ctl);
    walk(Switch->getBody(), join(Ctl, of(Switch->getCond())));
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D)) {
        if (const Expr *Init = V->getInit()) {
          walk(Init, Ctl);
          Variance Value = join(of(Init), Ctl);
          if (V->getType()->isReferenceType()) {
            // An alias: the object it names may change through it.
            Value = Variance::Item;
            if (const ValueDecl *Target = assignedVariable(Init))
              assign(Target, Variance::Item);
          }
          assign(V, Value);
          if (V->getType()->isPointerType() &&
              PointerRoots[V].insert(bufferOf(Init)).second)
            Changed = true;
        } else {
          assign(V, Ctl);
        }
      }
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
    walk(CO->getCond(), Ctl);
    Variance Inner = join(Ctl, of(CO->getCond()));
    walk(CO->getTrueExpr(), Inner);
    walk(CO->getFalseExpr(), Inner);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    walk(BO->getLHS(), Ctl);
    walk(BO->getRHS(), join(Ctl, of(BO->getLHS())));
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    visitAssignments(E, Ctl);
  walkChildren(S, Ctl);
}

// --- values ------------------------------------------------------------------

static const Expr *skipWrappers(const Expr *E) {
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else
      return E;
  }
}

Variance WorkItemVariance::of(const Expr *E) const {
  if (!E)
    return Variance::Uniform;
  E = skipWrappers(E);
  if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<CXXBoolLiteralExpr>(E) || isa<CharacterLiteral>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E) ||
      isa<StringLiteral>(E))
    return Variance::Uniform;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() != CK_LValueToRValue &&
        ICE->getCastKind() != CK_ArrayToPointerDecay)
      return of(ICE->getSubExpr());
    const Expr *L = skipWrappers(ICE->getSubExpr());
    if (ICE->getCastKind() == CK_ArrayToPointerDecay)
      return Variance::Uniform; // the array's address: the same for all
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return Variance::Uniform;
      if (isKernelContextType(V->getType()))
        return Variance::Item;
      if (V->getType()->isReferenceType())
        return Variance::Item;
      if (!V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
        return V->getType().isConstQualified() ? Variance::Uniform
                                               : Variance::Item;
      return valueOf(V);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(L)) {
      const Expr *Base = ME->getBase();
      QualType BaseType = Base->getType();
      if (ME->isArrow() && BaseType->isPointerType())
        BaseType = BaseType->getPointeeType();
      if (isKernelContextType(BaseType))
        return contextFieldVariance(contextFieldMeaning(ME->getMemberDecl()->getName()));
      if (ME->isArrow())
        return loadOf(Base, nullptr);
      // A member of a local struct: as varied as the struct.
      const ValueDecl *V = assignedVariable(Base);
      if (V && !V->getType()->isReferenceType()) {
        auto It = Vars.find(V);
        return It == Vars.end() ? Variance::Uniform : It->second;
      }
      return Variance::Item;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
      return loadOf(AS->getBase(), AS->getIdx());
    if (const auto *UO = dyn_cast<UnaryOperator>(L);
        UO && UO->getOpcode() == UO_Deref)
      return loadOf(UO->getSubExpr(), nullptr);
    return Variance::Item;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return of(CE->getSubExpr());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()) ||
        isa<FunctionDecl>(DRE->getDecl()))
      return Variance::Uniform;
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
        V && V->getType().isConstQualified() && V->getInit() &&
        !V->getType()->isReferenceType() && V->isConstexpr())
      return Variance::Uniform;
    return Variance::Item; // an lvalue used as such: not a value
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isCompoundAssignmentOp()) {
      const ValueDecl *V = assignedVariable(BO->getLHS());
      return V ? join(valueOf(V), of(BO->getRHS())) : Variance::Item;
    }
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return of(BO->getRHS());
    return join(of(BO->getLHS()), of(BO->getRHS()));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = skipWrappers(UO->getSubExpr());
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
        return join(of(AS->getBase()), of(AS->getIdx()));
      if (const auto *D = dyn_cast<UnaryOperator>(Sub);
          D && D->getOpcode() == UO_Deref)
        return of(D->getSubExpr());
      return Variance::Item;
    }
    if (UO->getOpcode() == UO_Deref)
      return loadOf(UO->getSubExpr(), nullptr);
    if (UO->isIncrementDecrementOp()) {
      const ValueDecl *V = assignedVariable(UO->getSubExpr());
      return V ? valueOf(V) : Variance::Item;
    }
    return of(UO->getSubExpr());
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return join(of(CO->getCond()),
                join(of(CO->getTrueExpr()), of(CO->getFalseExpr())));
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callOf(Call);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    Variance V = Variance::Uniform;
    for (const Expr *Arg : CE->arguments())
      V = join(V, of(Arg));
    return V;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    Variance V = Variance::Uniform;
    for (const Expr *Init : IL->inits())
      V = join(V, of(Init));
    return V;
  }
  if (const auto *DI = dyn_cast<CXXDefaultArgExpr>(E))
    return of(DI->getExpr());
  if (isa<ImplicitValueInitExpr>(E) || isa<CXXScalarValueInitExpr>(E))
    return Variance::Uniform;
  return Variance::Item;
}

Variance WorkItemVariance::loadOf(const Expr *Pointer,
                                  const Expr *Index) const {
  // Only a buffer no work-item writes holds the same value for everyone at
  // the same place; anything else (a written buffer, local memory, a
  // private array) may hold what each work-item put there.
  const ParmVarDecl *Root = bufferOf(Pointer);
  if (!Root || !ReadOnly.count(Root))
    return Variance::Item;
  return join(of(Pointer), of(Index));
}

Variance WorkItemVariance::callOf(const CallExpr *Call) const {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return Variance::Item;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    QualType T = MC->getImplicitObjectArgument()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (isKernelContextType(T))
      return Variance::Uniform; // kc.barrier(): no value
    if (Callee->getName() == "size" && isFerryNamespaced(Callee))
      return Variance::Uniform; // a local array's size
    return Variance::Item;
  }
  // An atomic returns the old value: each work-item sees its own.
  if (isFerryNamespaced(Callee))
    return Variance::Item;
  // A function of its arguments' values; one that is handed memory may
  // read what work-items wrote there.
  Variance V = Variance::Uniform;
  unsigned First = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee)
                       ? 1
                       : 0;
  if (First)
    return Variance::Item;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    QualType T = I < Callee->getNumParams()
                     ? Callee->getParamDecl(I)->getType()
                     : Call->getArg(I)->getType();
    if (T->isPointerType() || T->isArrayType())
      return Variance::Item;
    if (T->isReferenceType() && !(T.getNonReferenceType().isConstQualified() &&
                                  T.getNonReferenceType()->isScalarType()))
      return Variance::Item;
    V = join(V, of(Call->getArg(I)));
  }
  return V;
}

const ParmVarDecl *WorkItemVariance::bufferOf(const Expr *Pointer) const {
  return Pointer ? bufferRoot(Pointer, 0) : nullptr;
}

const ParmVarDecl *WorkItemVariance::bufferRoot(const Expr *E,
                                                int Depth) const {
  if (Depth > 16)
    return nullptr;
  E = skipWrappers(E)->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *V = DRE->getDecl();
    if (V->getType()->isReferenceType())
      return nullptr;
    std::set<const ParmVarDecl *> Roots;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      for (unsigned I = 0; I < F->getNumParams(); ++I)
        if (F->getParamDecl(I) == P)
          Roots.insert(Context.Params[I].Buffer);
    }
    auto It = PointerRoots.find(V);
    if (It != PointerRoots.end())
      Roots.insert(It->second.begin(), It->second.end());
    if (Roots.size() != 1)
      return nullptr;
    return *Roots.begin();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp())
      return bufferRoot(BO->getLHS()->getType()->isPointerType()
                            ? BO->getLHS()
                            : BO->getRHS(),
                        Depth + 1);
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return bufferRoot(BO->isCommaOp() ? BO->getRHS() : BO->getLHS(),
                        Depth + 1);
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = skipWrappers(UO->getSubExpr())->IgnoreParens();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
        return bufferRoot(AS->getBase(), Depth + 1);
      if (const auto *D = dyn_cast<UnaryOperator>(Sub);
          D && D->getOpcode() == UO_Deref)
        return bufferRoot(D->getSubExpr(), Depth + 1);
      return nullptr;
    }
    if (UO->isIncrementDecrementOp())
      return bufferRoot(UO->getSubExpr(), Depth + 1);
    return nullptr;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    const ParmVarDecl *T = bufferRoot(CO->getTrueExpr(), Depth + 1);
    return T == bufferRoot(CO->getFalseExpr(), Depth + 1) ? T : nullptr;
  }
  return nullptr;
}

} // namespace ferry
