#pragma once
// Whether a copy may be hoisted above a loop: a backward data flow on the
// step graph (StepGraph.h). A copy placed at a loop's entry is down-safe
// when every path from the entry meets a use of the copied data before it
// leaves the loop (a `break`, a `return`, the test failing after a trip
// without the use): the data is anticipated there. Otherwise the hoisted
// copy would move data on a run that never needs it, and the copy stays at
// its use, where the run-time state guards it
// (../shared/design/placement.md, invariant 2).

#include "plan/StepGraph.h"

#include <set>

namespace ferry {

/// Whether every path from the entry of `Loop` meets one of the steps
/// `Uses` (steps inside the loop, or the loop's entries of loops inside it)
/// before it leaves the loop. `FirstTripRuns`: the loop's body surely runs
/// once when the loop is reached (runsAtLeastOnce), so its first test
/// cannot fail.
bool everyPathUses(const StepGraph &G, const LoopSteps &Loop,
                   const std::set<unsigned> &Uses, bool FirstTripRuns);

} // namespace ferry
