// Parboil tpacf (two-point angular correlation function), OpenCL base
// version, restructured into Ferry's dialect. Original:
// github.com/abduld/Parboil, benchmarks/tpacf/src/opencl_base/main.cc (host:
// initBinB, TPACF), kernel.cl (gen_hists) and model.h.
//
// One dispatch fills 2 * NUM_SETS + 1 histograms of NUM_BINS angular bins:
// DD (the data set with itself), RR (each random set with itself) and DR
// (the data set against each random set). In the original each work-group
// owns one histogram, zeroes it, and its items scatter pair counts into it
// with atom_inc. Ferry implements no atomics yet, so the nearest race-free
// version gives each work-item one bin of one histogram: it zeroes its
// element and then adds every pair that falls in its bin,
//   histograms[i] = 0; for (pairs) if (bin == mine) histograms[i] += 1;
// The pairing rules, the bin search and the buffer layout (x, y and z of all
// sets in one buffer) are the original's. The points are generated, with
// coordinates in 1/256ths and norms close to 1, so that every dot product is
// exact in float and the device bins exactly as the host does; the bin
// boundaries are the original's (1 to 10^4 arcmin, 5 bins a decade).
//
//   tpacf [NUM_ELEMENTS NUM_SETS]
//
// Bytes the ORIGINAL host code moves at 256 points, 2 random sets
// (hist_t is a 4-byte unsigned):
//   initBinB: clEnqueueWriteBuffer dev_binb  (20 + 1)*4        =   84
//   clEnqueueWriteBuffer d_x_data  3 * (2 + 1) * 256 * 4       = 9216
//   clEnqueueReadBuffer  d_hists   20 * (2*2 + 1) * 4          =  400
//   in 2 (9300 B), out 1 (400 B).
// Whole-buffer optimum: the bin boundaries and the points are host-written
// and read by the kernel: in (2, 9300 B); every histogram element is
// zeroed and counted by its own work-item (histograms[kc.x]), so no copy
// in; the host sums them: out (1, 400 B). Equal to the original.
// suite-original: to_device 2 to_device_bytes 9300 from_device 1 from_device_bytes 400
// ferry-test: args 256 2
// ferry-test: to_device 2 to_device_bytes 9300 from_device 1 from_device_bytes 400
// ferry-test: dispatches 1
#include "Print.h"

#include <cmath>
#include <cstdlib>

constexpr int NUM_BINS = 20;
constexpr double bins_per_dec = 5.0;
constexpr double min_arcmin = 1.0;
constexpr double D2R = 3.14159265358979323846 / 180.0;

using hist_t = unsigned int;

FERRY_KERNEL void gen_hists(ferry::KernelContext kc, hist_t *histograms,
                            const float *all_x_data, const float *dev_binb, int NUM_SETS,
                            int NUM_ELEMENTS) {
  const float *all_y_data = all_x_data + NUM_ELEMENTS * (NUM_SETS + 1);
  const float *all_z_data = all_y_data + NUM_ELEMENTS * (NUM_SETS + 1);
  const int bx = kc.x / NUM_BINS;   // the original's group: one histogram
  const int mine = kc.x % NUM_BINS; // this item's bin of it
  const bool do_self = bx < NUM_SETS + 1;
  // DD and RR pair a set with itself; DR pairs the data with random set bx - NUM_SETS.
  const int dataSet = do_self ? bx : 0;
  const int randomSet = do_self ? bx : bx - NUM_SETS;
  const float *data_x = all_x_data + NUM_ELEMENTS * dataSet;
  const float *data_y = all_y_data + NUM_ELEMENTS * dataSet;
  const float *data_z = all_z_data + NUM_ELEMENTS * dataSet;
  const float *random_x = all_x_data + NUM_ELEMENTS * randomSet;
  const float *random_y = all_y_data + NUM_ELEMENTS * randomSet;
  const float *random_z = all_z_data + NUM_ELEMENTS * randomSet;
  histograms[kc.x] = 0;
  for (int j = 0; j < NUM_ELEMENTS; j++) {
    const float random_x_s = random_x[j];
    const float random_y_s = random_y[j];
    const float random_z_s = random_z[j];
    // With do_self, each unordered pair once.
    for (int k = 0; k < (do_self ? j : NUM_ELEMENTS); k++) {
      const float distance =
          data_x[k] * random_x_s + data_y[k] * random_y_s + data_z[k] * random_z_s;
      // binary search for the bin
      unsigned min = 0;
      unsigned max = NUM_BINS;
      while (max > min + 1) {
        const unsigned k2 = (min + max) / 2;
        if (distance >= dev_binb[k2])
          max = k2;
        else
          min = k2;
      }
      const int bin_index = static_cast<int>(max) - 1;
      if (distance < dev_binb[min] && distance >= dev_binb[max] && bin_index == mine)
        histograms[kc.x] += 1;
    }
  }
}

// The bin boundaries: cosines of 1 .. 10^4 arcmin, 5 a decade.
void initBinB(ferry::Buffer<float> &binb) {
  for (int k = 0; k < NUM_BINS + 1; k++)
    binb[k] = static_cast<float>(
        std::cos(std::pow(10.0, (std::log10(min_arcmin) + k * 1.0 / bins_per_dec)) / 60.0 * D2R));
}

// The original's launch wrapper.
void TPACF(ferry::ComputeContext &cc, ferry::Buffer<hist_t> &histograms,
           ferry::Buffer<float> &d_x_data, ferry::Buffer<float> &dev_binb, int NUM_SETS,
           int NUM_ELEMENTS) {
  cc.dispatch(gen_hists, ferry::Range(NUM_BINS * (NUM_SETS * 2 + 1)), histograms, d_x_data,
              dev_binb, NUM_SETS, NUM_ELEMENTS);
}

FERRY_COMPUTE void tpacf(ferry::ComputeContext &cc, ferry::Buffer<hist_t> &hists,
                         ferry::Buffer<float> &x_data, int NUM_SETS, int NUM_ELEMENTS) {
  ferry::Buffer<float> binb(NUM_BINS + 1);
  initBinB(binb);
  TPACF(cc, hists, x_data, binb, NUM_SETS, NUM_ELEMENTS);
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int sets = argc > 2 ? std::atoi(argv[2]) : 2;
  // Set 0 is the data, sets 1.. the random catalogues; x of all sets, then
  // y, then z. Points (a, b, c) / 256 with 0.94 <= |p|^2 <= 1: products
  // are multiples of 2^-16 below 1, so dot products are exact in float.
  ferry::Buffer<float> x_data(3 * (sets + 1) * n);
  unsigned seed = 12345;
  for (int p = 0; p < (sets + 1) * n; ++p) {
    int a, b, c;
    do {
      seed = seed * 1103515245u + 12345u;
      a = static_cast<int>((seed >> 4) % 513) - 256;
      seed = seed * 1103515245u + 12345u;
      b = static_cast<int>((seed >> 4) % 513) - 256;
      seed = seed * 1103515245u + 12345u;
      c = static_cast<int>((seed >> 4) % 513) - 256;
    } while (a * a + b * b + c * c < 61604 || a * a + b * b + c * c > 65536);
    x_data[p] = a / 256.0f;
    x_data[(sets + 1) * n + p] = b / 256.0f;
    x_data[2 * (sets + 1) * n + p] = c / 256.0f;
  }
  ferry::Buffer<hist_t> hists(NUM_BINS * (sets * 2 + 1));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { tpacf(cc, hists, x_data, sets, n); });
  // Add up the random sets' histograms, as the original does.
  std::printf("tpacf: %d points, %d random sets\n", n, sets);
  for (int i = 0; i < NUM_BINS; i++) {
    unsigned rr = 0, dr = 0;
    for (int s = 0; s < sets; s++) {
      rr += hists[NUM_BINS * (1 + s) + i];
      dr += hists[NUM_BINS * (1 + sets + s) + i];
    }
    std::printf("bin %2d: dd %u dr %u rr %u\n", i, hists[i], dr, rr);
  }
}
