// Issue 31: reductions (an extension, designed against sycl::reduction). A
// kernel takes a ferry::Sum<T>, Min<T> or Max<T> parameter, the dispatch
// binds a buffer to it, and each work-item combines values into it
// (`r += v`, `r.combine(v)`); afterwards element 0 holds its value before
// the dispatch combined with them all. On the device Ferry chooses the
// work-groups: a stride loop over the range, a tree per group in local
// memory and a second kernel folding the groups' values into the buffer.
// Covered: a double sum repeated (each combines with the last), two
// reducers of different types in one kernel with an early return, a float
// sum over a 2-D range, and a sum over an empty range (no change). Every
// value is a small multiple of a power of two, so every order of the
// additions gives the same sums and the program prints what its reference
// execution does.
//
// By hand (`data` 10000 doubles = 80000 B, `values` 777 ints = 3108 B,
// `grid` 64 x 48 floats = 12288 B; `total` 1 double, `low` 1 int, `high` 1
// float, `gridSum` 1 float; 6 dispatches):
//   data, values and grid are written by the host and only read by the
//   kernels: one copy in each (80000 + 3108 + 12288 B), never home.
//   total, low, high and gridSum are made holding their start and are
//   combined into (read and written) on the device: each copied in as a
//   fill of its initial value (8 + 4 + 4 + 4 B) and home once for the print
//   (8 + 4 + 4 + 4 B).
// ferry-test: golden
// ferry-test: to_device 7 to_device_bytes 95416 fills 4 fill_bytes 20
// ferry-test: from_device 4 from_device_bytes 20 dispatches 6
#include <ferry/ferry.hpp>

#include <cstdio>

FERRY_KERNEL void totalOf(ferry::KernelContext kc, const double *in,
                          ferry::Sum<double> total) {
  total += in[kc.x];
}

FERRY_KERNEL void extremes(ferry::KernelContext kc, const int *values, int n,
                           ferry::Min<int> low, ferry::Max<float> high) {
  if (kc.x >= n)
    return;
  low.combine(values[kc.x]);
  high.combine(static_cast<float>(values[kc.x]) * 0.5f);
}

FERRY_KERNEL void gridTotal(ferry::KernelContext kc, const float *grid,
                            ferry::Sum<float> sum) {
  sum += grid[kc.y * kc.maxX + kc.x];
}

FERRY_COMPUTE void reduce(ferry::ComputeContext &cc,
                          const ferry::Buffer<double> &data,
                          ferry::Buffer<double> &total,
                          const ferry::Buffer<int> &values,
                          ferry::Buffer<int> &low, ferry::Buffer<float> &high,
                          const ferry::Buffer<float> &grid,
                          ferry::Buffer<float> &gridSum) {
  for (int rep = 0; rep < 3; ++rep)
    cc.dispatch(totalOf, ferry::Range(data.size()), data, total);
  cc.dispatch(extremes, ferry::Range(800), values, int(values.size()), low,
              high);
  cc.dispatch(gridTotal, ferry::Range(64, 48), grid, gridSum);
  cc.dispatch(totalOf, ferry::Range(0), data, total);
}

int main() {
  ferry::Buffer<double> data(10000), total(1, 1.5);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<double>(i % 13) * 0.25;
  ferry::Buffer<int> values(777), low(1, 1000);
  ferry::Buffer<float> high(1, -1.0f);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int>(i * 37 % 501) - 250;
  ferry::Buffer<float> grid(64 * 48), gridSum(1, 0.0f);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x)
      grid[y * 64 + x] = static_cast<float>((x + y) % 4) * 0.25f;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    reduce(cc, data, total, values, low, high, grid, gridSum);
  });
  std::printf("total %.2f\n", total[0]);
  std::printf("low %d high %.1f\n", low[0], static_cast<double>(high[0]));
  std::printf("grid %.2f\n", static_cast<double>(gridSum[0]));
}
