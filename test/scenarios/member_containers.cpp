// Issue 23, part 3: a class that owns a container of buffers, a network's
// layers, and runs them in a FERRY_COMPUTE member function: the container
// is a member reached through `this` (`layers_`, `this->layers_`), and its
// elements one may-alias set (see buffer_containers.cpp). A helper writes
// an element handed to it (`nudge(layers_[0])`); a const member helper reads
// the container (`output`), which is all of it as far as the plan knows:
// every stale layer comes back there, each only if it is stale.
//
// By hand (4 layers of 16 floats, 64 B each):
//   forward(): layer 0 is read by the first kernel: in (1); layers 1..3 are
//     overwritten whole by kernels (no copy in). nudge() writes element 0
//     of layers_[0] (its summary bounds it to that element) on the host,
//     current there already. The second pass reads layer 0 again: that
//     element in (1, 4 B); layers 1..3 are overwritten again. output()
//     reads the container: layers 1, 2 and 3 come back (3). Exit: all
//     current.
//   In 2 (68 B), out 3 (192 B). Dispatches: 2 passes x 3 = 6.
// ferry-test: golden
// ferry-test: to_device 2 to_device_bytes 68 from_device 3 from_device_bytes 192
// ferry-test: dispatches 6
#include "Print.h"

#include <vector>

FERRY_KERNEL void layerKernel(ferry::KernelContext kc, const float *in,
                              float *out, float w) {
  out[kc.x] = 0.5f * in[kc.x] + w * in[(kc.x + 1) % kc.maxX];
}

class Net {
public:
  Net(int layers, int width) {
    for (int l = 0; l < layers; ++l) {
      layers_.emplace_back(width);
      for (int i = 0; i < width; ++i)
        layers_.back()[i] = static_cast<float>((i + l) % 5);
    }
  }

  FERRY_COMPUTE void forward(ferry::ComputeContext &cc) {
    pass(cc, 0.25f);
    nudge(layers_[0]);
    pass(cc, 0.125f);
    std::printf("output %.4f\n", output());
  }

  void print() const {
    for (const ferry::Buffer<float> &layer : layers_)
      printBuffer("layer", layer);
  }

private:
  void pass(ferry::ComputeContext &cc, float w) {
    for (std::size_t l = 0; l + 1 < layers_.size(); ++l)
      cc.dispatch(layerKernel, ferry::Range(layers_[l].size()), layers_[l],
                  this->layers_[l + 1], w);
  }
  static void nudge(ferry::Buffer<float> &layer) { layer[0] += 1.0f; }
  float output() const { return layers_.back()[3]; }

  std::vector<ferry::Buffer<float>> layers_;
};

int main() {
  Net net(4, 16);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { net.forward(cc); });
  net.print();
}
