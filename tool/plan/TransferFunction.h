#pragma once
// What one step does to the validity of every buffer object, and the lines
// it needs: the planner's transfer function. A host stretch needs the host
// copy of what it reads (a copy back before it when the device's is newer)
// and makes the device copy of what it writes stale; a dispatch needs the
// device copy of what its kernel reads and makes the host copy of what it
// writes stale; the exit makes every buffer the caller can reach current on
// the host. Where the state says a copy is surely stale the line is a plain
// copy, where it may be, the runtime's guarded form.

#include "plan/StepGraph.h"
#include "plan/TransferPlanner.h"
#include "plan/Validity.h"

#include <memory>
#include <set>
#include <string>

namespace ferry {

/// What a step needs and changes, for deciding what a loop's entry may hold.
struct StepEffects {
  /// Objects whose device (host) copy the step copies, or would: it needs
  /// them valid there and they were not.
  std::set<ObjectId> DeviceNeeds, HostNeeds;
  /// Objects the step may make stale on the device (a host write, a handed
  /// over call) or on the host (a kernel write).
  std::set<ObjectId> HostWrites, DeviceWrites;
  /// Needs through a name that may denote several objects (`*from` after a
  /// swap): which one is needed when only the run knows.
  std::set<ObjectId> AmbiguousNeeds;
  /// Objects the step copies part of back (a host read the analysis
  /// bounded: HostEvent::Range), or would.
  std::set<ObjectId> PartialHostNeeds;
};

/// A copy placed at a loop's entry step, for data the loop needs and never
/// invalidates itself.
struct Hoist {
  ObjectId Object = 0;
  bool ToDevice = true;
  std::string Reason;
};

class TransferFunction {
public:
  /// `SyncsAtExit`: whether F makes the host copy of every buffer its caller
  /// can reach current before it returns (see planFunction).
  TransferFunction(PlanningContext &PC, const clang::FunctionDecl *F,
                   const ObjectTable &Table, const PlanningUnits &Units,
                   bool SyncsAtExit);
  ~TransferFunction();

  /// The state after step `S` from `In`.
  FlowState apply(const Step &S, const FlowState &In);

  /// While set, the lines and dispatches of the steps applied go into
  /// `Plan`, and errors are reported (the solver's passes stay silent).
  void record(FunctionPlan *Plan);
  /// Records a step no path reaches (code after a `return`, a branch a
  /// constant condition never takes): a dispatch there still becomes a
  /// launch, so the rewritten file runs no kernel on the host; it needs no
  /// lines. `Objects`: how many objects the state has.
  void recordUnreachable(const Step &S, size_t Objects);
  /// While set, what the steps applied need and change goes into `Effects`.
  void observe(StepEffects *Effects);
  /// The objects whose copies in the run-time state decides, in recorded
  /// lines or in planned callees': guarded copies in, buffers handed over.
  const std::set<ObjectId> &trustsRunTimeState() const;
  /// Places a copy at the entry of `Loop`.
  void hoist(const clang::Stmt *Loop, Hoist H);
  /// The host reads of object `Id` in the step planning `Unit` copy back
  /// the whole buffer, not the part they read: all of it is needed later
  /// anyway (TransferPlanner.cpp, widenPartialReads).
  void readWhole(const clang::Stmt *Unit, ObjectId Id);

  /// A loop or switch that holds a host write making the state change
  /// without a copy, or naming its buffer through something it rebinds:
  /// planned inside rather than as one step (PlanningUnits.h).
  bool mustGoInside(const clang::Stmt *S, const PointsTo &Facts) const;
  /// Whether object `Id` can be named in a line placed at `At`: the caller
  /// can reach it, or it is a local declared before, in an enclosing scope.
  bool nameableAt(ObjectId Id, const clang::Stmt *At) const;

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

} // namespace ferry
