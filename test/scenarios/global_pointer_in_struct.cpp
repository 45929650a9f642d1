// Found by the fuzz campaign (seed fresh-b8, p770): an aggregate of buffer
// pointers initialised from a global buffer pointer, `Pair pr{cur, &tmp}`,
// copies the pointer's value, as `Buffer<int> *p = cur;` does. Ferry
// refused it as if `cur`'s address were taken ("Ferry follows the global
// buffer pointer 'cur' by its name only"): in the written form of a braced
// initialiser the name has no lvalue-to-rvalue conversion above it.
//
// The same with pointer variables, `Pair pr2{p, p}` with `p = &tmp`: the
// aggregate keeps copies of the pointers, which Ferry does not follow, so
// each buffer they point to is handled as a buffer whose address is kept
// (before, nothing moved for them, and sum() read stale elements).
//
// By hand (a, tmp: 16 ints = 64 B): the first kernel reads and writes *cur
// (= a), the second tmp: both in (2), both still holding what they were
// made with (fills). `Pair pr{cur, &tmp}` keeps both addresses: both back
// (2), and the host may write them through pr. The third kernel reads tmp:
// in again (3). `Pair pr2{p, p}` keeps tmp's address: back (3). The host
// copies are then current: nothing at the exit.
// In 3 (192 B), out 3 (192 B), 3 dispatches.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 192 from_device 3 from_device_bytes 192
// ferry-test: fills 2 fill_bytes 128
// ferry-test: dispatches 3
#include "Print.h"

struct Pair {
  ferry::Buffer<int> *x;
  ferry::Buffer<int> *y;
};

static ferry::Buffer<int> *cur = nullptr;

FERRY_KERNEL void twice(ferry::KernelContext kc, int *v) {
  v[kc.x] = v[kc.x] * 2 + 1;
}

static int sum(const Pair &p) { return (*p.x)[3] + (*p.y)[4]; }

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &tmp) {
  cc.dispatch(twice, ferry::Range(cur->size()), *cur);
  cc.dispatch(twice, ferry::Range(tmp.size()), tmp);
  Pair pr{cur, &tmp};
  std::printf("sum %d\n", sum(pr));
  cc.dispatch(twice, ferry::Range(tmp.size()), tmp);
  ferry::Buffer<int> *p = &tmp;
  Pair pr2{p, p};
  std::printf("sum %d\n", sum(pr2));
}

int main() {
  ferry::Buffer<int> a(16, 1), tmp(16, 2);
  cur = &a;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, tmp); });
  printBuffer("a", a);
  printBuffer("tmp", tmp);
}
