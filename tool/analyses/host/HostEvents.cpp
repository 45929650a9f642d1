// Host events (see HostEvents.h): the entry points, and the walker's
// statements (control flow, with the aliasing facts each part sees),
// declarations, and how an event is recorded. The walker's other parts are
// in HostEventExpressions.cpp, HostEventPointers.cpp, HostEventCalls.cpp and
// HostEventLibraryCalls.cpp (HostEventWalker.h lists them); docs/analyze.md
// lists each rule.

#include "analyses/host/HostEvents.h"

#include "analyses/host/HostEventWalker.h"
#include "analyses/paths/ObjectTable.h"
#include "model/FerryTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ferry {

void HostWalker::walkStmt(const Stmt *S) {
  if (!S)
    return;
  // Visiting a statement applies the aliasing of its sub-expressions as it
  // goes (each event sees the facts where it happens); the facts after it
  // are then applyAliasing's of the whole, from the facts before it, so
  // that nothing (`(std::swap(p, q), 0)`) is applied twice.
  if (const auto *E = dyn_cast<Expr>(S)) {
    PointsTo Before = Facts;
    visitValue(E);
    Facts = std::move(Before);
    applyAliasing(S, Table, Facts);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    PointsTo Before = Facts;
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        visitVarDecl(V);
    Facts = std::move(Before);
    applyAliasing(S, Table, Facts);
    return;
  }
  // Control flow: each part sees the facts that hold where it runs; the
  // facts after the statement are applyAliasing's join of its paths.
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    PointsTo Saved = Facts;
    walkStmt(If->getInit());
    if (If->getConditionVariableDeclStmt())
      walkStmt(If->getConditionVariableDeclStmt());
    else
      walkStmt(If->getCond());
    PointsTo Before = Facts;
    walkStmt(If->getThen());
    Facts = Before;
    walkStmt(If->getElse());
    Facts = Saved;
    applyAliasing(S, Table, Facts);
    return;
  }
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S))
    return walkLoop(S);
  if (const auto *Ret = dyn_cast<ReturnStmt>(S);
      Ret && Ret->getRetValue() &&
      refersToBuffer(Ret->getRetValue()->getType()) &&
      !Ret->getRetValue()->isPRValue()) {
    // `return c ? x : y;` from a function returning Buffer<T>&: the
    // caller gets a name for the buffer, not its elements.
    return visitAliasInit(Ret->getRetValue());
  }
  if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
    PointsTo Saved = Facts;
    walkStmt(Switch->getInit());
    if (Switch->getConditionVariableDeclStmt())
      walkStmt(Switch->getConditionVariableDeclStmt());
    else
      walkStmt(Switch->getCond());
    PointsTo Before = Facts;
    auto Case = [&](const Stmt *Child) {
      while (const auto *SC = dyn_cast_or_null<SwitchCase>(Child)) {
        joinFacts(Facts, Before);
        Child = SC->getSubStmt();
      }
      walkStmt(Child);
    };
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Switch->getBody()))
      for (const Stmt *Child : CS->body())
        Case(Child);
    else
      Case(Switch->getBody());
    Facts = Saved;
    applyAliasing(S, Table, Facts);
    return;
  }
  for (const Stmt *Child : S->children())
    walkStmt(Child);
}

void HostWalker::walkLoop(const Stmt *S) {
  PointsTo Saved = Facts;
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    walkStmt(For->getInit());
  } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    walkStmt(RF->getInit());
    const Expr *Range = RF->getRangeInit();
    if (Range && isBufferType(Range->getType())) {
      QualType VarType = RF->getLoopVariable()->getType();
      bool MayWrite = VarType->isReferenceType() &&
                      !VarType.getNonReferenceType().isConstQualified();
      add(Range, Range, MayWrite ? Access::ReadWrite : Access::Read,
          MayWrite ? "iterated by reference" : "iterated");
      LoopElements.insert(RF->getLoopVariable());
    } else if (Range) {
      visitValue(Range);
    }
    applyAliasing(RF->getRangeStmt(), Table, Facts);
    applyAliasing(RF->getBeginStmt(), Table, Facts);
    applyAliasing(RF->getEndStmt(), Table, Facts);
  }
  // The body sees the facts of every iteration.
  Facts = loopHeadFacts(S, Table, Facts);
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    size_t First = Events.size();
    std::vector<const Expr *> Counted = Counts.countedStores(For);
    walkStmt(For->getConditionVariableDeclStmt());
    walkStmt(For->getCond());
    walkStmt(For->getBody());
    walkStmt(For->getInc());
    Counts.keepCountsOfSoleAccesses(Events, First, Counted);
    // A running index's store writes what the two loops count.
    for (size_t K = First; K < Events.size(); ++K)
      if (Events[K].CountingLoop == For && Events[K].WrittenCountInner &&
          !Events[K].Escapes)
        Events[K].Range = Ranges.countedRange(Events[K]);
    Ranges.loopWalked(For, Events, First);
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (W->getConditionVariableDeclStmt())
      walkStmt(W->getConditionVariableDeclStmt());
    else
      walkStmt(W->getCond());
    walkStmt(W->getBody());
  } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
    walkStmt(Do->getBody());
    walkStmt(Do->getCond());
  } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
    // The loop variable binds an element; uses through it are its own.
    applyAliasing(RF->getLoopVarStmt(), Table, Facts);
    walkStmt(RF->getBody());
  }
  Facts = Saved;
  applyAliasing(S, Table, Facts);
}

void HostWalker::push(HostEvent E) {
  E.Escapes = E.Escapes || Escaping;
  // A guess is kept even when the table has no object of its type: the
  // buffer is one Ferry cannot name, and its access must still be planned
  // (through the run-time state), never dropped.
  if (!E.Targets.Ids.empty() || E.Targets.Guessed)
    Events.push_back(std::move(E));
}

void HostWalker::add(const Expr *Site, const Expr *Buffer, Access Mode,
                     std::string What, bool Overwrites, bool Escapes) {
  if (Mode == Access::None)
    return;
  HostEvent E;
  E.Site = Site;
  E.Buffer = Buffer;
  E.Targets = Table.resolve(Buffer, Facts);
  E.Mode = Mode;
  E.Overwrites = Overwrites;
  E.Escapes = Escapes;
  E.What = std::move(What);
  push(std::move(E));
}

void HostWalker::addRaw(const Expr *Site, const std::set<ObjectId> &Targets,
                        Access Mode, std::string What, bool Escapes) {
  if (Mode == Access::None)
    return;
  HostEvent E;
  E.Site = Site;
  E.Targets.Ids = Targets;
  E.Mode = Mode;
  E.Escapes = Escapes;
  E.What = std::move(What);
  push(std::move(E));
}

void HostWalker::addEscaping(const Expr *Site, ObjectRefs Targets,
                             std::string What, std::string Spelling) {
  HostEvent E;
  E.Site = Site;
  E.Spelling = std::move(Spelling);
  E.Targets = std::move(Targets);
  E.Mode = Access::ReadWrite;
  E.Escapes = true;
  E.What = std::move(What);
  push(std::move(E));
}

void HostWalker::addKind(HostEventKind Kind, const Expr *Buffer,
                         std::string What) {
  HostEvent E;
  E.Kind = Kind;
  E.Site = Buffer;
  E.Buffer = Buffer;
  E.Targets = Table.resolve(Buffer, Facts);
  E.What = std::move(What);
  push(std::move(E));
}

void HostWalker::elementRange(size_t Before, const Expr *Site,
                              const Expr *Pointer, const Expr *Index,
                              Access Mode) {
  if (Events.size() != Before + 1 || Mode == Access::None ||
      Events.back().Kind != HostEventKind::Access || Events.back().Escapes)
    return;
  Events.back().Range =
      Ranges.element(Site, Pointer, Index, Mode == Access::Write);
}

void HostWalker::visitVarDecl(const VarDecl *V) {
  const Expr *Init = V->getInit();
  QualType T = V->getType();
  if (isBufferType(T)) {
    const BufferObject *Local = Table.localFor(V);
    const auto *Construct =
        Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
    bool FromBuffer = Construct && Construct->getNumArgs() == 1 &&
                      isBufferType(Construct->getArg(0)->getType());
    if (Local) {
      HostEvent E;
      E.Kind = FromBuffer ? HostEventKind::Reset : HostEventKind::Create;
      E.Site = Init;
      E.Targets.Ids = {Local->Id};
      E.What = FromBuffer ? "moved into" : "created";
      push(E);
    }
    if (FromBuffer)
      addKind(HostEventKind::Reset, Construct->getArg(0), "moved from");
    else if (Init)
      visitValue(Init);
    return;
  }
  // A local container of buffers starts with new ones (host-valid).
  if (const BufferObject *C = Table.containerLocal(V)) {
    HostEvent E;
    E.Kind = HostEventKind::Create;
    E.Site = Init;
    E.Targets.Ids = {C->Id};
    E.What = "created";
    push(E);
  }
  // A local object that owns buffers (`Sim sim(n);`) creates them.
  for (ObjectId Id : Table.membersOfLocal(V)) {
    HostEvent E;
    E.Kind = HostEventKind::Create;
    E.Site = Init;
    E.Targets.Ids = {Id};
    E.What = "created with its object";
    push(E);
  }
  if (!Init)
    return;
  if (refersToBuffer(T))
    return visitAliasInit(Init); // `Buffer<T> &r = …`, `Buffer<T> *p = …`
  if (T->isPointerType())
    return bindPointer(V, Init);
  if (T->isReferenceType())
    return visitLValue(Init, Access::None); // an element reference
  visitValue(Init);
}

void HostWalker::visitAliasInit(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    visitValue(CO->getCond());
    visitAliasInit(CO->getTrueExpr());
    return visitAliasInit(CO->getFalseExpr());
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
    return visitAliasInit(UO->getSubExpr());
  if (isa<DeclRefExpr>(E) || isa<CXXNullPtrLiteralExpr>(E) ||
      isa<GNUNullExpr>(E) || isa<IntegerLiteral>(E))
    return;
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && isBufferType(ME->getType()))
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAssignmentOp()) {
    visitValue(BO);
    return;
  }
  visitValue(E);
}

const char *hostEventName(const HostEvent &E) {
  switch (E.Kind) {
  case HostEventKind::Access:
    return E.Escapes ? "escape" : accessName(E.Mode);
  case HostEventKind::Create:
    return "create";
  case HostEventKind::Swap:
    return "swap";
  case HostEventKind::Reset:
    return "move";
  }
  return "?";
}

std::vector<HostEvent> collectHostEvents(const Stmt *S,
                                         const ObjectTable &Table,
                                         PointsTo &Facts,
                                         HostSummaryCache &Summaries) {
  HostWalker Walker(Table, Facts, Summaries, S);
  Walker.walkStmt(S);
  return std::move(Walker.Events);
}

} // namespace ferry
