// Issue 33 (found by a review of this stop's changes): buffers an object
// holds other than as its own members.
//   - Inherited from a base class (`struct Layer : Store`, `Store::f`): a
//     helper reading `l.f` on the host was summarised without it, since a
//     class's buffer paths did not include its bases', so no line brought
//     the steps' results home before it (the old tool printed `in 32.000`
//     where the reference prints `in 16.000`). A class's paths now include
//     its bases' members.
//   - Held through `std::unique_ptr<ferry::Buffer<int>>`: taken for a
//     container of buffers, so the rewrite walked it with a range-for and
//     did not compile. A container now needs a `begin` to walk; the
//     pointer holds one buffer no path spells (a guess of its type).
//
// By hand (f: 8 floats, 32 B; the counter: 8 ints, 32 B; each starts as
// made, so a first copy in is a fill):
//   layers: the first step of each copies it in (2 fills, 64 B); each of
//     the four reads after a step brings that layer home (4, 128 B); the
//     host only reads, so the second steps copy nothing in.
//   counter: in as a fill (32); the read brings it home (32); the second
//     step needs nothing in; the exit brings it home (32).
//   In 3 (96 B, all fills); out 6 (192 B, all by the run-time state: an
//   element of a vector, a buffer behind a pointer); dispatches 6.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 96 fills 3 fill_bytes 96
// ferry-test: from_device 6 from_device_bytes 192
// ferry-test: unnamed_from_device 6 unnamed_from_device_bytes 192
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>
#include <memory>
#include <vector>

FERRY_KERNEL void half(ferry::KernelContext kc, float *f) { f[kc.x] *= 0.5f; }

FERRY_KERNEL void inc(ferry::KernelContext kc, int *a, int v) {
  a[kc.x] += v + kc.x;
}

struct Store {
  ferry::Buffer<float> f = ferry::Buffer<float>(8, 4.f);
};

struct Layer : Store {
  int id = 0;
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(half, ferry::Range(f.size()), f);
  }
};

static double total(const Layer &l) {
  double s = 0;
  for (float x : l.f)
    s += x;
  return s;
}

class Counter {
public:
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int v) {
    cc.dispatch(inc, ferry::Range(p_->size()), *p_, v);
  }
  int sum() const {
    int s = 0;
    for (int x : *p_)
      s += x;
    return s;
  }

private:
  std::unique_ptr<ferry::Buffer<int>> p_ =
      std::make_unique<ferry::Buffer<int>>(8, 1);
};

int main() {
  std::vector<Layer> layers(2);
  Counter counter;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int t = 0; t < 2; ++t)
      for (std::size_t i = 0; i < layers.size(); ++i) {
        layers[i].step(cc);
        std::printf("in %.3f\n", total(layers[i]));
      }
    counter.step(cc, 2);
    std::printf("counter %d\n", counter.sum());
    counter.step(cc, 1);
  });
  std::printf("after %.3f %.3f %d\n", total(layers[0]), total(layers[1]),
              counter.sum());
}
