// Issue 31: a member compute function of a class template, dispatching a
// kernel template chosen by the class's parameter (`addTo<T>`): the two
// instantiations share one rewritten text, and the table of kernel names
// goes before the class template (the kernel is declared above it). The
// buffers are private members main cannot name: the safety net at the
// compute's exit brings them home.
//
// By hand (`f.v_` 8 floats and `g.v_` 8 ints, 32 B each, made holding 1; 3
// dispatches): each is read and written on the device, so in once as a
// fill of its initial value (32 B each) and home once (32 B each), through
// the net.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 64 fills 2 fill_bytes 64
// ferry-test: from_device 2 from_device_bytes 64 dispatches 3
// ferry-test: unnamed_from_device 2 unnamed_from_device_bytes 64
#include <ferry/ferry.hpp>

#include <cstdio>

template <class T>
FERRY_KERNEL void addTo(ferry::KernelContext kc, T *v, T d) { v[kc.x] += d; }

template <class T> class Field {
public:
  explicit Field(int n) : v_(n, T(1)) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(addTo<T>, ferry::Range(v_.size()), v_, T(2));
  }
  T at(int i) const { return v_[i]; }
private:
  ferry::Buffer<T> v_;
};

int main() {
  Field<float> f(8);
  Field<int> g(8);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { f.step(cc); g.step(cc); f.step(cc); });
  std::printf("%g %d\n", f.at(3), g.at(3));
}
