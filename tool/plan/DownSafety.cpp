#include "plan/DownSafety.h"

#include <vector>

namespace ferry {

bool everyPathUses(const StepGraph &G, const LoopSteps &Loop,
                   const std::set<unsigned> &Uses, bool FirstTripRuns) {
  if (Uses.empty())
    return false;
  const size_t N = G.Steps.size();
  // Anticipated[s]: every path from s's start meets a use before leaving
  // the loop. The greatest fixpoint: start from "yes" inside the loop and
  // take it back wherever some successor leaves the loop or is not
  // anticipated.
  std::vector<char> Anticipated(N, 0);
  for (size_t S = 0; S < N; ++S)
    Anticipated[S] = Loop.Members[S];
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t S = 0; S < N; ++S) {
      if (!Anticipated[S] || Uses.count(static_cast<unsigned>(S)))
        continue;
      const std::vector<unsigned> &Succs = G.Steps[S].Succs;
      bool All = !Succs.empty();
      for (unsigned T : Succs)
        All = All && Loop.Members[T] && Anticipated[T];
      if (!All) {
        Anticipated[S] = 0;
        Changed = true;
      }
    }
  }
  const std::vector<unsigned> &Heads = G.Steps[Loop.Entry].Succs;
  if (Heads.empty())
    return false;
  for (unsigned Head : Heads) {
    if (Uses.count(Head))
      continue;
    // The test before the first trip passes when the loop surely runs
    // once: only where it leads then counts.
    if (FirstTripRuns && Loop.Test && Head == *Loop.Test) {
      if (!Loop.TestPassed || !(Uses.count(*Loop.TestPassed) ||
                                Anticipated[*Loop.TestPassed]))
        return false;
      continue;
    }
    if (!Anticipated[Head])
      return false;
  }
  return true;
}

} // namespace ferry
