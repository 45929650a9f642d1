// Issue 23, part 3: buffers that are members of an object the compute code
// names, `sim.state`: through a reference parameter (`smooth`), a pointer
// parameter and a local object (`sample`), and an object a planned lambda
// captures (the third compute). A member function called on the object
// (`kick`, a host write of state[1]) is planned by its summary, per member.
// The twin with the buffers as parameters is object_members_params.cpp, and
// the two move the same bytes: between the computes main only reads
// `sim.state` and `sim.next`, buffers inside its own object, so Ferry keeps
// them on the device as it keeps the twin's local buffers
// (`acc.keepOnDevice(sim.state)`).
//
// By hand (n = 32 floats, 128 B each):
//   smooth(sim, 2): the loop's first kernel reads sim.state and nothing on
//     the host writes it there: in once, before the loop (1); sim.next and
//     then sim.state are overwritten whole by kernels (no copy in). kick()
//     reads and writes sim.state[1] (its summary bounds it to that
//     element), and the exit needs all of sim.state: all of it back before
//     kick (1), and only element 1 of the device copy turns stale. Exit:
//     sim.next back (1). In 1, out 2, 4 dispatches.
//   sample(&sim, out): the device copy of sim.state kept from the first
//     compute is stale in element 1 only (kick() wrote it): that element
//     in (1, 4 B); the local `probe` is made on the
//     host, and its state overwritten by the kernel; probe.kick(): its
//     element 1 back (1, 4 B); the second kernel reads probe.state: that
//     element in (1, 4 B); out is overwritten: back at the exit (1). probe
//     dies with the call. In 2 (8 B), out 2 (132 B), 2 dispatches.
//   The lambda: smooth(sim, 1) as above, but sim.state is kept and valid
//     on the device: no copy in (out 2: it also runs from a lambda of its
//     own, so it brings its buffers home); sim.state[0] is written on the
//     host, current already; smooth(sim, 1) again: elements 0 and 1 are
//     stale on the device, one piece in (1, 8 B); out 2. In 1 (8 B), out
//     4, 4 dispatches.
//   In 4 (144 B), out 8 (900 B), dispatches 10.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 144 from_device 8 from_device_bytes 900
// ferry-test: dispatches 10
#include "Print.h"

FERRY_KERNEL void blur(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = 0.5f * in[kc.x] + 0.5f * in[(kc.x + 1) % kc.maxX];
}

struct Sim {
  explicit Sim(int n) : state(n), next(n, 0.0f) {
    for (int i = 0; i < n; ++i)
      state[i] = static_cast<float>(i % 5);
  }
  void kick() { state[1] += 10.0f; }
  ferry::Buffer<float> state;
  ferry::Buffer<float> next;
};

FERRY_COMPUTE void smooth(ferry::ComputeContext &cc, Sim &sim, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    cc.dispatch(blur, ferry::Range(sim.state.size()), sim.state, sim.next);
    cc.dispatch(blur, ferry::Range(sim.state.size()), sim.next, sim.state);
  }
  sim.kick();
}

FERRY_COMPUTE void sample(ferry::ComputeContext &cc, Sim *sim,
                          ferry::Buffer<float> &out) {
  Sim probe(static_cast<int>(out.size()));
  cc.dispatch(blur, ferry::Range(out.size()), sim->state, probe.state);
  probe.kick();
  cc.dispatch(blur, ferry::Range(out.size()), probe.state, out);
}

int main() {
  Sim sim(32);
  ferry::Buffer<float> out(32);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { smooth(cc, sim, 2); });
  printBuffer("state", sim.state);
  printBuffer("next", sim.next);
  acc.compute([&](ferry::ComputeContext &cc) { sample(cc, &sim, out); });
  printBuffer("out", out);
  acc.compute([&](ferry::ComputeContext &cc) {
    smooth(cc, sim, 1);
    sim.state[0] = 5.0f;
    smooth(cc, sim, 1);
  });
  printBuffer("state", sim.state);
  printBuffer("next", sim.next);
}
