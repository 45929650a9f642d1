// Issue 33, finding 5: a time step that is a member compute function defined
// in another Ferry source (model.cpp) than the time loop. It must move
// exactly what its one-file form (onefile.cpp) moves: the call across files
// is planned as a call within one file (the summaries record member
// functions' calls), and the private scratch members flux_ and tend_, which
// only compute code names, are never copied home. state_, which code
// outside computes only reads (`state() const`, in model.h), keeps its
// device copy between computes in both forms.
//
// By hand (256 floats, 1024 B each), 3 computes of 4 steps each, the host
// printing the state after each: state_ in once (1, 1024 B; the host only
// read it in between), home once a compute by the lambda's safety net
// (3, 3072 B: main cannot name a private member). flux_ and tend_ are
// overwritten by a kernel before any kernel reads them: never copied in,
// never home. Dispatches 3 x 4 x 3 = 36.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 1024
// ferry-test: from_device 3 from_device_bytes 3072
// ferry-test: unnamed_from_device 3 unnamed_from_device_bytes 3072
// ferry-test: dispatches 36
#include "model.h"

#include <cstdio>

int main() {
  Model model(256);
  ferry::Accelerator acc;
  for (int c = 0; c < 3; ++c) {
    acc.compute([&](ferry::ComputeContext &cc) {
      for (int s = 0; s < 4; ++s)
        model.step(cc, 0.25f);
    });
    double sum = 0;
    for (float v : model.state())
      sum += v;
    std::printf("compute %d: state sum %.4f, state[3] %.4f\n", c, sum,
                static_cast<double>(model.state()[3]));
  }
}
