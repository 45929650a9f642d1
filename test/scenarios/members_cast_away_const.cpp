// Issue 33, item 4, the limit of members_read_between.cpp: a private member
// that the class's code outside computes only reads through const keeps its
// device copy between computes, unless the program casts const away
// somewhere. Here main writes a Viewer's buffer through the const reference
// `view()` gives it, cast to non-const: legal C++, since the buffer itself
// is not const. Ferry cannot follow what a const accessor hands out, so in
// a program with such a cast (in any of its files) no const use counts as a
// read: neither Viewer's `w_` nor Keeper's `state_`, which nothing casts,
// is kept. Both are sent again by the second compute. Had `w_` been kept,
// its kernel would have run without main's write and printed other numbers
// than the reference.
//
// By hand (Viewer 64 floats, 256 B; Keeper 32 ints, 128 B), two rounds of
// one compute each:
//   round 1: in: w_ (a fill, 256 B), state_ (128 B; the constructor wrote
//     it). Out by the net at the lambda's exit: w_, state_ (384 B).
//   round 2: in: w_ and state_ again (384 B, no fill). Out as round 1.
//   In 4 (768 B), fills 1 (256 B); out 4 (768 B), all by the net.
//   Dispatches 2 x 2 = 4.
// ferry-test: golden
// ferry-test: to_device 4 to_device_bytes 768 fills 1 fill_bytes 256
// ferry-test: from_device 4 from_device_bytes 768
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 768
// ferry-test: dispatches 4
#include "Print.h"

FERRY_KERNEL void scaleBy(ferry::KernelContext kc, float *w, float f) {
  w[kc.x] = w[kc.x] * f + 1.0f;
}

FERRY_KERNEL void addSome(ferry::KernelContext kc, int *s) {
  s[kc.x] += kc.x % 4 + 1;
}

class Viewer {
public:
  explicit Viewer(int n) : w_(static_cast<std::size_t>(n), 1.0f) {}
  FERRY_COMPUTE void scale(ferry::ComputeContext &cc) {
    cc.dispatch(scaleBy, ferry::Range(w_.size()), w_, 2.0f);
  }
  const ferry::Buffer<float> &view() const { return w_; }
  void print() const { printBuffer("viewer", w_); }

private:
  ferry::Buffer<float> w_;
};

class Keeper {
public:
  explicit Keeper(int n) : state_(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i)
      state_[static_cast<std::size_t>(i)] = i % 5;
  }
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(addSome, ferry::Range(state_.size()), state_);
  }
  void print() const { printBuffer("keeper", state_); }

private:
  ferry::Buffer<int> state_;
};

int main() {
  Viewer viewer(64);
  Keeper keeper(32);
  ferry::Accelerator acc;
  for (int round = 0; round < 2; ++round) {
    acc.compute([&](ferry::ComputeContext &cc) {
      viewer.scale(cc);
      keeper.step(cc);
    });
    viewer.print();
    keeper.print();
    const_cast<ferry::Buffer<float> &>(viewer.view())[2] = 3.0f;
  }
}
