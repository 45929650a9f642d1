// particles: the time steps, a Ferry source of their own. main.cpp's
// compute function calls advance(), so the target plans it as a callee of a
// planned function: it copies in only what the run-time state says is stale
// and leaves both buffers on the device for its caller.
#include "particles.h"

void advance(ferry::ComputeContext &cc, ferry::Buffer<Vec2> &pos,
             ferry::Buffer<Vec2> &vel, int steps, float dt) {
  const int n = static_cast<int>(pos.size());
  for (int step = 0; step < steps; ++step) {
    cc.dispatch(accelerate, ferry::Range(n), vel, n, dt, 9.81f, 0.1f);
    cc.dispatch(move, ferry::Range(n), pos, vel, n, dt);
  }
}
