#include "plan/TransferPlanner.h"

#include "analyses/CallGraphs.h"
#include "analyses/ContainerBuffers.h"
#include "analyses/LoopShape.h"
#include "analyses/WorkGroupUse.h"
#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"
#include "plan/DownSafety.h"
#include "plan/Validity.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ferry {

namespace {

/// What a loop does, gathered from a dry run, to decide what may be hoisted.
struct LoopEffects {
  std::set<ObjectId> DeviceNeeds, DeviceWrites, HostNeeds, HostWrites;
  /// Objects needed somewhere through a name that may denote several
  /// (`*from` after a swap): which one is needed when is known only at run
  /// time, so their copies stay guarded at the use instead of hoisted.
  std::set<ObjectId> AmbiguousNeeds;
  /// Per object, the statements before which its copies would go: a copy
  /// hoisted above the loop is down-safe only if every path meets one.
  std::map<ObjectId, std::set<const Stmt *>> DeviceUses, HostUses;
};

struct JumpTargets {
  bool IsSwitch = false;
  std::vector<FlowState> Breaks, Continues;
};

/// Finds what makes a statement need the structured walk rather than being
/// one host stretch: dispatches, calls to planned functions, returns, and
/// jumps that leave it.
class StructureFinder : public RecursiveASTVisitor<StructureFinder> {
public:
  explicit StructureFinder(const std::set<const FunctionDecl *> &Planned)
      : Planned(Planned) {}
  bool Dispatch = false, PlannedCall = false, Return = false, Jump = false,
       Goto = false, Try = false;
  SourceLocation GotoLoc; ///< the first goto, for the diagnostic
  SourceLocation TryLoc;  ///< the first try

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (isDispatchCall(Call))
      Dispatch = true;
    else if (const FunctionDecl *F = Call->getDirectCallee();
             // Defined in another Ferry source: planned by the target.
             F && Planned.count(F->getDefinition() ? F->getDefinition() : F))
      PlannedCall = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) {
    Return = true;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *G) {
    if (!Goto)
      GotoLoc = G->getGotoLoc();
    Goto = true;
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *T) {
    if (!Try)
      TryLoc = T->getTryLoc();
    Try = true;
    return true;
  }
  bool TraverseForStmt(ForStmt *S) { return loop(S); }
  bool TraverseWhileStmt(WhileStmt *S) { return loop(S); }
  bool TraverseDoStmt(DoStmt *S) { return loop(S); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S); }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    // A break inside binds to the switch; a continue still leaves it.
    ++SwitchDepth;
    RecursiveASTVisitor::TraverseSwitchStmt(S);
    --SwitchDepth;
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) {
    Jump |= LoopDepth == 0 && SwitchDepth == 0;
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *) {
    Jump |= LoopDepth == 0;
    return true;
  }

  bool needsStructure() const {
    return Dispatch || PlannedCall || Return || Jump;
  }

private:
  template <class T> bool loop(T *S) {
    ++LoopDepth;
    int SavedSwitch = SwitchDepth;
    SwitchDepth = 0;
    for (Stmt *Child : S->children())
      TraverseStmt(Child);
    SwitchDepth = SavedSwitch;
    --LoopDepth;
    return true;
  }
  const std::set<const FunctionDecl *> &Planned;
  int LoopDepth = 0, SwitchDepth = 0;
};

class Planner {
public:
  Planner(PlanningContext &PC, const FunctionDecl *F, bool Entry,
          bool Internal)
      : PC(PC), Ctx(PC.Ctx), SM(Ctx.getSourceManager()), F(F),
        Table(F, PC.Host.globals().of(F).Named),
        SyncsAtExit(!Internal) {
    Plan.Function = F;
    Plan.Context = F->getParamDecl(0)->getNameAsString();
    Start.Objects.resize(Table.objects().size());
    // From Accelerator::compute the host holds everything and the device
    // nothing (a new epoch); from a planned caller, only the run-time state
    // knows.
    for (const BufferObject &O : Table.objects())
      if (O.callerVisible())
        Start.Objects[O.Id] =
            Entry ? CopyState{Validity::Valid, Validity::Stale}
                  : CopyState{Validity::Unknown, Validity::Unknown};
    Start.Facts = Table.entryPointsTo();
  }

  FunctionPlan run() {
    StructureFinder Finder(PC.Planned);
    Finder.TraverseStmt(F->getBody());
    if (Finder.Goto) {
      reportError(Ctx, Finder.GotoLoc,
                  "compute function '" + F->getNameAsString() +
                      "' uses goto, which Ferry's planner does not follow");
      return Plan;
    }
    if (Finder.Try) {
      reportError(Ctx, Finder.TryLoc,
                  "compute function '" + functionLabel(F) +
                      "' uses try, which Ferry's planner does not follow (an "
                      "exception would skip the copies planned after its "
                      "throw); catch outside the compute");
      return Plan;
    }
    const auto *Body = cast<CompoundStmt>(F->getBody());
    FlowState End = walk(Body, Start);
    if (End.Reachable)
      exitCopies(End, Placement::EndOfBlock, Body);
    return std::move(Plan);
  }

private:
  // --- recording -------------------------------------------------------------
  unsigned line(SourceLocation L) const {
    return SM.getExpansionLineNumber(L);
  }

  /// `E` as the file spells it (a macro at either end kept as written), or
  /// "" when it lies inside a macro's body and has no spelling of its own.
  std::string text(const Expr *E) const {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (R.isInvalid())
      return "";
    return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }

  /// How to name the buffer `Refs` in an inserted line at a use site.
  /// The runtime's calls take a buffer, so one named through a pointer
  /// (`&b`, `p`, `grid[i]`) is spelled as the buffer it points to.
  std::string spelling(const Expr *Site, const ObjectRefs &Refs) const {
    if (Site) {
      const Expr *E = Site->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(E);
          UO && UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenImpCasts();
      else if (!E->getType()->isPointerType())
        E = Site;
      std::string T = text(E);
      if (!T.empty() && E->getType()->isPointerType())
        T = isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr, CallExpr>(E)
                ? "*" + T
                : "*(" + T + ")";
      if (!T.empty())
        return T;
    }
    if (Refs.Ids.size() == 1)
      return Table.object(*Refs.Ids.begin()).Spelling;
    return "";
  }

  void emit(TransferKind Kind, std::string Buffer, const std::set<ObjectId> &Ids,
            Placement Where, const Stmt *Anchor, std::string Reason) {
    if (!Record)
      return;
    if (Buffer.empty()) {
      reportError(Ctx, Anchor->getBeginLoc(),
                  "Ferry needs a transfer here but cannot name the buffer in "
                  "source; bind it to a reference outside any macro");
      return;
    }
    // The same line again at the same place (`std::copy(p->begin(),
    // p->end(), …)` reads through one name twice) would do nothing.
    if (!Plan.Transfers.empty()) {
      const Transfer &Last = Plan.Transfers.back();
      if (Last.Kind == Kind && Last.Where == Where && Last.Anchor == Anchor &&
          Last.Buffer == Buffer)
        return;
    }
    Transfer T;
    T.Kind = Kind;
    T.Where = Where;
    T.Anchor = Anchor;
    T.Buffer = std::move(Buffer);
    T.Objects = Ids;
    T.Reason = std::move(Reason);
    // A container's own name (an exit copy, a call that may touch every
    // buffer): the line is for each of its elements.
    T.EachElement =
        EachElement ||
        (Ids.size() == 1 && Table.object(*Ids.begin()).Elements &&
         T.Buffer == Table.object(*Ids.begin()).Spelling);
    Plan.Transfers.push_back(std::move(T));
  }

  // --- state transitions -----------------------------------------------------
  void note(std::set<ObjectId> LoopEffects::*Field,
            const std::set<ObjectId> &Ids) {
    for (LoopEffects *E : Effects)
      (E->*Field).insert(Ids.begin(), Ids.end());
  }

  /// Where a line placed at (Where, Anchor) runs: before Anchor, or for the
  /// end of a do-while's body, with the loop's test.
  void noteUse(std::map<ObjectId, std::set<const Stmt *>> LoopEffects::*Field,
               const std::set<ObjectId> &Ids, Placement Where,
               const Stmt *Anchor) {
    if (Effects.empty() || !Anchor)
      return;
    const Stmt *At = Anchor;
    if (Where == Placement::EndOfBlock) {
      At = nullptr;
      for (const DynTypedNode &P : Ctx.getParents(*Anchor))
        if (const auto *Do = P.get<DoStmt>(); Do && Do->getBody() == Anchor)
          At = Do->getCond();
      if (!At)
        return;
    }
    for (LoopEffects *E : Effects)
      for (ObjectId Id : Ids)
        (E->*Field)[Id].insert(At);
  }

  static Validity weak(Validity Old, Validity New) { return join(Old, New); }

  /// Sets (strongly for one known object, weakly otherwise) and weakly for
  /// every object that may be the same buffer.
  void update(FlowState &S, const ObjectRefs &R, Validity CopyState::*Field,
              Validity V) {
    for (ObjectId Id : R.Ids)
      S.Objects[Id].*Field = R.single() ? V : weak(S.Objects[Id].*Field, V);
    for (ObjectId Id : Table.withAliases(R.Ids))
      if (!R.Ids.count(Id))
        S.Objects[Id].*Field = weak(S.Objects[Id].*Field, V);
  }

  bool all(const FlowState &S, const ObjectRefs &R, Validity CopyState::*Field,
           Validity V) const {
    for (ObjectId Id : R.Ids)
      if (S.Objects[Id].*Field != V)
        return false;
    return true;
  }

  /// R, never exact when it holds a container's elements: which buffer
  /// is meant only the run knows, so nothing about it is decided statically.
  ObjectRefs weakened(const ObjectRefs &R) const {
    ObjectRefs W = R;
    for (ObjectId Id : R.Ids)
      if (Table.object(Id).Elements)
        W.Exact = false;
    return W;
  }

  void requireDevice(FlowState &S, const ObjectRefs &Refs, std::string Name,
                     Placement Where, const Stmt *Anchor,
                     const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    // A need the loop itself satisfies first on every path (a kernel that
    // overwrites the buffer earlier in the iteration) is no reason to copy
    // before the loop.
    if (all(S, R, &CopyState::Device, Validity::Valid))
      return;
    note(&LoopEffects::DeviceNeeds, R.Ids);
    noteUse(&LoopEffects::DeviceUses, R.Ids, Where, Anchor);
    if (!R.single())
      note(&LoopEffects::AmbiguousNeeds, R.Ids);
    bool Static = R.single() && all(S, R, &CopyState::Device, Validity::Stale);
    emit(Static ? TransferKind::ToDevice : TransferKind::ToDeviceIfStale,
         std::move(Name), R.Ids, Where, Anchor,
         Why + (Static ? "; the device copy is stale"
                       : "; the device copy may be stale"));
    update(S, R, &CopyState::Device, Validity::Valid);
  }

  void requireHost(FlowState &S, const ObjectRefs &Refs, std::string Name,
                   Placement Where, const Stmt *Anchor,
                   const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    if (all(S, R, &CopyState::Host, Validity::Valid))
      return;
    note(&LoopEffects::HostNeeds, R.Ids);
    noteUse(&LoopEffects::HostUses, R.Ids, Where, Anchor);
    if (!R.single())
      note(&LoopEffects::AmbiguousNeeds, R.Ids);
    bool Static = R.single() && all(S, R, &CopyState::Host, Validity::Stale);
    emit(Static ? TransferKind::FromDevice : TransferKind::FromDeviceIfStale,
         std::move(Name), R.Ids, Where, Anchor,
         Why + (Static ? "; the device holds the newer copy"
                       : "; the device may hold a newer copy"));
    update(S, R, &CopyState::Host, Validity::Valid);
  }

  void deviceWrites(FlowState &S, const ObjectRefs &Refs) {
    ObjectRefs R = weakened(Refs);
    note(&LoopEffects::DeviceWrites, Table.withAliases(R.Ids));
    update(S, R, &CopyState::Device, Validity::Valid);
    update(S, R, &CopyState::Host, Validity::Stale);
  }

  void hostWrites(FlowState &S, const ObjectRefs &Refs, std::string Name,
                  Placement Where, const Stmt *Anchor, const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    note(&LoopEffects::HostWrites, Table.withAliases(R.Ids));
    if (!all(S, R, &CopyState::Device, Validity::Stale))
      emit(TransferKind::HostWrites, std::move(Name), R.Ids, Where, Anchor,
           Why + "; the device copy becomes stale");
    update(S, R, &CopyState::Host, Validity::Valid);
    update(S, R, &CopyState::Device, Validity::Stale);
  }

  /// A host write of a run-time count of elements from the start: whether it
  /// covers the buffer is the runtime's call. False when this does not
  /// apply and the write is planned as any other.
  bool hostWritesFirst(FlowState &S, const HostEvent &E, const std::string &Name,
                       Placement Where, const Stmt *Anchor, unsigned Line) {
    if ((!E.WrittenCount && !E.WrittenCountOf && !E.WrittenCountConst) ||
        !weakened(E.Targets).single() ||
        all(S, E.Targets, &CopyState::Host, Validity::Valid))
      return false;
    std::string Count =
        E.WrittenCountConst
            ? std::to_string(E.WrittenCountConst)
            : text(E.WrittenCountOf ? E.WrittenCountOf : E.WrittenCount);
    if (Count.empty()) // from a macro: plan it as any other write
      return false;
    // `i <= n` runs n + 1 times; two nested loops, the product of their
    // trip counts (each 0 when its bound is below its start).
    auto Trips = [&](const std::string &Bound, bool Inclusive) {
      bool Simple = llvm::all_of(Bound, [](char C) {
        return isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
      });
      return "ferry::tripCount(0, " +
             (Inclusive ? (Simple ? Bound : "(" + Bound + ")") + " + 1"
                        : Bound) +
             ")";
    };
    if (E.WrittenCountInner) {
      std::string Inner = text(E.WrittenCountInner);
      if (Inner.empty())
        return false;
      Count = Trips(Count, E.WrittenCountInclusive) + " * " +
              Trips(Inner, E.WrittenCountInnerInclusive);
    } else if (E.WrittenCountInclusive) {
      Count = Trips(Count, true);
    }
    if (E.WrittenCountOf)
      Count += E.WrittenCountOf->getType()->isPointerType() ? "->size()"
                                                            : ".size()";
    note(&LoopEffects::HostWrites, Table.withAliases(E.Targets.Ids));
    emit(TransferKind::HostWritesFirst, Name, E.Targets.Ids, Where, Anchor,
         "line " + std::to_string(Line) + ": the host writes the first " +
             Count + " elements of `" + Name +
             "`; the rest is copied back first if that is not all of it");
    if (Record)
      Plan.Transfers.back().Count = Count;
    update(S, E.Targets, &CopyState::Host, Validity::Valid);
    update(S, E.Targets, &CopyState::Device, Validity::Stale);
    return true;
  }

  void forget(FlowState &S, const std::set<ObjectId> &Ids) {
    std::set<ObjectId> All = Table.withAliases(Ids);
    note(&LoopEffects::HostWrites, All);
    note(&LoopEffects::DeviceWrites, All);
    for (ObjectId Id : All)
      S.Objects[Id] = {Validity::Unknown, Validity::Unknown};
  }

  // --- host code -------------------------------------------------------------
  /// Arguments of planned calls in S, handed over rather than accessed,
  /// with the callee they go to.
  std::map<const Expr *, const FunctionDecl *>
  handedOver(const Stmt *S,
             std::vector<std::pair<const Expr *, const FunctionDecl *>>
                 *TopLevelArgs = nullptr) const {
    std::map<const Expr *, const FunctionDecl *> Args;
    std::vector<std::pair<const Expr *, const FunctionDecl *>> Ignored;
    struct Finder : RecursiveASTVisitor<Finder> {
      const std::set<const FunctionDecl *> *Planned;
      std::map<const Expr *, const FunctionDecl *> *Args;
      std::vector<std::pair<const Expr *, const FunctionDecl *>> *TopLevel;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitCallExpr(CallExpr *Call) {
        const FunctionDecl *Callee = Call->getDirectCallee();
        if (!Callee || !Planned->count(Callee->getDefinition()
                                           ? Callee->getDefinition()
                                           : Callee))
          return true;
        // The argument and everything in it: `Pair{a, b}` hands a and b.
        struct All : RecursiveASTVisitor<All> {
          std::map<const Expr *, const FunctionDecl *> *Args;
          const FunctionDecl *Callee;
          bool VisitExpr(Expr *E) {
            Args->emplace(E, Callee);
            return true;
          }
        } Inside;
        Inside.Args = Args;
        if (Callee->getDefinition())
          Callee = Callee->getDefinition();
        Inside.Callee = Callee;
        // The global buffers it reaches go with the call itself.
        Args->emplace(Call, Callee);
        for (const Expr *A : Call->arguments()) {
          Inside.TraverseStmt(const_cast<Expr *>(A));
          TopLevel->emplace_back(A, Callee);
        }
        return true;
      }
    } Find;
    Find.Planned = &PC.Planned;
    Find.Args = &Args;
    Find.TopLevel = TopLevelArgs ? TopLevelArgs : &Ignored;
    Find.TraverseStmt(const_cast<Stmt *>(S));
    return Args;
  }

  /// The count's text, spelled before S, must mean what it means at the
  /// write: nothing in S may assign a variable it names (`n = 5; for (i = 0;
  /// i < n; ++i) b[i] = …;` in one stretch).
  bool countChangesWithin(const HostEvent &E, const Stmt *S) const {
    const Expr *Count = E.WrittenCount ? E.WrittenCount : E.WrittenCountOf;
    if (!Count)
      return false;
    std::set<const VarDecl *> Named = namedThrough(Count);
    if (E.WrittenCountInner)
      for (const VarDecl *V : namedThrough(E.WrittenCountInner))
        Named.insert(V);
    std::set<const VarDecl *> Changed = reboundWithin(S);
    for (const VarDecl *V : Named)
      if (Changed.count(V))
        return true;
    return false;
  }

  /// Whether `E`, inside `S`, may be skipped when S runs: a branch of `?:`,
  /// the right side of `&&` or `||`, the body of a loop or an if.
  bool conditionalWithin(const Stmt *E, const Stmt *S) const {
    DynTypedNode Node = DynTypedNode::create(*E);
    const Stmt *Child = E;
    while (Child != S) {
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return true; // lost the way up: assume the worst
      Node = Parents[0];
      // A variable's initialiser runs with its declaration: climb on.
      if (Node.get<Decl>() && !Node.get<Stmt>())
        continue;
      const Stmt *Parent = Node.get<Stmt>();
      if (!Parent)
        return true;
      if (isa<IfStmt>(Parent) || isa<ForStmt>(Parent) ||
          isa<WhileStmt>(Parent) || isa<DoStmt>(Parent) ||
          isa<CXXForRangeStmt>(Parent) || isa<SwitchStmt>(Parent) ||
          isa<AbstractConditionalOperator>(Parent))
        return true;
      if (const auto *BO = dyn_cast<BinaryOperator>(Parent);
          BO && BO->isLogicalOp() && BO->getRHS() == Child)
        return true;
      Child = Parent;
    }
    return false;
  }

  /// A write that makes the host copy the newer one without copying first
  /// (a whole overwrite, or a run-time count from the start) tells the
  /// runtime so where it happens: only where it happens on every path.
  static bool changesStateWithoutCopy(const HostEvent &E) {
    return E.Kind == HostEventKind::Access && writes(E.Mode) &&
           (E.Overwrites || E.WrittenCount || E.WrittenCountOf ||
            E.WrittenCountConst);
  }

  bool hasStateChangeWithoutCopy(const Stmt *S, const FlowState &In) const {
    PointsTo Facts = In.Facts;
    // A loop's own counted store says what the whole loop writes: its line
    // goes before the loop.
    for (const HostEvent &E : collectHostEvents(S, Table, Facts, PC.Host))
      if (changesStateWithoutCopy(E) && E.CountingLoop != S)
        return true;
    return false;
  }

  /// Variables S declares, or whose value S may change (assigned, swapped,
  /// incremented, its address taken): a name spelled with one of them may
  /// denote another buffer, or nothing, before S.
  std::set<const VarDecl *> reboundWithin(const Stmt *S) const {
    struct Finder : RecursiveASTVisitor<Finder> {
      std::set<const VarDecl *> Found;
      void changed(const Expr *E) {
        E = E->IgnoreParenImpCasts();
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
          E = AS->getBase()->IgnoreParenImpCasts();
        // A pointer, an array of them or an index (`grid[cur]`) can come to
        // name another buffer; a reference or a buffer keeps its meaning,
        // whatever is assigned to it or done with its address.
        if (const auto *R = dyn_cast<DeclRefExpr>(E))
          if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
              V && !V->getType()->isReferenceType() &&
              !isBufferType(V->getType()))
            Found.insert(V);
      }
      bool VisitVarDecl(VarDecl *V) {
        Found.insert(V);
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        if (B->isAssignmentOp())
          changed(B->getLHS());
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
          changed(U->getSubExpr());
        return true;
      }
      bool VisitCallExpr(CallExpr *Call) {
        // std::swap and anything else taking it by non-const reference.
        const FunctionDecl *Callee = Call->getDirectCallee();
        for (unsigned I = 0; I < Call->getNumArgs(); ++I)
          if (!Callee || I >= Callee->getNumParams() ||
              (Callee->getParamDecl(I)->getType()->isReferenceType() &&
               !Callee->getParamDecl(I)
                    ->getType()
                    .getNonReferenceType()
                    .isConstQualified()))
            if (Call->getArg(I)->getType()->isPointerType() ||
                Call->getArg(I)->getType()->isArrayType())
              changed(Call->getArg(I));
        return true;
      }
    } Find;
    Find.TraverseStmt(const_cast<Stmt *>(S));
    return Find.Found;
  }

  /// The variables `E` names its buffer through (`p` in `(*p)[i]`,
  /// `grid` in `grid[cur]->data()`, `to` in `h(to)`).
  static std::set<const VarDecl *> namedThrough(const Expr *E) {
    struct Refs : RecursiveASTVisitor<Refs> {
      std::set<const VarDecl *> Found;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
          Found.insert(V);
        return true;
      }
    } R;
    if (E)
      R.TraverseStmt(const_cast<Expr *>(E));
    return R.Found;
  }

  /// Whether an event of S names its buffer through something S declares or
  /// rebinds (`while (…) { auto &to = c ? a : b; h(to); }`, `std::swap(p,
  /// q); (*p)[i] = …`): before S that name does not exist, or denotes
  /// another buffer, so S's lines must go inside it.
  bool namesReboundInside(const Stmt *S, const FlowState &In) const {
    std::set<const VarDecl *> Rebound = reboundWithin(S);
    if (Rebound.empty())
      return false;
    PointsTo Facts = In.Facts;
    for (const HostEvent &E : collectHostEvents(S, Table, Facts, PC.Host))
      for (const VarDecl *V : namedThrough(E.Buffer))
        if (Rebound.count(V))
          return true;
    return false;
  }

  FlowState hostCode(const Stmt *S, FlowState In, Placement Where,
                     const Stmt *Anchor) {
    std::vector<HostEvent> Events =
        collectHostEvents(S, Table, In.Facts, PC.Host);
    // Placed at `Anchor`, before all of S: a write S may skip is planned as
    // a partial one (copy back first), never as an overwrite.
    for (HostEvent &E : Events)
      if (changesStateWithoutCopy(E) && E.Site &&
          (conditionalWithin(E.CountingLoop ? E.CountingLoop : E.Site, S) ||
           countChangesWithin(E, S))) {
        E.Overwrites = false;
        E.WrittenCount = E.WrittenCountOf = nullptr;
        E.WrittenCountConst = 0;
      }
    std::vector<std::pair<const Expr *, const FunctionDecl *>> HandedArgs;
    std::map<const Expr *, const FunctionDecl *> Handed =
        handedOver(S, &HandedArgs);
    std::set<ObjectId> HandedIds;
    std::set<const VarDecl *> Rebound;
    if (!isa<Expr>(S) || Events.size() > 1)
      Rebound = reboundWithin(S);
    for (const HostEvent &E : Events) {
      std::string Name = spelling(E.Buffer, E.Targets);
      if (Name.empty())
        Name = E.Spelling;
      // A container handed to a function on the host: its lines are for
      // each element.
      EachElementScope Each(*this, E.Buffer && isContainerExpr(E.Buffer));
      // Named through something S rebinds before the line's place: only the
      // object's own name is right there, and only when it is one object.
      for (const VarDecl *V : namedThrough(E.Buffer))
        if (Rebound.count(V)) {
          Name = E.Targets.single() && nameable(*E.Targets.Ids.begin())
                     ? Table.object(*E.Targets.Ids.begin()).Spelling
                     : "";
          // An element of a container: the container, element by element
          // (each line guarded, so only those that need it move).
          if (E.Targets.Ids.size() == 1 &&
              Table.object(*E.Targets.Ids.begin()).Elements &&
              nameable(*E.Targets.Ids.begin())) {
            Name = Table.object(*E.Targets.Ids.begin()).Spelling;
            EachElement = true;
          }
          break;
        }
      unsigned L = E.Site ? line(E.Site->getBeginLoc()) : line(S->getBeginLoc());
      switch (E.Kind) {
      case HostEventKind::Create:
        for (ObjectId Id : E.Targets.Ids) {
          In.Objects[Id] = CopyState{};
          note(&LoopEffects::HostWrites, {Id});
          note(&LoopEffects::DeviceWrites, {Id});
        }
        break;
      case HostEventKind::Reset:
        forget(In, E.Targets.Ids);
        break;
      case HostEventKind::Swap:
        if (E.Targets.single() && E.Others.single()) {
          std::swap(In.Objects[*E.Targets.Ids.begin()],
                    In.Objects[*E.Others.Ids.begin()]);
          std::set<ObjectId> Both = E.Targets.Ids;
          Both.insert(E.Others.Ids.begin(), E.Others.Ids.end());
          note(&LoopEffects::HostWrites, Table.withAliases(Both));
          note(&LoopEffects::DeviceWrites, Table.withAliases(Both));
        } else {
          forget(In, E.Targets.Ids);
          forget(In, E.Others.Ids);
        }
        break;
      case HostEventKind::Access:
        // A planned callee copies what it needs itself, guarded by the
        // run-time state, which every host write so far has kept current.
        if (E.Site && Handed.count(E.Site)) {
          HandedIds.insert(E.Targets.Ids.begin(), E.Targets.Ids.end());
          // A buffer this function cannot name (an element of a container
          // it has no object for, say) it cannot bring home at its exit:
          // the callee must.
          if (E.Targets.Guessed)
            PC.MustSyncAtExit.insert(Handed.at(E.Site));
          break;
        }
        if (writes(E.Mode) && !reads(E.Mode) &&
            hostWritesFirst(In, E, Name, Where, Anchor, L))
          break;
        if (reads(E.Mode) || (writes(E.Mode) && !E.Overwrites))
          requireHost(In, E.Targets, Name, Where, Anchor,
                      "line " + std::to_string(L) + ": `" + Name + "` " +
                          E.What + " on the host");
        if (writes(E.Mode))
          hostWrites(In, E.Targets, Name, Where, Anchor,
                     "line " + std::to_string(L) + " writes `" + Name +
                         "` on the host");
        break;
      }
    }
    // Whatever a planned call's arguments can reach is handed over, whether
    // or not the callee touches it on the host (a struct of buffer pointers
    // its kernels use produces no host event at all).
    for (auto [Arg, Callee] : HandedArgs) {
      QualType T = Arg->getType().getNonReferenceType();
      std::vector<ObjectRefs> Reached;
      const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
      if (refersToBuffer(T)) {
        Reached.push_back(Table.resolve(Arg, In.Facts));
      } else if (const BufferObject *C = Table.containerFor(Arg)) {
        ObjectRefs Elements;
        Elements.Ids = {C->Id};
        Elements.Exact = false;
        Reached.push_back(Elements);
      } else if (Ref && namesBufferPointerArray(Ref->getDecl()) &&
                 In.Facts.count(Ref->getDecl())) {
        // An array of buffer pointers: the buffers its elements point to,
        // each of which this function can name.
        ObjectRefs Elements;
        Elements.Ids = In.Facts.at(Ref->getDecl());
        Reached.push_back(Elements);
      } else {
        Reached = Table.membersOf(Arg, In.Facts);
      }
      if (Reached.empty() && !isBufferType(T) &&
          T.getAsString().find("ferry::Buffer<") != std::string::npos)
        Reached.push_back(Table.anyBufferOf(QualType())); // a container
      for (const ObjectRefs &R : Reached) {
        HandedIds.insert(R.Ids.begin(), R.Ids.end());
        if (R.Guessed)
          PC.MustSyncAtExit.insert(Callee);
      }
    }
    // The callee leaves each buffer wherever its latest copy is; only the
    // run-time state knows where.
    if (!HandedIds.empty()) {
      note(&LoopEffects::HostWrites, Table.withAliases(HandedIds));
      note(&LoopEffects::DeviceWrites, Table.withAliases(HandedIds));
      for (ObjectId Id : Table.withAliases(HandedIds))
        In.Objects[Id] = {Validity::Unknown, Validity::Unknown};
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const BufferObject *O = Table.localFor(V))
            InScope.insert(O->Id);
    return In;
  }

  // --- dispatches ------------------------------------------------------------
  static int rangeDims(const Expr *Range) {
    Range = Range->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Range))
      Range = Cast->getSubExpr()->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Range))
      if (CE->getNumArgs() >= 1 && CE->getNumArgs() <= 3 &&
          !isa<CXXDefaultArgExpr>(CE->getArg(0)) &&
          !CE->getArg(0)->getType()->getAsCXXRecordDecl())
        return static_cast<int>(CE->getNumArgs());
    return 0;
  }

  FlowState dispatch(const CallExpr *Call, const Stmt *Anchor, FlowState In) {
    const FunctionDecl *Kernel = dispatchedKernel(Call);
    if (Call->getBeginLoc().isMacroID()) {
      reportError(Ctx, SM.getExpansionLoc(Call->getBeginLoc()),
                  "a dispatch inside a macro expansion cannot be rewritten; "
                  "write cc.dispatch(...) in the compute function itself");
      return In;
    }
    if (!Kernel || !PC.Kernels.count(Kernel->getDefinition())) {
      reportError(Ctx, Call->getArg(0)->getExprLoc(),
                  "the first argument of dispatch must name a FERRY_KERNEL "
                  "function");
      return In;
    }
    Kernel = Kernel->getDefinition();
    // The range and scalar arguments are evaluated on the host first
    // (`cc.dispatch(k, Range(n), b, a[3])` reads `a` there).
    In = hostCode(Call, In, Placement::BeforeStmt, Anchor);
    const KernelAccessSummary &Summary = PC.Kernels.at(Kernel);
    int Dims = rangeDims(Call->getArg(1));
    std::string KName = Kernel->getNameAsString();
    unsigned KLine = line(Call->getBeginLoc());

    DispatchPlan DP;
    DP.Call = Call;
    DP.Kernel = Kernel;
    DP.OpenCLName = openclName(Kernel);
    std::vector<std::pair<ObjectRefs, bool>> Written;
    for (unsigned I = 2; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      unsigned ParamIndex = I - 1;
      LaunchArgument LA;
      LA.Arg = Arg;
      if (ParamIndex >= Kernel->getNumParams())
        break;
      const ParmVarDecl *Param = Kernel->getParamDecl(ParamIndex);
      if (!refersToBuffer(Arg->getType())) {
        QualType From = Arg->getType().getCanonicalType().getUnqualifiedType();
        QualType To = Param->getType().getCanonicalType().getUnqualifiedType();
        if (From != To && !isLocalSpanType(Param->getType()))
          LA.CastTo = Param->getType().getUnqualifiedType().getAsString(
              Ctx.getPrintingPolicy());
        DP.Arguments.push_back(LA);
        continue;
      }
      ObjectRefs Refs = Table.resolve(Arg, In.Facts);
      if (Refs.Guessed || Refs.Ids.empty()) {
        // Once, from the recorded pass (a loop's dry runs see it too).
        if (Record)
          reportError(Ctx, Arg->getExprLoc(),
                      "Ferry cannot tell which buffer this argument is; pass "
                      "a buffer parameter, a local buffer, a buffer member of "
                      "an object or of `this`, an element of a container of "
                      "buffers the function names, or a reference or pointer "
                      "bound to one");
        return In;
      }
      const ParamAccess *PA = Summary.forParam(ParamIndex);
      if (!PA) {
        DP.Arguments.push_back(LA);
        continue;
      }
      std::string Name = text(Arg);
      bool Overwrites = overwritesWholeRange(*PA, Dims);
      if (PA->Inferred == Access::None)
        LA.Wrapper = "unused";
      else if (!writes(PA->Inferred))
        LA.Wrapper = "ro";
      else if (Overwrites)
        // Declared: the user's promise, never copied in under planned.
        LA.Wrapper = PA->Declared == DeclaredAccess::WriteOnly ? "woDeclared"
                                                               : "wo";
      else
        LA.Wrapper = "rw";
      if (LA.Wrapper == "wo" && PA->Declared != DeclaredAccess::WriteOnly)
        boundCoverage(LA, *PA, Call);
      if (PA->Inferred != Access::None && needsDeviceCopyBefore(*PA, Dims))
        requireDevice(In, Refs, Name, Placement::BeforeStmt, Anchor,
                      "kernel `" + KName + "` (line " + std::to_string(KLine) +
                          ") " +
                          (reads(PA->Inferred) ? "reads `" + Name + "`"
                                               : "writes only part of `" +
                                                     Name + "`"));
      if (writes(PA->Inferred))
        Written.push_back({Refs, true});
      DP.Arguments.push_back(LA);
    }
    for (auto &[Refs, _] : Written)
      deviceWrites(In, Refs);
    if (Record)
      Plan.Dispatches.push_back(std::move(DP));
    return In;
  }

  /// What bounds a `wo` argument's coverage: the guard's argument, or the
  /// kernel's grid, whose arguments the rewriter passes to the runtime a
  /// second time.
  void boundCoverage(LaunchArgument &LA, const ParamAccess &PA,
                     const CallExpr *Call) {
    const GridCoverage &G = PA.Grid;
    // `n++` would run twice; a call (`in.size()`) is taken as a value. The
    // kernel's parameter I is the dispatch's argument I + 1.
    for (int Param : {PA.CoverageBoundParam, G.ColBoundParam, G.WidthParam,
                      G.RowBoundParam, G.PlaneRowsParam, G.TripBoundParam})
      if (Param >= 0 &&
          Call->getArg(Param + 1)->HasSideEffects(
              Ctx, /*IncludePossibleEffects=*/false))
        LA.CoverageUnknown = true;
    if (G.Valid)
      LA.Grid = G;
    else if (PA.CoverageBoundParam >= 0)
      LA.CoverageBound = Call->getArg(PA.CoverageBoundParam + 1);
  }

  // --- exits -----------------------------------------------------------------
  /// A buffer parameter (or a member of one) reached only through const.
  static bool isConstObject(const BufferObject &O) {
    const ValueDecl *D = O.Decl;
    // A member held by value is as const as the parameter it is part of; one
    // held by reference or pointer is as const as what it refers to
    // (`const Pair &s` with `Buffer<int> &x` still writes s.x).
    if (O.Kind == ObjectKind::ParameterMember && O.Decl &&
        !O.Decl->getType()->isReferenceType() &&
        !O.Decl->getType()->isPointerType())
      D = O.Base;
    if (!D)
      return false;
    QualType T = D->getType();
    if (T->isReferenceType())
      T = T.getNonReferenceType();
    else if (T->isPointerType())
      T = T->getPointeeType();
    else
      return false;
    return T.isConstQualified();
  }

  /// A parameter every caller binds to a buffer nothing reads once the
  /// compute returns.
  bool deadAfterCompute(const BufferObject &O) const {
    if (O.Kind != ObjectKind::Parameter)
      return false;
    auto It = PC.DeadAfterCompute.find(F);
    return It != PC.DeadAfterCompute.end() && It->second.count(O.Decl);
  }

  void exitCopies(FlowState &S, Placement Where, const Stmt *Anchor) {
    if (!SyncsAtExit)
      return;
    for (const BufferObject &O : Table.objects()) {
      // Nothing writes through a const parameter: its host copy is current
      // (a kernel writing the same buffer through another name syncs it
      // under that name).
      if (!O.callerVisible() || isConstObject(O) || deadAfterCompute(O))
        continue;
      ObjectRefs R;
      R.Ids = {O.Id};
      // A container's buffers come home one by one, each as it needs.
      R.Exact = !O.Elements;
      EachElementScope Each(*this, O.Elements);
      const auto *M = dyn_cast<CXXMethodDecl>(F);
      requireHost(S, R, O.Spelling, Where, Anchor,
                  "`" + O.Spelling +
                      (M && M->getParent()->isLambda()
                           ? "` is the host's again when compute returns"
                           : "` goes back to the caller"));
    }
  }

  // --- statements ------------------------------------------------------------
  static const CallExpr *asDispatch(const Stmt *S) {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return nullptr;
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit());
    return isDispatchCall(Call) ? Call : nullptr;
  }

  FlowState walk(const Stmt *S, FlowState In) {
    if (!S || !In.Reachable)
      return In;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      std::set<ObjectId> Saved = InScope;
      for (const Stmt *Child : CS->body())
        In = walk(Child, In);
      InScope = Saved;
      return In;
    }
    if (const CallExpr *Call = asDispatch(S))
      return dispatch(Call, S, In);

    // Branches are always walked, so that a copy a branch needs happens only
    // when it is taken. A loop without dispatches stays one stretch of host
    // code: its copies go before it, not into every iteration.
    if (const auto *If = dyn_cast<IfStmt>(S))
      return walkIf(If, In);

    StructureFinder Finder(PC.Planned);
    Finder.TraverseStmt(const_cast<Stmt *>(S));
    bool IsLoop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                  isa<CXXForRangeStmt>(S);
    // A loop that may run zero times, or a switch, with an overwrite inside
    // or a buffer named by a reference it declares: walked, so that
    // `hostWrites` sits at the write, on the paths that make it, and every
    // line names the buffer where the name exists.
    bool MustGoInside = (IsLoop || isa<SwitchStmt>(S)) &&
                        (hasStateChangeWithoutCopy(S, In) ||
                         namesReboundInside(S, In));
    if (!Finder.needsStructure() && !MustGoInside)
      return hostCode(S, In, Placement::BeforeStmt, S);

    if (IsLoop)
      return walkLoop(S, In);
    if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      return walkSwitch(Switch, In);
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      if (Ret->getRetValue())
        In = hostCode(Ret->getRetValue(), In, Placement::BeforeStmt, S);
      exitCopies(In, Placement::BeforeStmt, S);
      return FlowState::unreachable();
    }
    if (isa<BreakStmt>(S)) {
      Jumps.back()->Breaks.push_back(In);
      return FlowState::unreachable();
    }
    if (isa<ContinueStmt>(S)) {
      for (auto It = Jumps.rbegin(); It != Jumps.rend(); ++It)
        if (!(*It)->IsSwitch) {
          (*It)->Continues.push_back(In);
          break;
        }
      return FlowState::unreachable();
    }
    if (const auto *Label = dyn_cast<LabelStmt>(S))
      return walk(Label->getSubStmt(), In);
    if (Finder.Dispatch) {
      // A dispatch nested in an expression or a declaration.
      struct First : RecursiveASTVisitor<First> {
        const CallExpr *Found = nullptr;
        bool VisitCallExpr(CallExpr *C) {
          if (!Found && isDispatchCall(C))
            Found = C;
          return true;
        }
      } Find;
      Find.TraverseStmt(const_cast<Stmt *>(S));
      reportError(Ctx, Find.Found ? Find.Found->getExprLoc() : S->getBeginLoc(),
                  "a dispatch must be a statement of its own, so that Ferry "
                  "can place transfers around it");
      return In;
    }
    // A statement that calls a planned function: the call hands buffers over.
    return hostCode(S, In, Placement::BeforeStmt, S);
  }

  FlowState walkIf(const IfStmt *If, FlowState In) {
    if (If->getInit())
      In = hostCode(If->getInit(), In, Placement::BeforeStmt, If);
    if (const DeclStmt *CondVar = If->getConditionVariableDeclStmt())
      In = hostCode(CondVar, In, Placement::BeforeStmt, If);
    else
      In = checkedCondition(If->getCond(), In, Placement::BeforeStmt, If);
    FlowState Then = walk(If->getThen(), In);
    FlowState Else = If->getElse() ? walk(If->getElse(), In) : In;
    return join(Then, Else);
  }

  FlowState checkedCondition(const Expr *Cond, FlowState In, Placement Where,
                             const Stmt *Anchor) {
    if (!Cond)
      return In;
    StructureFinder Finder(PC.Planned);
    Finder.TraverseStmt(const_cast<Expr *>(Cond));
    if (Finder.Dispatch) {
      reportError(Ctx, Cond->getExprLoc(),
                  "a dispatch must be a statement of its own, so that Ferry "
                  "can place transfers around it");
      return In;
    }
    return hostCode(Cond, In, Where, Anchor);
  }

  FlowState walkSwitch(const SwitchStmt *Switch, FlowState In) {
    if (Switch->getInit())
      In = hostCode(Switch->getInit(), In, Placement::BeforeStmt, Switch);
    In = checkedCondition(Switch->getCond(), In, Placement::BeforeStmt, Switch);
    JumpTargets Targets;
    Targets.IsSwitch = true;
    Jumps.push_back(&Targets);
    FlowState State = FlowState::unreachable();
    bool HasDefault = false;
    const auto *Body = dyn_cast<CompoundStmt>(Switch->getBody());
    if (!Body) {
      State = walk(Switch->getBody(), In);
    } else {
      for (const Stmt *Child : Body->body()) {
        // Each label is entered from the switch or falls through.
        while (const auto *SC = dyn_cast<SwitchCase>(Child)) {
          State = join(State, In);
          HasDefault |= isa<DefaultStmt>(SC);
          Child = SC->getSubStmt();
        }
        State = walk(Child, State);
      }
    }
    Jumps.pop_back();
    FlowState Out = State;
    for (const FlowState &B : Targets.Breaks)
      Out = join(Out, B);
    if (!HasDefault)
      Out = join(Out, In);
    for (const FlowState &C : Targets.Continues)
      Jumps.back()->Continues.push_back(C);
    return Out;
  }

  /// One trip through a loop from `Head`; returns the state on leaving it
  /// and sets `Back` to the state flowing back to the head.
  FlowState loopPass(const Stmt *L, const FlowState &Head, FlowState &Back) {
    JumpTargets Targets;
    Jumps.push_back(&Targets);
    FlowState Exit = FlowState::unreachable();
    if (const auto *W = dyn_cast<WhileStmt>(L)) {
      FlowState S = checkedCondition(W->getCond(), Head,
                                     Placement::InCondition, W->getCond());
      if (!isAlwaysTrue(W->getCond()))
        Exit = S;
      Back = walk(W->getBody(), S);
    } else if (const auto *For = dyn_cast<ForStmt>(L)) {
      FlowState S = Head;
      if (For->getCond())
        S = checkedCondition(For->getCond(), S, Placement::InCondition,
                             For->getCond());
      if (For->getCond() && !isAlwaysTrue(For->getCond()))
        Exit = S;
      Back = walk(For->getBody(), S);
      for (const FlowState &C : Targets.Continues)
        Back = join(Back, C);
      Targets.Continues.clear();
      if (For->getInc())
        Back = checkedCondition(For->getInc(), Back, Placement::InCondition,
                                For->getInc());
    } else if (const auto *Do = dyn_cast<DoStmt>(L)) {
      FlowState S = walk(Do->getBody(), Head);
      for (const FlowState &C : Targets.Continues)
        S = join(S, C);
      Targets.Continues.clear();
      // The condition's transfers go at the end of the body when nothing can
      // skip there (no continue); otherwise into the condition itself.
      bool HasContinue = containsContinue(Do->getBody());
      const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
      if (Body && !HasContinue)
        S = checkedCondition(Do->getCond(), S, Placement::EndOfBlock, Body);
      else
        S = checkedCondition(Do->getCond(), S, Placement::InCondition,
                             Do->getCond());
      if (!isAlwaysTrue(Do->getCond()))
        Exit = S;
      Back = S;
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      Exit = Head;
      // `for (auto &b : levels)`: b names an element in the body.
      FlowState S = Head;
      applyAliasing(RF->getLoopVarStmt(), Table, S.Facts);
      Back = walk(RF->getBody(), S);
    }
    for (const FlowState &C : Targets.Continues)
      Back = join(Back, C);
    for (const FlowState &B : Targets.Breaks)
      Exit = join(Exit, B);
    Jumps.pop_back();
    return Exit;
  }

  static bool containsContinue(const Stmt *S) {
    if (!S)
      return false;
    if (isa<ContinueStmt>(S))
      return true;
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
        isa<CXXForRangeStmt>(S))
      return false;
    for (const Stmt *Child : S->children())
      if (containsContinue(Child))
        return true;
    return false;
  }

  bool isAlwaysTrue(const Expr *Cond) const {
    bool Value = false;
    return Cond && !Cond->isValueDependent() &&
           Cond->EvaluateAsBooleanCondition(Value, Ctx) && Value;
  }

  /// Runs the loop to a fixpoint without recording, then once more for real.
  FlowState iterate(const Stmt *L, const FlowState &In) {
    bool SavedRecord = Record;
    Record = false;
    FlowState Head = In, Back;
    for (int Round = 0;; ++Round) {
      loopPass(L, Head, Back);
      FlowState Next = join(In, Back);
      if (Next == Head)
        break;
      Head = Next;
      if (Round == 16) { // cannot happen on a finite lattice; be safe
        for (CopyState &C : Head.Objects)
          C = {Validity::Unknown, Validity::Unknown};
        break;
      }
    }
    Record = SavedRecord;
    return loopPass(L, Head, Back);
  }

  bool nameable(ObjectId Id) const {
    return Table.object(Id).callerVisible() || InScope.count(Id);
  }

  FlowState walkLoop(const Stmt *L, FlowState In) {
    if (const auto *For = dyn_cast<ForStmt>(L); For && For->getInit())
      In = hostCode(For->getInit(), In, Placement::BeforeStmt, L);
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      if (RF->getInit())
        In = hostCode(RF->getInit(), In, Placement::BeforeStmt, L);
      In = hostCode(RF->getRangeStmt(), In, Placement::BeforeStmt, L);
    }

    // A dry run tells what the loop needs and what it changes.
    bool SavedRecord = Record;
    Record = false;
    LoopEffects Fx;
    Effects.push_back(&Fx);
    iterate(L, In);
    Effects.pop_back();
    Record = SavedRecord;

    // Hoist copies the loop needs of data it never invalidates itself, but
    // only where every path into the loop uses them before it leaves: above
    // a loop that may run zero times, or whose trip may break or return
    // first, a copy is not down-safe (it would move data on a run that
    // needs none). There, the first use's guarded copy moves it once, or
    // never.
    const bool FirstTripRuns = runsAtLeastOnce(L, Ctx);
    auto DownSafe = [&](const std::map<ObjectId, std::set<const Stmt *>> &Uses,
                        ObjectId Id) {
      auto It = Uses.find(Id);
      return It != Uses.end() &&
             paths().everyPathUses(L, It->second, FirstTripRuns);
    };
    unsigned LoopLine = line(L->getBeginLoc());
    for (ObjectId Id : Fx.DeviceNeeds) {
      if (Fx.HostWrites.count(Id) || Fx.AmbiguousNeeds.count(Id) ||
          !nameable(Id) || In.Objects[Id].Device == Validity::Valid ||
          !DownSafe(Fx.DeviceUses, Id))
        continue;
      ObjectRefs R;
      R.Ids = {Id};
      const std::string &Name = Table.object(Id).Spelling;
      requireDevice(In, R, Name, Placement::BeforeStmt, L,
                    "hoisted: kernels in the loop at line " +
                        std::to_string(LoopLine) + " read `" + Name +
                        "` and the host never writes it there");
    }
    for (ObjectId Id : Fx.HostNeeds) {
      if (Fx.DeviceWrites.count(Id) || Fx.AmbiguousNeeds.count(Id) ||
          !nameable(Id) || In.Objects[Id].Host == Validity::Valid ||
          !DownSafe(Fx.HostUses, Id))
        continue;
      ObjectRefs R;
      R.Ids = {Id};
      const std::string &Name = Table.object(Id).Spelling;
      requireHost(In, R, Name, Placement::BeforeStmt, L,
                  "hoisted: the host reads `" + Name + "` in the loop at line " +
                      std::to_string(LoopLine) +
                      " and no kernel there writes it");
    }
    return iterate(L, In);
  }

  /// The function's paths, on Clang's CFG, built when a loop first asks.
  const DownSafety &paths() {
    if (!Paths)
      Paths = std::make_unique<DownSafety>(F, Ctx);
    return *Paths;
  }

  PlanningContext &PC;
  ASTContext &Ctx;
  SourceManager &SM;
  const FunctionDecl *F;
  std::unique_ptr<DownSafety> Paths;
  ObjectTable Table;
  FlowState Start;
  FunctionPlan Plan;
  bool Record = true;
  std::vector<JumpTargets *> Jumps;
  std::vector<LoopEffects *> Effects;
  std::set<ObjectId> InScope;
  /// Whether the host copy of every caller-visible buffer is made current
  /// on return (see planFunction).
  bool SyncsAtExit;
  /// The lines being emitted name a container of buffers (Transfer).
  bool EachElement = false;
  struct EachElementScope {
    EachElementScope(Planner &P, bool On) : P(P), Saved(P.EachElement) {
      P.EachElement = On;
    }
    ~EachElementScope() { P.EachElement = Saved; }
    Planner &P;
    bool Saved;
  };
  static bool isContainerExpr(const Expr *E) {
    QualType T = E->getType().getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return isBufferContainerType(T.getUnqualifiedType());
  }
};

} // namespace

FunctionPlan planFunction(PlanningContext &PC, const FunctionDecl *F,
                          bool Entry, bool Internal) {
  return Planner(PC, F, Entry, Internal).run();
}

} // namespace ferry
