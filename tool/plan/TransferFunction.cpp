#include "plan/TransferFunction.h"

#include "analyses/CallGraphs.h"
#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "analyses/paths/ElementSteps.h"
#include "analyses/paths/MemberSteps.h"
#include "analyses/kernel/WorkGroupUse.h"
#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ferry {

struct TransferFunction::Impl {
  Impl(PlanningContext &PC, const FunctionDecl *F, const ObjectTable &Table,
       const PlanningUnits &Units, bool SyncsAtExit)
      : PC(PC), Ctx(PC.Ctx), SM(Ctx.getSourceManager()), F(F), Table(Table),
        Units(Units), SyncsAtExit(SyncsAtExit) {}

  FlowState apply(const Step &S, FlowState In) {
    if (!In.Reachable)
      return In;
    switch (S.Kind) {
    case StepKind::Entry:
    case StepKind::LoopTest:
    case StepKind::Ignored:
      return In;
    case StepKind::Host:
      return hostCode(S.Root, std::move(In), S.Where, S.Anchor);
    case StepKind::Dispatch:
      return dispatch(asDispatch(S.Root), S.Anchor, std::move(In));
    case StepKind::Return: {
      const auto *Ret = cast<ReturnStmt>(S.Root);
      if (Ret->getRetValue())
        In = hostCode(Ret->getRetValue(), std::move(In),
                      Placement::BeforeStmt, Ret);
      exitCopies(In, Placement::BeforeStmt, Ret);
      return FlowState::unreachable();
    }
    case StepKind::FallOffEnd:
      exitCopies(In, Placement::EndOfBlock, S.Anchor);
      return FlowState::unreachable();
    case StepKind::LoopVariable:
      applyAliasing(S.Root, Table, In.Facts);
      return In;
    case StepKind::LoopEntry:
      return loopEntry(S.Loop, std::move(In));
    }
    return In;
  }

  FlowState loopEntry(const Stmt *L, FlowState In) {
    auto It = Hoists.find(L);
    if (It == Hoists.end())
      return In;
    for (const Hoist &H : It->second) {
      ObjectRefs R;
      R.Ids = {H.Object};
      const std::string &Name = Table.object(H.Object).Spelling;
      if (H.ToDevice)
        requireDevice(In, R, Name, Placement::BeforeStmt, L, H.Reason);
      else
        requireHost(In, R, Name, Placement::BeforeStmt, L, H.Reason);
    }
    return In;
  }

  bool nameableAt(ObjectId Id, const Stmt *At) const {
    const BufferObject &O = Table.object(Id);
    if (O.callerVisible())
      return true;
    const auto *V = dyn_cast_or_null<VarDecl>(O.Decl);
    auto It = V ? Units.Declarations.find(V) : Units.Declarations.end();
    if (It == Units.Declarations.end() || !At)
      return false;
    // In scope after its declaration, in the block (or `for`) holding it.
    const DeclStmt *D = It->second;
    const DynTypedNodeList Parents = Ctx.getParents(*D);
    if (Parents.empty())
      return false;
    const Stmt *Scope = Parents[0].get<Stmt>();
    if (!Scope || !isa<CompoundStmt, ForStmt>(Scope))
      return false;
    if (D == At || !within(At, Scope))
      return false;
    return SM.isBeforeInTranslationUnit(D->getEndLoc(), At->getBeginLoc());
  }

  bool within(const Stmt *S, const Stmt *Outer) const {
    DynTypedNode Node = DynTypedNode::create(*S);
    for (int Depth = 0; Depth < 4096; ++Depth) {
      if (Node.get<Stmt>() == Outer)
        return true;
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return false;
      Node = Parents[0];
    }
    return false;
  }

  bool mustGoInside(const Stmt *S, const PointsTo &Facts) const {
    FlowState In;
    In.Facts = Facts;
    return hasStateChangeWithoutCopy(S, In) || namesReboundInside(S, In);
  }

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
            Placement Where, const Stmt *Anchor, std::string Reason,
            const ElementRange *Range = nullptr) {
    if (!Plan || LinesOff)
      return;
    if (Buffer.empty()) {
      reportError(Ctx, Anchor->getBeginLoc(),
                  "Ferry needs a transfer here but cannot name the buffer in "
                  "source; bind it to a reference outside any macro");
      return;
    }
    // The same line again at the same place (`std::copy(p->begin(),
    // p->end(), …)` reads through one name twice) would do nothing.
    if (!Plan->Transfers.empty()) {
      const Transfer &Last = Plan->Transfers.back();
      if (Last.Kind == Kind && Last.Where == Where && Last.Anchor == Anchor &&
          Last.Buffer == Buffer &&
          Last.RangeFirst == (Range ? Range->First : "") &&
          Last.RangeCount == (Range ? Range->Count : ""))
        return;
    }
    // A guarded copy in asks the run-time state whether the device copy is
    // current (copies home ask about the host copy, which an entry's
    // callers leave current).
    if (Kind == TransferKind::ToDeviceIfStale) {
      std::set<ObjectId> All = Table.withAliases(Ids);
      TrustsRunTimeState.insert(All.begin(), All.end());
    }
    Transfer T;
    T.Kind = Kind;
    T.Where = Where;
    T.Anchor = Anchor;
    T.Buffer = std::move(Buffer);
    T.Objects = Ids;
    T.Reason = std::move(Reason);
    if (Range) {
      T.RangeFirst = Range->First;
      T.RangeCount = Range->Count;
    }
    // A container's own name (an exit copy, a call that may touch every
    // buffer): the line is for each of its elements.
    T.EachElement =
        EachElement ||
        (Ids.size() == 1 && Table.object(*Ids.begin()).Elements &&
         T.Buffer == Table.object(*Ids.begin()).Spelling);
    Plan->Transfers.push_back(std::move(T));
  }

  // --- state transitions -----------------------------------------------------
  void note(std::set<ObjectId> StepEffects::*Field,
            const std::set<ObjectId> &Ids) {
    if (Effects)
      (Effects->*Field).insert(Ids.begin(), Ids.end());
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
    // before the loop. A guess may be a buffer no object stands for, whose
    // state only the run knows.
    if (!R.Guessed && all(S, R, &CopyState::Device, Validity::Valid))
      return;
    note(&StepEffects::DeviceNeeds, R.Ids);
    if (!R.single())
      note(&StepEffects::AmbiguousNeeds, R.Ids);
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
    if (!R.Guessed && all(S, R, &CopyState::Host, Validity::Valid))
      return;
    note(&StepEffects::HostNeeds, R.Ids);
    if (!R.single())
      note(&StepEffects::AmbiguousNeeds, R.Ids);
    bool Static = R.single() && all(S, R, &CopyState::Host, Validity::Stale);
    emit(Static ? TransferKind::FromDevice : TransferKind::FromDeviceIfStale,
         std::move(Name), R.Ids, Where, Anchor,
         Why + (Static ? "; the device holds the newer copy"
                       : "; the device may hold a newer copy"));
    update(S, R, &CopyState::Host, Validity::Valid);
  }

  void deviceWrites(FlowState &S, const ObjectRefs &Refs) {
    ObjectRefs R = weakened(Refs);
    note(&StepEffects::DeviceWrites, Table.withAliases(R.Ids));
    update(S, R, &CopyState::Device, Validity::Valid);
    update(S, R, &CopyState::Host, Validity::Stale);
  }

  void hostWrites(FlowState &S, const ObjectRefs &Refs, std::string Name,
                  Placement Where, const Stmt *Anchor, const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    note(&StepEffects::HostWrites, Table.withAliases(R.Ids));
    if (R.Guessed || !all(S, R, &CopyState::Device, Validity::Stale))
      emit(TransferKind::HostWrites, std::move(Name), R.Ids, Where, Anchor,
           Why + "; the device copy becomes stale");
    update(S, R, &CopyState::Host, Validity::Valid);
    update(S, R, &CopyState::Device, Validity::Stale);
  }

  // --- parts of a buffer ----------------------------------------------------
  /// Part of an object's copy on one side became valid (Field Valid) or
  /// stale: what was all one way is known no longer, unless it already was
  /// that way.
  void partly(FlowState &S, const ObjectRefs &R, Validity CopyState::*Field,
              Validity Now) {
    for (ObjectId Id : Table.withAliases(R.Ids))
      if (S.Objects[Id].*Field != Now)
        S.Objects[Id].*Field = Validity::Unknown;
  }

  /// The host needs the elements `Range` of the buffer: a copy back of those
  /// alone where the device may hold newer ones. Never hoisted above a loop
  /// (a loop reading one element per trip moves that element per trip).
  void requireHostPart(FlowState &S, const ObjectRefs &Refs,
                       const std::string &Name, const ElementRange &Range,
                       Placement Where, const Stmt *Anchor,
                       const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    if (!R.Guessed && all(S, R, &CopyState::Host, Validity::Valid))
      return;
    note(&StepEffects::PartialHostNeeds, R.Ids);
    bool Static = R.single() && all(S, R, &CopyState::Host, Validity::Stale);
    emit(Static ? TransferKind::FromDevice : TransferKind::FromDeviceIfStale,
         Name, R.Ids, Where, Anchor,
         Why + (Static ? "; the device holds the newer copy"
                       : "; the device may hold a newer copy"),
         &Range);
    partly(S, R, &CopyState::Host, Validity::Valid);
  }

  /// The host writes the elements `Range`: the device copy of those alone
  /// becomes stale.
  void hostWritesPart(FlowState &S, const ObjectRefs &Refs,
                      const std::string &Name, const ElementRange &Range,
                      Placement Where, const Stmt *Anchor,
                      const std::string &Why) {
    ObjectRefs R = weakened(Refs);
    note(&StepEffects::HostWrites, Table.withAliases(R.Ids));
    if (R.Guessed || !all(S, R, &CopyState::Device, Validity::Stale))
      emit(TransferKind::HostWrites, Name, R.Ids, Where, Anchor,
           Why + "; the device copy of those becomes stale", &Range);
    partly(S, R, &CopyState::Host, Validity::Valid);
    partly(S, R, &CopyState::Device, Validity::Stale);
  }

  /// Whether the elements an event touches can be named in its lines: the
  /// analysis spells them as they are before the statement it was given,
  /// which is where the lines go, unless that statement shares its anchor
  /// with an initialiser that runs first (`if (int i = …; b[i] > 0)`).
  static bool rangeNameableAt(const Stmt *S, const Stmt *Anchor) {
    if (S == Anchor)
      return true;
    if (const auto *If = dyn_cast<IfStmt>(Anchor))
      return !If->getInit() || If->getInit() == S;
    if (const auto *Switch = dyn_cast<SwitchStmt>(Anchor))
      return !Switch->getInit() || Switch->getInit() == S;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(Anchor))
      return !RF->getInit() || RF->getInit() == S;
    return true;
  }

  /// What a step does with the parts its events read of one object.
  enum class PartRead {
    AsIs, ///< each event copies back the part it reads
    Hull, ///< the first copies back all they read (constant indices)
    Done, ///< an earlier event's copy covered it
    Whole ///< the step reads all of it, or will soon: copy back all
  };
  /// Per event of a step, how its read part is planned.
  struct ReadParts {
    std::vector<PartRead> How;
    std::vector<ElementRange> Hulls;
  };

  /// Whether an event may be planned by parts: its elements are bounded
  /// and can be named in its lines (which go before `Unit`, at `Anchor`),
  /// and it is not a count from the start the runtime checks against the
  /// size (hostWrites(b, n), which leaves the whole host copy current).
  bool partable(const HostEvent &E, const Stmt *Unit,
                const Stmt *Anchor) const {
    if (E.Kind != HostEventKind::Access || !E.Range ||
        E.Range->First.empty() || E.Range->Count.empty() || E.Escapes ||
        !rangeNameableAt(Unit, Anchor))
      return false;
    return !(writes(E.Mode) && !reads(E.Mode) &&
             (E.WrittenCount || E.WrittenCountOf));
  }

  static bool needsHostFirst(const HostEvent &E) {
    const bool Covers =
        writes(E.Mode) && !reads(E.Mode) && E.Range && E.Range->Covers;
    return reads(E.Mode) || (writes(E.Mode) && !Covers && !E.Overwrites);
  }

  /// One copy back per object and step: several reads of one buffer in a
  /// statement (`r[0] + r[1]`) copy back their hull when their indices are
  /// constants; a statement that also reads all of it, or whose object is
  /// needed whole soon after (readWhole), copies back all of it.
  ReadParts planReadParts(const std::vector<HostEvent> &Events,
                          const Stmt *Unit, const Stmt *Anchor) const {
    ReadParts P;
    P.How.assign(Events.size(), PartRead::AsIs);
    P.Hulls.resize(Events.size());
    std::map<ObjectId, std::vector<size_t>> Parts;
    std::set<ObjectId> WholeRead;
    for (size_t I = 0; I < Events.size(); ++I) {
      const HostEvent &E = Events[I];
      if (E.Kind != HostEventKind::Access || E.OnlyBinds ||
          !needsHostFirst(E))
        continue;
      if (!E.Targets.single()) {
        // A name for one of several buffers: whole when each of them is
        // needed whole soon after.
        bool AllWhole = !E.Targets.Ids.empty();
        for (ObjectId Id : E.Targets.Ids)
          AllWhole = AllWhole && WholeReads.count({Unit, Id});
        if (AllWhole)
          P.How[I] = PartRead::Whole;
        continue;
      }
      ObjectId Id = *E.Targets.Ids.begin();
      if (partable(E, Unit, Anchor))
        Parts[Id].push_back(I);
      else
        WholeRead.insert(Id);
    }
    for (auto &[Id, Indices] : Parts) {
      if (WholeRead.count(Id) || WholeReads.count({Unit, Id})) {
        for (size_t I : Indices)
          P.How[I] = PartRead::Whole;
        continue;
      }
      if (Indices.size() < 2)
        continue;
      // The same elements read again (`std::copy(b.begin(), b.end(), …)`
      // names b twice): the first copy covers them.
      for (size_t K = 1; K < Indices.size(); ++K)
        for (size_t J = 0; J < K; ++J)
          if (Events[Indices[K]].Range->First ==
                  Events[Indices[J]].Range->First &&
              Events[Indices[K]].Range->Count ==
                  Events[Indices[J]].Range->Count) {
            P.How[Indices[K]] = PartRead::Done;
            break;
          }
      long long Lo = 0, Hi = 0;
      bool Constant = true;
      for (size_t I : Indices) {
        const ElementRange &R = *Events[I].Range;
        if (!R.FirstConst || !R.CountConst) {
          Constant = false;
          break;
        }
        long long From = *R.FirstConst, To = From + *R.CountConst;
        Lo = I == Indices.front() ? From : std::min(Lo, From);
        Hi = I == Indices.front() ? To : std::max(Hi, To);
      }
      if (!Constant)
        continue;
      ElementRange Hull;
      Hull.First = std::to_string(Lo);
      Hull.Count = std::to_string(Hi - Lo);
      Hull.FirstConst = Lo;
      Hull.CountConst = Hi - Lo;
      P.How[Indices.front()] = PartRead::Hull;
      P.Hulls[Indices.front()] = Hull;
      for (size_t K = 1; K < Indices.size(); ++K)
        P.How[Indices[K]] = PartRead::Done;
    }
    return P;
  }

  /// "element `i`", "`n` elements from `lo`".
  static std::string elementsText(const ElementRange &R) {
    return R.CountConst && *R.CountConst == 1
               ? "element `" + R.First + "`"
               : "`" + R.Count + "` elements from `" + R.First + "`";
  }

  /// Plans an access to part of a buffer, when the analysis bounded it
  /// (HostEvent::Range). False when the event is planned whole.
  bool accessPart(FlowState &S, const HostEvent &E, const std::string &Name,
                  const Stmt *Unit, Placement Where, const Stmt *Anchor,
                  unsigned Line, PartRead How, const ElementRange &Hull) {
    if (Name.empty() || EachElement || !partable(E, Unit, Anchor))
      return false;
    const ElementRange &R = *E.Range;
    // All of it comes back (needed whole soon after), but the host writes
    // only the part: only that part of the device copy turns stale.
    if (How == PartRead::Whole) {
      if (!writes(E.Mode))
        return false;
      if (needsHostFirst(E))
        requireHost(S, E.Targets, Name, Where, Anchor,
                    "line " + std::to_string(Line) + ": `" + Name + "` " +
                        E.What + " on the host");
      hostWritesPart(S, E.Targets, Name, R, Where, Anchor,
                     "line " + std::to_string(Line) + " writes " +
                         elementsText(R) + " of `" + Name + "` on the host");
      return true;
    }
    auto Elements = elementsText;
    // A receive that may be shorter than its count (MPI) leaves the tail
    // as it was: the host needs it current first, as for any partial write.
    if (needsHostFirst(E) && How != PartRead::Done) {
      const ElementRange &Read = How == PartRead::Hull ? Hull : R;
      requireHostPart(S, E.Targets, Name, Read, Where, Anchor,
                      "line " + std::to_string(Line) + ": " + Elements(Read) +
                          " of `" + Name + "`: " + E.What + " on the host");
    }
    if (writes(E.Mode))
      hostWritesPart(S, E.Targets, Name, R, Where, Anchor,
                     "line " + std::to_string(Line) + " writes " +
                         Elements(R) + " of `" + Name + "` on the host");
    return true;
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
    note(&StepEffects::HostWrites, Table.withAliases(E.Targets.Ids));
    emit(TransferKind::HostWritesFirst, Name, E.Targets.Ids, Where, Anchor,
         "line " + std::to_string(Line) + ": the host writes the first " +
             Count + " elements of `" + Name +
             "`; the rest is copied back first if that is not all of it");
    if (Plan)
      Plan->Transfers.back().Count = Count;
    update(S, E.Targets, &CopyState::Host, Validity::Valid);
    update(S, E.Targets, &CopyState::Device, Validity::Stale);
    return true;
  }

  void forget(FlowState &S, const std::set<ObjectId> &Ids) {
    std::set<ObjectId> All = Table.withAliases(Ids);
    note(&StepEffects::HostWrites, All);
    note(&StepEffects::DeviceWrites, All);
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
    std::set<ObjectId> HandedIds, MayRunKernelsOn;
    std::set<const VarDecl *> Rebound;
    if (!isa<Expr>(S) || Events.size() > 1)
      Rebound = reboundWithin(S);
    ReadParts Parts = planReadParts(Events, S, Anchor);
    for (size_t Index = 0; Index < Events.size(); ++Index) {
      const HostEvent &E = Events[Index];
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
          Name = E.Targets.single() && nameableAt(*E.Targets.Ids.begin(), Anchor)
                     ? Table.object(*E.Targets.Ids.begin()).Spelling
                     : "";
          // An element of a container: the container, element by element
          // (each line guarded, so only those that need it move).
          if (E.Targets.Ids.size() == 1 &&
              Table.object(*E.Targets.Ids.begin()).Elements &&
              nameableAt(*E.Targets.Ids.begin(), Anchor)) {
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
          note(&StepEffects::HostWrites, {Id});
          note(&StepEffects::DeviceWrites, {Id});
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
          note(&StepEffects::HostWrites, Table.withAliases(Both));
          note(&StepEffects::DeviceWrites, Table.withAliases(Both));
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
          if (E.Targets.Guessed)
            handedUnnamed(Handed.at(E.Site), E.Targets.Element);
          break;
        }
        // A buffer of a type, which one Ferry cannot tell, reached where it
        // has no expression to name (a method called on an object in a
        // container): the run-time state finds the ones it may be.
        if (E.Targets.Guessed && !E.Buffer && E.Spelling.empty()) {
          unnamedHostAccess(In, E, Where, Anchor, L);
          break;
        }
        // A pointer kept from data() whose every use is an event of its
        // own: binding it touches nothing, as binding a reference.
        if (E.OnlyBinds)
          break;
        if (accessPart(In, E, Name, S, Where, Anchor, L, Parts.How[Index],
                       Parts.Hulls[Index]))
          break;
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
      if (E.Kind == HostEventKind::Access && E.MayRunKernels &&
          !(E.Site && Handed.count(E.Site))) {
        MayRunKernelsOn.insert(E.Targets.Ids.begin(), E.Targets.Ids.end());
        // Of those it cannot name, the exits bring home what the device
        // then holds newer.
        if (E.Targets.Guessed)
          unnamedLeftOnDevice(E.Targets.Element);
      }
    }
    // A call Ferry cannot see into that may run kernels on these buffers (a
    // compute function through a pointer): after the statement the device
    // may hold valid copies, which only the run-time state knows. A host
    // write after it then needs its line, and a copy its guard.
    if (!MayRunKernelsOn.empty()) {
      std::set<ObjectId> All = Table.withAliases(MayRunKernelsOn);
      if (Plan)
        TrustsRunTimeState.insert(All.begin(), All.end());
      note(&StepEffects::DeviceWrites, All);
      for (ObjectId Id : All)
        In.Objects[Id] = {Validity::Unknown, Validity::Unknown};
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
        QualType Pointer = Ref->getDecl()->getType();
        if (const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl()))
          Pointer = P->getOriginalType();
        Reached.push_back(pointsToObjects(
            In.Facts.at(Ref->getDecl()),
            bufferElementType(QualType(
                Pointer->getPointeeOrArrayElementType(), 0)->getPointeeType())));
      } else {
        Reached = Table.membersOf(Arg, In.Facts);
      }
      if (Reached.empty() && !isBufferType(T) &&
          T.getAsString().find("ferry::Buffer<") != std::string::npos)
        Reached.push_back(Table.anyBufferOf(QualType())); // a container
      for (const ObjectRefs &R : Reached) {
        HandedIds.insert(R.Ids.begin(), R.Ids.end());
        if (R.Guessed)
          handedUnnamed(Callee, R.Element);
      }
    }
    // A planned method's object hands over the buffer members it reaches:
    // those this function names, and those it cannot (a private member of
    // an object in a container: `bodies[i].step(cc)`).
    for (auto [Call, Callee] : Handed) {
      const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
      MemberCallTarget Target;
      if (!MC || !memberCallTarget(MC, Target) ||
          Target.Method->getCanonicalDecl() != Callee->getCanonicalDecl())
        continue;
      const ValueDecl *Base = Target.OnThis ? Table.thisKey() : Target.Variable;
      for (const FieldPath &Path :
           bufferPathsReached(Target.Method, Target.Virtual)) {
        if (const BufferObject *O = Base && !isOpaquePath(Path)
                                        ? Table.memberFor(Base, Path)
                                        : nullptr) {
          HandedIds.insert(O->Id);
          continue;
        }
        handedUnnamed(Callee, pathElement(Path));
      }
    }
    // The callee leaves each buffer wherever its latest copy is; only the
    // run-time state knows where.
    if (!HandedIds.empty()) {
      if (Plan) {
        std::set<ObjectId> All = Table.withAliases(HandedIds);
        TrustsRunTimeState.insert(All.begin(), All.end());
      }
      note(&StepEffects::HostWrites, Table.withAliases(HandedIds));
      note(&StepEffects::DeviceWrites, Table.withAliases(HandedIds));
      for (ObjectId Id : Table.withAliases(HandedIds))
        In.Objects[Id] = {Validity::Unknown, Validity::Unknown};
    }
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

  /// What a dispatch that chooses among several kernels at run time does to
  /// each parameter: what they all do where they agree, else the union of
  /// their accesses with no coverage (written parameters pass `rw`).
  static KernelAccessSummary
  chosenKernels(const std::vector<const KernelAccessSummary *> &Each) {
    KernelAccessSummary Result = *Each.front();
    for (ParamAccess &PA : Result.Buffers) {
      bool Agree = true;
      Access Union = PA.Inferred;
      for (const KernelAccessSummary *S : Each) {
        const ParamAccess *Other = S->forParam(PA.Index);
        if (!Other) {
          Agree = false;
          Union = Access::ReadWrite;
          continue;
        }
        Union |= Other->Inferred;
        Agree = Agree && Other->Inferred == PA.Inferred &&
                Other->Declared == PA.Declared &&
                Other->WritesCoverRange == PA.WritesCoverRange &&
                Other->CoverageBoundParam == PA.CoverageBoundParam &&
                Other->CoverageDims == PA.CoverageDims &&
                !Other->Grid.Valid && !PA.Grid.Valid &&
                Other->CoverageOffset.empty() && PA.CoverageOffset.empty() &&
                Other->ReadsOnlyOwnWrites == PA.ReadsOnlyOwnWrites &&
                Other->StoresOnlyCovered == PA.StoresOnlyCovered;
      }
      if (Agree)
        continue;
      ParamAccess Conservative;
      Conservative.Param = PA.Param;
      Conservative.Index = PA.Index;
      Conservative.Inferred = Union;
      Conservative.FirstRead = PA.FirstRead;
      Conservative.FirstWrite = PA.FirstWrite;
      PA = Conservative;
    }
    return Result;
  }

  FlowState dispatch(const CallExpr *Call, const Stmt *Anchor, FlowState In) {
    const std::vector<const FunctionDecl *> Chosen = dispatchedKernels(Call);
    const FunctionDecl *Kernel = Chosen.empty() ? nullptr : Chosen.front();
    // Errors once, from the recorded pass (the solver applies a step often).
    if (Call->getBeginLoc().isMacroID()) {
      if (Plan)
        reportError(Ctx, SM.getExpansionLoc(Call->getBeginLoc()),
                  "a dispatch inside a macro expansion cannot be rewritten; "
                  "write cc.dispatch(...) in the compute function itself");
      return In;
    }
    const bool AllKernels =
        !Chosen.empty() && llvm::all_of(Chosen, [&](const FunctionDecl *K) {
          return K->getDefinition() && PC.Kernels.count(K->getDefinition());
        });
    if (!AllKernels) {
      if (Plan)
        reportError(Ctx, Call->getArg(0)->getExprLoc(),
                  "the first argument of dispatch must name a FERRY_KERNEL "
                  "function, or choose among them with '?:' or by indexing "
                  "a const array of them");
      return In;
    }
    if (Chosen.size() > 1 &&
        Call->getArg(0)->HasSideEffects(Ctx, /*IncludePossibleEffects=*/true)) {
      if (Plan)
        reportError(Ctx, Call->getArg(0)->getExprLoc(),
                    "a dispatch that chooses its kernel at run time "
                    "evaluates the choice twice (the kernel and its OpenCL "
                    "name); choose without side effects");
      return In;
    }
    Kernel = Kernel->getDefinition();
    // The range and scalar arguments are evaluated on the host first
    // (`cc.dispatch(k, Range(n), b, a[3])` reads `a` there).
    In = hostCode(Call, In, Placement::BeforeStmt, Anchor);
    std::vector<const KernelAccessSummary *> Each;
    for (const FunctionDecl *K : Chosen)
      Each.push_back(&PC.Kernels.at(K->getDefinition()));
    KernelAccessSummary Merged;
    if (Each.size() > 1)
      Merged = chosenKernels(Each);
    const KernelAccessSummary &Summary =
        Each.size() == 1 ? *Each.front() : Merged;
    int Dims = rangeDims(Call->getArg(1));
    std::string KName = Kernel->getNameAsString();
    unsigned KLine = line(Call->getBeginLoc());

    DispatchPlan DP;
    DP.Call = Call;
    DP.Kernel = Kernel;
    DP.OpenCLName = openclName(Kernel);
    if (Chosen.size() > 1)
      for (const FunctionDecl *K : Chosen)
        DP.NameTable.push_back({spelledFromGlobalScope(K), openclName(K)});
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
      // A buffer the table has no object for (`grid_.cur`, a member of a
      // member; `sims[i].state`): the argument's own text names it here,
      // every line for it is guarded, and the exits bring home, through the
      // run-time state, whatever of its type the device holds newer.
      if (Refs.Guessed && !LinesOff && !text(Arg).empty() &&
          !Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false)) {
        if (SyncsAtExit)
          PC.UnnamedAtExit[F].insert(unnamedElementSpelling(Ctx, Refs.Element));
        else
          PC.MustSyncAtExit.insert(F);
      } else if ((Refs.Guessed || Refs.Ids.empty()) && !LinesOff) {
        if (Plan)
          reportError(Ctx, Arg->getExprLoc(),
                      "Ferry cannot tell which buffer this argument is, and "
                      "cannot evaluate it again around the launch (it has a "
                      "side effect); bind it to a reference first: "
                      "`auto &b = ...; cc.dispatch(k, r, b);`");
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
      if (LA.Wrapper == "wo" && PA->Declared != DeclaredAccess::WriteOnly) {
        boundCoverage(LA, *PA, Call);
        // A kernel that may store past its coverage: where the range falls
        // short of the buffer, the rest is copied in first (so is any
        // coverage the runtime cannot know, `wo(b, 0)`). Otherwise the
        // rest keeps its validity.
        if (!PA->StoresOnlyCovered || LA.CoverageUnknown)
          LA.Wrapper = "woBeyond";
        // A store at the linear index plus an offset: where it starts, in
        // the dispatch's terms, or a coverage the runtime checks whole.
        else if (!PA->CoverageOffset.empty()) {
          LA.CoverageFirst = offsetText(PA->CoverageOffset, Call);
          LA.Wrapper = LA.CoverageFirst.empty() ? "woBeyond" : "woFrom";
        }
      }
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
    if (Plan)
      Plan->Dispatches.push_back(std::move(DP));
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

  /// The dispatch's global size in dimension `Dim` as source text: the
  /// argument of `ferry::Range(…)` (also before `.local(…)`), or
  /// `(range).size(Dim)`; "" when it cannot be evaluated again.
  std::string rangeSizeText(const Expr *Range, int Dim) const {
    const Expr *E = Range->IgnoreImplicit();
    if (const auto *Local = dyn_cast<CXXMemberCallExpr>(E))
      if (const auto *M = Local->getMethodDecl();
          M && M->getName() == "local")
        E = Local->getImplicitObjectArgument()->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
        CE && Dim < static_cast<int>(CE->getNumArgs()) &&
        !isa<CXXDefaultArgExpr>(CE->getArg(Dim))) {
      const Expr *Arg = CE->getArg(Dim);
      if (Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
        return "";
      return text(Arg);
    }
    if (Range->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
      return "";
    std::string T = text(Range);
    return T.empty() ? "" : "(" + T + ").size(" + std::to_string(Dim) + ")";
  }

  /// A covering store's offset (Coverage::Offset) in the dispatch's terms:
  /// `width`, `2 * (n + 1)`; "" when a part cannot be spelled there.
  std::string offsetText(const std::vector<OffsetTerm> &Terms,
                         const CallExpr *Call) const {
    auto Factor = [](std::string T) {
      bool Simple = llvm::all_of(T, [](char C) {
        return isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
      });
      return Simple ? T : "(" + T + ")";
    };
    std::string Out;
    for (const OffsetTerm &T : Terms) {
      std::vector<std::string> Factors;
      for (int Dim : T.RangeDims) {
        std::string Size = rangeSizeText(Call->getArg(1), Dim);
        if (Size.empty())
          return "";
        Factors.push_back(Factor(Size));
      }
      for (int Param : T.Params) {
        if (Param + 1 >= static_cast<int>(Call->getNumArgs()))
          return "";
        const Expr *Arg = Call->getArg(Param + 1);
        std::string A = text(Arg);
        if (A.empty() ||
            Arg->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
          return "";
        Factors.push_back(Factor(A));
      }
      long long Coef = T.Coef;
      std::string Term;
      if (Factors.empty() || std::llabs(Coef) != 1)
        Term = std::to_string(std::llabs(Coef));
      for (const std::string &F : Factors)
        Term += (Term.empty() ? "" : " * ") + F;
      if (Out.empty())
        Out = (Coef < 0 ? "-" : "") + Term;
      else
        Out += (Coef < 0 ? " - " : " + ") + Term;
    }
    return Out;
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
    // Kept whether or not this function brings its buffers home: a caller
    // that cannot name the member leaves it to the safety net, which
    // leaves kept buffers on the device.
    for (const BufferObject &O : Table.objects())
      if (Plan && !LinesOff) {
        if (isComputeOnlyMember(O, PC.Members.ComputeOnly))
          emitKeep(TransferKind::KeepOnDevice, O, Where, Anchor,
                   "` is private and only compute code uses it: no copy "
                   "home, its device copy stays for the next compute");
        else if (isComputeOnlyMember(O, PC.Members.HostReadsOnly))
          emitKeep(TransferKind::KeepDeviceCopy, O, Where, Anchor,
                   "` is private and code outside computes only reads "
                   "it: its device copy stays valid for the next compute");
      }
    if (!SyncsAtExit)
      return;
    for (const BufferObject &O : Table.objects()) {
      // Nothing writes through a const parameter: its host copy is current
      // (a kernel writing the same buffer through another name syncs it
      // under that name).
      if (!O.callerVisible() || isConstObject(O) || deadAfterCompute(O) ||
          isComputeOnlyMember(O, PC.Members.ComputeOnly))
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
    auto Unnamed = PC.UnnamedAtExit.find(F);
    if (Unnamed == PC.UnnamedAtExit.end())
      return;
    for (const std::string &Type : Unnamed->second)
      emitUnnamed(TransferKind::FromDeviceAllOf, Type, Where, Anchor,
                  "planned calls here were handed " +
                      describeUnnamed(Type) +
                      " Ferry cannot name; whatever of " +
                      (Type.empty() ? "any buffer" : "those") +
                      " the device holds newer goes back");
  }

  // --- buffers Ferry cannot name ---------------------------------------------
  static std::string describeUnnamed(const std::string &Type) {
    return Type.empty() ? "buffers"
                        : "buffers of element type `" + Type + "`";
  }

  /// A planned callee was handed a buffer this function cannot name (a
  /// private member of an object in a container, say), so cannot bring
  /// home by name: the run-time state does it for that one at this
  /// function's exits, which therefore bring its buffers home (it is
  /// planned again so, if it was to leave them to its caller). The callee
  /// need not know: a call from another file is planned the same way. A
  /// callee that is not internal brings its buffers home itself.
  void handedUnnamed(const FunctionDecl *Callee, QualType Element) {
    // A callee planned here that brings its buffers home itself leaves
    // nothing behind (one of another file is planned there, which may
    // leave them to this caller).
    if (PC.Internal && Callee->hasBody() && !PC.Internal->count(Callee))
      return;
    unnamedLeftOnDevice(Element);
  }

  /// Buffers of the type Element this function cannot name may have their
  /// newest copy on the device (a call Ferry cannot see into ran kernels on
  /// them): its exits bring those home through the run-time state.
  void unnamedLeftOnDevice(QualType Element) {
    if (SyncsAtExit)
      PC.UnnamedAtExit[F].insert(unnamedElementSpelling(Ctx, Element));
    else
      PC.MustSyncAtExit.insert(F);
  }

  /// A host access to a buffer Ferry cannot name: before it, every buffer
  /// of its element type comes home where the device holds it newer, and a
  /// write then counts each stale on the device; the objects it may be are
  /// updated as the lines leave them.
  void unnamedHostAccess(FlowState &S, const HostEvent &E, Placement Where,
                         const Stmt *Anchor, unsigned L) {
    ObjectRefs R = weakened(E.Targets);
    bool Writes = writes(E.Mode);
    std::string Type = unnamedElementSpelling(Ctx, E.Targets.Element);
    note(&StepEffects::HostNeeds, R.Ids);
    note(&StepEffects::AmbiguousNeeds, R.Ids);
    if (Writes)
      note(&StepEffects::HostWrites, Table.withAliases(R.Ids));
    emitUnnamed(Writes ? TransferKind::HostWritesAllOf
                       : TransferKind::HostReadsAllOf,
                Type, Where, Anchor,
                "line " + std::to_string(L) + ": " + describeUnnamed(Type) +
                    " " + E.What + " on the host, which Ferry cannot name; "
                    "the device may hold newer copies" +
                    (Writes ? ", and the host may write them" : ""));
    update(S, R, &CopyState::Host, Validity::Valid);
    if (Writes)
      update(S, R, &CopyState::Device, Validity::Stale);
  }

  void emitKeep(TransferKind Kind, const BufferObject &O, Placement Where,
                const Stmt *Anchor, const char *Why) {
    for (const Transfer &Same : Plan->Transfers)
      if (Same.Kind == Kind && Same.Where == Where &&
          Same.Anchor == Anchor && Same.Buffer == O.Spelling)
        return;
    Transfer T;
    T.Kind = Kind;
    T.Where = Where;
    T.Anchor = Anchor;
    T.Buffer = O.Spelling;
    T.Objects = {O.Id};
    T.Reason = "`" + O.Spelling + Why;
    Plan->Transfers.push_back(std::move(T));
  }

  void emitUnnamed(TransferKind Kind, const std::string &Type, Placement Where,
                   const Stmt *Anchor, std::string Reason) {
    if (!Plan || LinesOff)
      return;
    for (const Transfer &Same : Plan->Transfers)
      if (Same.Kind == Kind && Same.Where == Where && Same.Anchor == Anchor &&
          Same.Buffer == Type)
        return;
    Transfer T;
    T.Kind = Kind;
    T.Where = Where;
    T.Anchor = Anchor;
    T.Buffer = Type;
    T.Reason = std::move(Reason);
    Plan->Transfers.push_back(std::move(T));
  }


  PlanningContext &PC;
  ASTContext &Ctx;
  SourceManager &SM;
  const FunctionDecl *F;
  const ObjectTable &Table;
  const PlanningUnits &Units;
  FunctionPlan *Plan = nullptr;
  /// While recording: objects whose lines here, or whose planned callees'
  /// lines, the run-time state decides (guarded lines, handed-over calls).
  std::set<ObjectId> TrustsRunTimeState;
  /// Recording a dispatch no path reaches: its launch, no lines.
  bool LinesOff = false;
  StepEffects *Effects = nullptr;
  std::map<const Stmt *, std::vector<Hoist>> Hoists;
  std::set<std::pair<const Stmt *, ObjectId>> WholeReads;
  bool SyncsAtExit;
  /// The lines being emitted name a container of buffers (Transfer).
  bool EachElement = false;
  struct EachElementScope {
    EachElementScope(Impl &P, bool On) : P(P), Saved(P.EachElement) {
      P.EachElement = On;
    }
    ~EachElementScope() { P.EachElement = Saved; }
    Impl &P;
    bool Saved;
  };
  static bool isContainerExpr(const Expr *E) {
    QualType T = E->getType().getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return isBufferContainerType(T.getUnqualifiedType());
  }
};

std::string unnamedElementSpelling(ASTContext &Ctx, QualType T) {
  if (T.isNull())
    return "";
  T = T.getCanonicalType().getUnqualifiedType();
  // A class declared inside a function cannot be named outside it.
  if (const auto *RD = T->getAsRecordDecl())
    if (RD->getParentFunctionOrMethod() || RD->getName().empty())
      return "";
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.FullyQualifiedName = true;
  PP.SuppressScope = false;
  PP.SuppressTagKeyword = true;
  return T.getAsString(PP);
}

TransferFunction::TransferFunction(PlanningContext &PC, const FunctionDecl *F,
                                   const ObjectTable &Table,
                                   const PlanningUnits &Units,
                                   bool SyncsAtExit)
    : I(std::make_unique<Impl>(PC, F, Table, Units, SyncsAtExit)) {}

TransferFunction::~TransferFunction() = default;

FlowState TransferFunction::apply(const Step &S, const FlowState &In) {
  return I->apply(S, In);
}

void TransferFunction::record(FunctionPlan *Plan) { I->Plan = Plan; }

void TransferFunction::recordUnreachable(const Step &S, size_t Objects) {
  if (S.Kind != StepKind::Dispatch)
    return;
  FlowState Any;
  Any.Objects.assign(Objects, {Validity::Unknown, Validity::Unknown});
  Any.Facts = I->Table.entryPointsTo();
  I->LinesOff = true;
  I->apply(S, std::move(Any));
  I->LinesOff = false;
}

void TransferFunction::observe(StepEffects *Effects) { I->Effects = Effects; }

const std::set<ObjectId> &TransferFunction::trustsRunTimeState() const {
  return I->TrustsRunTimeState;
}

void TransferFunction::hoist(const Stmt *Loop, Hoist H) {
  I->Hoists[Loop].push_back(std::move(H));
}

void TransferFunction::readWhole(const Stmt *Unit, ObjectId Id) {
  I->WholeReads.insert({Unit, Id});
}

bool TransferFunction::mustGoInside(const Stmt *S,
                                    const PointsTo &Facts) const {
  return I->mustGoInside(S, Facts);
}

bool TransferFunction::nameableAt(ObjectId Id, const Stmt *At) const {
  return I->nameableAt(Id, At);
}

} // namespace ferry
