// Issue 33, access paths of any depth: a model keeps two levels of state,
// each level two fields, each field one buffer, all held by value
// (`levels_.fine.rho.data`, three members below `this`). A member compute
// function dispatches on such a path, hands a level (`State &`) to a free
// compute helper that dispatches two members below its parameter
// (`s.rho.data`), and calls a host member that reads one element of a
// path. Every buffer is named by its path: no line is left to the
// run-time state.
//
// By hand (n = 32 floats, 128 B each), per compute (two computes, the host
// prints between them):
//   scale fine.rho: fine.rho in (128 B). relax(fine) reads fine.rho (on the
//   device already) and fine.energy (in, 128 B). relax(coarse): coarse.rho
//   and coarse.energy in (2, 256 B). relax only ever runs from step, which
//   names both levels' buffers, so it leaves them to step. peek() reads
//   fine.energy on the host: it comes home there (128 B), and nothing after
//   changes it on the device, so the exit does not move it again. scale
//   coarse.energy runs on what the device holds. The exit brings home the
//   rest the device changed: fine.rho and coarse.energy (2, 256 B);
//   coarse.rho is unchanged and stays.
//   Per compute in 4 (512 B), out 3 (384 B). Between the computes the host
//   reads every buffer, only through `print() const`: the exits keep their
//   device copies (`cc.keepDeviceCopy`), so the second compute sends
//   nothing in; its exit brings home what its kernels changed, as the
//   first one's did.
//   Two computes: in 4 (512 B), out 6 (768 B). Dispatches 2 x 4 = 8.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 512
// ferry-test: from_device 6 from_device_bytes 768
// Fills: the 4 copies in (512 B) are of buffers still
// holding what they were made with: the device fills them.
// ferry-test: fills 4 fill_bytes 512
// ferry-test: dispatches 8
#include "Print.h"

FERRY_KERNEL void scale(ferry::KernelContext kc, float *x, float f) {
  x[kc.x] = x[kc.x] * f + static_cast<float>(kc.x % 3);
}

FERRY_KERNEL void addInto(ferry::KernelContext kc, const float *from,
                          float *to) {
  to[kc.x] += from[kc.x];
}

struct Field {
  Field(int n, float v) : data(static_cast<std::size_t>(n), v) {}
  ferry::Buffer<float> data;
};

struct State {
  State(int n, float v) : rho(n, v), energy(n, 2.0f * v) {}
  Field rho, energy;
};

struct Levels {
  explicit Levels(int n) : fine(n, 1.0f), coarse(n, 3.0f) {}
  State fine, coarse;
};

FERRY_COMPUTE void relax(ferry::ComputeContext &cc, State &s) {
  cc.dispatch(addInto, ferry::Range(s.rho.data.size()), s.rho.data,
              s.energy.data);
}

class Model {
public:
  explicit Model(int n) : levels_(n) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    std::size_t n = levels_.fine.rho.data.size();
    cc.dispatch(scale, ferry::Range(n), levels_.fine.rho.data, 2.0f);
    relax(cc, levels_.fine);
    relax(cc, levels_.coarse);
    peek();
    cc.dispatch(scale, ferry::Range(n), levels_.coarse.energy.data, 0.5f);
  }
  void print() const {
    std::printf("peeked %.3f\n", static_cast<double>(peeked_));
    printBuffer("fine.rho", levels_.fine.rho.data);
    printBuffer("fine.energy", levels_.fine.energy.data);
    printBuffer("coarse.rho", levels_.coarse.rho.data);
    printBuffer("coarse.energy", levels_.coarse.energy.data);
  }

private:
  void peek() { peeked_ = levels_.fine.energy.data[0]; }
  Levels levels_;
  float peeked_ = 0.0f;
};

int main() {
  Model model(32);
  ferry::Accelerator acc;
  for (int frame = 0; frame < 2; ++frame) {
    acc.compute([&](ferry::ComputeContext &cc) { model.step(cc); });
    model.print();
  }
}
