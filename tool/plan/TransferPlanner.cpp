// The planner: a forward data flow over the step graph of the planned
// function (StepGraph.h, Clang's CFG contracted onto its steps), whose
// lattice is the validity of each buffer's host and device copies
// (Validity.h) and whose transfer function places the lines each step needs
// (TransferFunction.h); then placement: copies a loop needs of data it
// never invalidates move to the loop's entry where that is down-safe
// (DownSafety.h), innermost loops first, each move followed by a new
// solution. The lines are recorded from the final solution.
#include "plan/TransferPlanner.h"

#include "analyses/LoopShape.h"
#include "analyses/lifetime/ComputeOnlyMembers.h"
#include "model/Diagnostics.h"
#include "model/StableOrder.h"
#include "plan/DownSafety.h"
#include "plan/PlanningUnits.h"
#include "plan/StepGraph.h"
#include "plan/TransferFunction.h"
#include "plan/Validity.h"

#include "clang/AST/ParentMapContext.h"

#include <algorithm>

using namespace clang;

namespace ferry {

namespace {

class Planner {
public:
  Planner(PlanningContext &PC, const FunctionDecl *F, bool Entry,
          bool Internal)
      : PC(PC), Ctx(PC.Ctx), F(F), Table(F, PC.Host.globals().tableGlobals(F)),
        Entry(Entry), Internal(Internal) {}

  FunctionPlan run() {
    FunctionPlan Plan;
    Plan.Function = F;
    Plan.Context = F->getParamDecl(0)->getNameAsString();

    // Which loops are planned inside depends on the aliasing facts before
    // them, which the data flow computes: classify, solve, and classify
    // again with the facts found, until the two agree.
    std::map<const Stmt *, bool> Inside;
    PlanningUnits Empty;
    TransferFunction Probe(PC, F, Table, Empty, false);
    PlanningUnits Units;
    std::optional<StepGraph> Graph;
    std::pair<SourceLocation, std::string> GraphError;
    for (int Round = 0;; ++Round) {
      std::map<const Stmt *, bool> Asked;
      Units = findPlanningUnits(F, Ctx, PC.Planned, [&](const Stmt *S) {
        auto It = Inside.find(S);
        bool V = It != Inside.end() ? It->second
                                    : Probe.mustGoInside(S, Table.entryPointsTo());
        Asked[S] = V;
        return V;
      });
      if (Units.Failed)
        break;
      Graph = StepGraph::build(F, Ctx, Units, GraphError);
      if (!Graph)
        break;
      if (Asked.empty() || Round == 3)
        break;
      TransferFunction TF(PC, F, Table, Units, !Internal);
      std::vector<FlowState> In = solve(*Graph, TF);
      bool Agree = true;
      for (auto [S, Used] : Asked) {
        std::optional<unsigned> First = firstStepOf(*Graph, S);
        bool Now = First && In[*First].Reachable
                       ? Probe.mustGoInside(S, In[*First].Facts)
                       : Used;
        Inside[S] = Now;
        Agree = Agree && Now == Used;
      }
      if (Agree)
        break;
    }
    for (const auto &[Loc, Message] : Units.Errors)
      reportError(Ctx, Loc, Message);
    if (Units.Failed)
      return Plan;
    if (!Graph) {
      reportError(Ctx, GraphError.first, GraphError.second);
      return Plan;
    }

    TransferFunction TF(PC, F, Table, Units, !Internal);
    widenPartialReads(*Graph, TF);
    placeLoopEntries(*Graph, TF);
    std::vector<FlowState> In = solve(*Graph, TF);

    // Recorded in the order a reader meets the steps.
    std::vector<unsigned> Order(Graph->Steps.size());
    for (unsigned I = 0; I < Order.size(); ++I)
      Order[I] = I;
    stableSort(Order, [&](unsigned A, unsigned B) {
      return Graph->Steps[A].Order < Graph->Steps[B].Order;
    });
    TF.record(&Plan);
    for (unsigned S : Order)
      if (In[S].Reachable)
        TF.apply(Graph->Steps[S], In[S]);
      else
        TF.recordUnreachable(Graph->Steps[S], Table.objects().size());
    TF.record(nullptr);
    if (Entry && !(PC.StartsCompute && PC.StartsCompute->count(F)))
      markEntryDeviceCopiesStale(Plan, TF.trustsRunTimeState());
    return Plan;
  }

private:
  /// The state before each step.
  std::vector<FlowState> solve(const StepGraph &G, TransferFunction &TF) const {
    const size_t N = G.Steps.size();
    std::vector<FlowState> In(N, FlowState::unreachable()),
        Out(N, FlowState::unreachable());
    In[StepGraph::EntryStep] = start();
    Out[StepGraph::EntryStep] = In[StepGraph::EntryStep];
    std::vector<unsigned> RPO = G.reversePostOrder();
    std::vector<char> Visited(N);
    // Each object's validity can only rise to Unknown and each name's
    // targets only grow, so this ends; the bound is a guard against a
    // transfer that is not monotone.
    constexpr int MaxRounds = 64;
    for (int Round = 0;; ++Round) {
      bool Changed = false;
      for (unsigned S : RPO) {
        if (S == StepGraph::EntryStep)
          continue;
        FlowState Joined = FlowState::unreachable();
        for (unsigned P : G.Steps[S].Preds)
          Joined = join(Joined, Out[P]);
        if (Visited[S] && Joined == In[S])
          continue;
        Visited[S] = 1;
        In[S] = std::move(Joined);
        Out[S] = TF.apply(G.Steps[S], In[S]);
        Changed = true;
      }
      if (!Changed)
        break;
      if (Round == MaxRounds) {
        for (FlowState &S : In)
          for (CopyState &C : S.Objects)
            C = {Validity::Unknown, Validity::Unknown};
        break;
      }
    }
    return In;
  }

  /// From Accelerator::compute the host holds everything and the device
  /// nothing (a new epoch), but what the compute call kept there
  /// (`acc.keepOnDevice`); from a planned caller, only the run-time state
  /// knows.
  FlowState start() const {
    FlowState S;
    S.Objects.resize(Table.objects().size());
    auto Kept = PC.MayStayOnDevice.find(F);
    for (const BufferObject &O : Table.objects()) {
      if (!O.callerVisible())
        continue;
      // A private member nothing outside computes writes (PC.Members):
      // what the device holds is the run-time state's to say.
      if (!Entry || isComputeOnlyMember(O, PC.Members.ComputeOnly) ||
          isComputeOnlyMember(O, PC.Members.HostReadsOnly))
        S.Objects[O.Id] = {Validity::Unknown, Validity::Unknown};
      else if (Kept != PC.MayStayOnDevice.end() && O.Decl &&
               Kept->second.count(O.Decl))
        S.Objects[O.Id] = {Validity::Valid, Validity::Unknown};
      else
        S.Objects[O.Id] = {Validity::Valid, Validity::Stale};
    }
    S.Facts = Table.entryPointsTo();
    return S;
  }

  /// An entry that code Ferry does not plan calls (through a function
  /// pointer, a std::function, a template) may run several times in one
  /// compute. Its plan starts from "the device holds nothing", but after an
  /// earlier run the run-time state says the device copy is current, and a
  /// host write this entry makes before its first copy in adds no line (the
  /// plan counts the device copy stale already). Where a line of its own or
  /// a planned callee's asks the run-time state, that state must agree with
  /// the plan's start: a line at the start tells it.
  void markEntryDeviceCopiesStale(FunctionPlan &Plan,
                                  const std::set<ObjectId> &Trusting) const {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
    if (!Body || Body->body_empty() || Trusting.empty())
      return;
    FlowState S = start();
    std::vector<Transfer> Marks;
    for (const BufferObject &O : Table.objects()) {
      if (!O.callerVisible() || !Trusting.count(O.Id) ||
          !(S.Objects[O.Id] == CopyState{Validity::Valid, Validity::Stale}))
        continue;
      const Stmt *Anchor = firstNaming(O, Body);
      if (!Anchor)
        continue;
      Transfer T;
      T.Kind = TransferKind::HostWrites;
      T.Anchor = Anchor;
      T.Buffer = O.Spelling;
      T.Objects = {O.Id};
      T.EachElement = O.Elements;
      T.OnlyIf = pointersNotNull(O.Spelling);
      T.Reason = "`" + F->getNameAsString() +
                 "` may run again in this compute (code Ferry does not plan "
                 "calls it), and the host may have written `" + O.Spelling +
                 "` since its last run: the plan starts with the device copy "
                 "stale";
      Marks.push_back(std::move(T));
    }
    Plan.Transfers.insert(Plan.Transfers.begin(), Marks.begin(), Marks.end());
  }

  /// The pointers a buffer's spelling goes through (`*p`: p; `g->cur`: g;
  /// `*s->next`: s && s->next), as a condition that they are not null: an
  /// entry's first line comes before the code's own null checks.
  static std::string pointersNotNull(const std::string &Spelling) {
    std::string Path = Spelling;
    bool Deref = !Path.empty() && Path[0] == '*';
    if (Deref)
      Path.erase(0, 1);
    std::vector<std::string> Conditions;
    for (size_t At = Path.find("->"); At != std::string::npos;
         At = Path.find("->", At + 2))
      if (Path.substr(0, At) != "this")
        Conditions.push_back(Path.substr(0, At));
    if (Deref)
      Conditions.push_back(Path);
    std::string Out;
    for (const std::string &C : Conditions)
      Out += (Out.empty() ? "" : " && ") + C;
    return Out;
  }

  /// The first statement of `Body` where `O` can be named: the first, or
  /// for a static local of F (or a member of one), the one after its
  /// declaration; null when no statement follows it.
  const Stmt *firstNaming(const BufferObject &O, const CompoundStmt *Body) const {
    const ValueDecl *Root = O.Kind == ObjectKind::ParameterMember ? O.Base : O.Decl;
    const auto *Local = dyn_cast_or_null<VarDecl>(Root);
    if (!Local || !Local->isLocalVarDecl())
      return Body->body_front();
    for (DynTypedNode Node : Ctx.getParents(*Local)) {
      const auto *Declaration = Node.get<DeclStmt>();
      if (!Declaration)
        continue;
      for (DynTypedNode Up : Ctx.getParents(*Declaration)) {
        const auto *Block = Up.get<CompoundStmt>();
        if (!Block)
          continue;
        const auto *It = llvm::find(Block->body(), Declaration);
        if (It != Block->body_end() && std::next(It) != Block->body_end())
          return *std::next(It);
      }
    }
    return nullptr;
  }

  /// The step of `S` that runs first: S's own, or for a statement planned
  /// inside, its first initialiser, condition or loop entry.
  std::optional<unsigned> firstStepOf(const StepGraph &G, const Stmt *S) const {
    std::optional<unsigned> First;
    for (unsigned I = 0; I < G.Steps.size(); ++I) {
      const Step &St = G.Steps[I];
      const Stmt *Of = St.Kind == StepKind::LoopEntry ? St.Loop : St.Root;
      if (!Of || !within(Of, S))
        continue;
      if (!First || St.Order < G.Steps[*First].Order)
        First = I;
    }
    return First;
  }

  bool within(const Stmt *S, const Stmt *Outer) const {
    DynTypedNode Node = DynTypedNode::create(*S);
    while (Node.get<Stmt>() != Outer) {
      DynTypedNodeList Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return false;
      Node = Parents[0];
    }
    return true;
  }

  /// A host read of part of a buffer copies back only that part, unless all
  /// of it is needed on every path from there before any kernel writes it
  /// again (an exit copy, a read of all of it): then one copy back of the
  /// whole buffer moves the same bytes in one transfer instead of two. A
  /// backward data flow per object (anticipation of a whole need), on the
  /// settled state of the plan by parts. A loop that reads one element per
  /// sweep keeps its one-element copy: the next sweep's kernel writes the
  /// buffer first.
  void widenPartialReads(const StepGraph &G, TransferFunction &TF) const {
    std::vector<FlowState> In = solve(G, TF);
    const size_t N = G.Steps.size();
    std::vector<StepEffects> Fx(N);
    std::set<ObjectId> Partial;
    for (unsigned S = 0; S < N; ++S) {
      if (!In[S].Reachable)
        continue;
      TF.observe(&Fx[S]);
      TF.apply(G.Steps[S], In[S]);
      TF.observe(nullptr);
      Partial.insert(Fx[S].PartialHostNeeds.begin(),
                     Fx[S].PartialHostNeeds.end());
    }
    for (ObjectId Id : Partial) {
      // AtEntry[s]: every path from s's start needs all of the object on
      // the host before a kernel writes it; AtExit[s], from s's end.
      std::vector<char> AtEntry(N, 1), AtExit(N, 1);
      for (bool Changed = true; Changed;) {
        Changed = false;
        for (unsigned S = N; S-- > 0;) {
          const std::vector<unsigned> &Succs = G.Steps[S].Succs;
          char Exit = !Succs.empty();
          for (unsigned T : Succs)
            Exit = Exit && AtEntry[T];
          char Entry = Fx[S].HostNeeds.count(Id) ||
                       (!Fx[S].DeviceWrites.count(Id) && Exit);
          if (Exit != AtExit[S] || Entry != AtEntry[S]) {
            AtExit[S] = Exit;
            AtEntry[S] = Entry;
            Changed = true;
          }
        }
      }
      for (unsigned S = 0; S < N; ++S)
        if (Fx[S].PartialHostNeeds.count(Id) && AtExit[S] && G.Steps[S].Root)
          TF.readWhole(G.Steps[S].Root, Id);
    }
  }

  /// Moves to each loop's entry the copies of data the loop needs and never
  /// invalidates itself, where every path into the loop uses them before it
  /// leaves (a copy above a loop that may run zero times, or whose trip may
  /// end first, would move data on a run that needs none of it: there the
  /// first use's guarded copy moves it once, or never). Innermost loops
  /// first: an inner loop's entry is a use of the outer loop.
  void placeLoopEntries(const StepGraph &G, TransferFunction &TF) const {
    std::vector<const LoopSteps *> Loops;
    for (const LoopSteps &L : G.Loops)
      Loops.push_back(&L);
    stableSort(Loops, [](const LoopSteps *A, const LoopSteps *B) {
      return A->Depth > B->Depth;
    });
    std::vector<FlowState> In;
    bool Stale = true;
    for (const LoopSteps *L : Loops) {
      if (Stale)
        In = solve(G, TF);
      Stale = hoist(G, *L, In, TF);
    }
  }

  bool hoist(const StepGraph &G, const LoopSteps &L,
             const std::vector<FlowState> &In, TransferFunction &TF) const {
    const FlowState &AtEntry = In[L.Entry];
    if (!AtEntry.Reachable)
      return false;
    // What the loop needs and changes, step by step, in the settled state.
    StepEffects Fx;
    std::map<ObjectId, std::set<unsigned>> DeviceUses, HostUses;
    for (unsigned S = 0; S < G.Steps.size(); ++S) {
      if (!L.Members[S] || !In[S].Reachable)
        continue;
      StepEffects E;
      TF.observe(&E);
      TF.apply(G.Steps[S], In[S]);
      TF.observe(nullptr);
      for (ObjectId Id : E.DeviceNeeds)
        DeviceUses[Id].insert(S);
      for (ObjectId Id : E.HostNeeds)
        HostUses[Id].insert(S);
      Fx.DeviceNeeds.insert(E.DeviceNeeds.begin(), E.DeviceNeeds.end());
      Fx.HostNeeds.insert(E.HostNeeds.begin(), E.HostNeeds.end());
      Fx.HostWrites.insert(E.HostWrites.begin(), E.HostWrites.end());
      Fx.DeviceWrites.insert(E.DeviceWrites.begin(), E.DeviceWrites.end());
      Fx.AmbiguousNeeds.insert(E.AmbiguousNeeds.begin(),
                               E.AmbiguousNeeds.end());
    }
    const bool FirstTripRuns = runsAtLeastOnce(L.Loop, Ctx);
    const std::string LoopLine = std::to_string(
        Ctx.getSourceManager().getExpansionLineNumber(L.Loop->getBeginLoc()));
    bool Any = false;
    for (ObjectId Id : Fx.DeviceNeeds) {
      if (Fx.HostWrites.count(Id) || Fx.AmbiguousNeeds.count(Id) ||
          !TF.nameableAt(Id, L.Loop) ||
          AtEntry.Objects[Id].Device == Validity::Valid ||
          !everyPathUses(G, L, DeviceUses[Id], FirstTripRuns))
        continue;
      const std::string &Name = Table.object(Id).Spelling;
      TF.hoist(L.Loop, {Id, true,
                        "hoisted: kernels in the loop at line " + LoopLine +
                            " read `" + Name +
                            "` and the host never writes it there"});
      Any = true;
    }
    for (ObjectId Id : Fx.HostNeeds) {
      if (Fx.DeviceWrites.count(Id) || Fx.AmbiguousNeeds.count(Id) ||
          !TF.nameableAt(Id, L.Loop) ||
          AtEntry.Objects[Id].Host == Validity::Valid ||
          !everyPathUses(G, L, HostUses[Id], FirstTripRuns))
        continue;
      const std::string &Name = Table.object(Id).Spelling;
      TF.hoist(L.Loop, {Id, false,
                        "hoisted: the host reads `" + Name +
                            "` in the loop at line " + LoopLine +
                            " and no kernel there writes it"});
      Any = true;
    }
    return Any;
  }

  PlanningContext &PC;
  ASTContext &Ctx;
  const FunctionDecl *F;
  ObjectTable Table;
  bool Entry, Internal;
};

} // namespace

FunctionPlan planFunction(PlanningContext &PC, const FunctionDecl *F,
                          bool Entry, bool Internal) {
  return Planner(PC, F, Entry, Internal).run();
}

} // namespace ferry
