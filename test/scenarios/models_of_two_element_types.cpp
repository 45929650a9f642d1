// Issue 33: a vector of `std::unique_ptr<Model>` owns objects of two
// derived classes whose private buffers differ in element type (`Fluid`
// holds floats, `Counter` ints). Every call goes through the base
// (`m->step(cc, k)`, `ms[i]->poke(v)`, `Model &a = *ms[1]`), so no call
// names a buffer: each virtual call counts as reading and writing on the
// host any buffer of the types the TU's classes derived from `Model` hold
// (`hostWritesAllOf<float>()` and `<int>()`), and each override, a callee
// whose caller cannot name its buffer, sends it home at its end.
//
// By hand (Fluid f_: 32 floats, 128 B; Counter c_: 16 ints, 64 B; three
// objects, 320 B; each first copy in is a fill):
//   compute 1, three trips of three steps, then a host poke and total
//     through the base: each step copies its object in (the first trip's
//     are fills, 320 B; later trips follow the guessed host writes, 320 B
//     each) and home at its end (320 B a trip): in 9 (960 B), out 9 (960 B).
//   compute 2, one step of the Counter through a reference to the base:
//     in 1 (64 B), out 1 (64 B).
//   In 10 (1,024 B, 3 fills of 320 B); out 10 (1,024 B); dispatches 10.
//   A careful hand-written port that knew which object each call reaches
//   would copy in only the three fills and the two poked objects (and
//   bring home fewer mid-loop): this is the price of a virtual call
//   (docs/limitations.md), paid in copies, never in results.
// ferry-test: golden
// ferry-test: to_device 10 to_device_bytes 1024 fills 3 fill_bytes 320
// ferry-test: from_device 10 from_device_bytes 1024
// ferry-test: dispatches 10
#include <ferry/ferry.hpp>

#include <cstdio>
#include <memory>
#include <vector>

FERRY_KERNEL void drift(ferry::KernelContext kc, float *p, float dt) {
  p[kc.x] += dt * static_cast<float>(kc.x % 5);
}

FERRY_KERNEL void bump(ferry::KernelContext kc, int *p, int d) {
  p[kc.x] += d + kc.x % 3;
}

struct Model {
  virtual ~Model() = default;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc, int k) = 0;
  virtual double total() const = 0;
  virtual void poke(int v) = 0;
};

class Fluid : public Model {
public:
  explicit Fluid(float start) : f_(32, start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int k) override {
    cc.dispatch(drift, ferry::Range(f_.size()), f_, 0.5f * k);
  }
  double total() const override {
    double s = 0;
    for (float v : f_)
      s += v;
    return s;
  }
  void poke(int v) override { f_[3] += v; }

private:
  ferry::Buffer<float> f_;
};

class Counter : public Model {
public:
  explicit Counter(int start) : c_(16, start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int k) override {
    cc.dispatch(bump, ferry::Range(c_.size()), c_, k);
  }
  double total() const override {
    double s = 0;
    for (int v : c_)
      s += v;
    return s;
  }
  void poke(int v) override { c_[2] += v; }

private:
  ferry::Buffer<int> c_;
};

int main() {
  std::vector<std::unique_ptr<Model>> ms;
  ms.push_back(std::make_unique<Fluid>(1.f));
  ms.push_back(std::make_unique<Counter>(2));
  ms.push_back(std::make_unique<Fluid>(3.f));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int t = 0; t < 3; t++) {
      for (auto &m : ms)
        m->step(cc, t + 1);
      ms[t % 3]->poke(10 * t);
      std::printf("trip %d: %.2f\n", t, ms[(t + 1) % 3]->total());
    }
  });
  for (auto &m : ms)
    std::printf("after 1: %.2f\n", m->total());
  acc.compute([&](ferry::ComputeContext &cc) {
    Model &a = *ms[1];
    a.step(cc, 7);
  });
  for (auto &m : ms)
    std::printf("after 2: %.2f\n", m->total());
}
