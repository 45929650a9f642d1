// Reductions (ferry::Sum, Min, Max; <ferry/reduction.hpp>): the reference
// execution combines in place, and the library's step of the device
// contract (Launch.cpp, enqueueReduction) runs a kernel and its
// `_ferry_finish` written as the emitter prints them, binding each reducer
// as its partials and local scratch and the range's three extents after the
// arguments.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace ferry_test;

namespace {

void addAll(ferry::KernelContext kc, const int *in, ferry::Sum<int> sum,
            ferry::Max<int> top) {
  sum += in[kc.x];
  top.combine(in[kc.x]);
}

// addAll as the emitter prints it (the item inlined).
const char addAllSource[] = R"CLC(
__kernel void addAll(__global const int *in, __global int *sum_partials,
                     __local int *sum_scratch, __global int *top_partials,
                     __local int *top_scratch, int n0, int n1, int n2) {
  int sum = 0, top = INT_MIN;
  for (int i = get_global_id(0); i < n0 * n1 * n2; i += get_global_size(0)) {
    sum += in[i];
    top = max(top, in[i]);
  }
  const int l = get_local_id(0);
  sum_scratch[l] = sum;
  top_scratch[l] = top;
  for (int step = get_local_size(0) / 2; step > 0; step /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < step) {
      sum_scratch[l] += sum_scratch[l + step];
      top_scratch[l] = max(top_scratch[l], top_scratch[l + step]);
    }
  }
  if (l == 0) {
    sum_partials[get_group_id(0)] = sum_scratch[0];
    top_partials[get_group_id(0)] = top_scratch[0];
  }
}
__kernel void addAll_ferry_finish(__global const int *sum_partials,
                                  __global int *sum, __local int *sum_scratch,
                                  __global const int *top_partials,
                                  __global int *top, __local int *top_scratch,
                                  int groups) {
  const int l = get_local_id(0);
  int s = 0, t = INT_MIN;
  for (int g = l; g < groups; g += get_local_size(0)) {
    s += sum_partials[g];
    t = max(t, top_partials[g]);
  }
  sum_scratch[l] = s;
  top_scratch[l] = t;
  for (int step = get_local_size(0) / 2; step > 0; step /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < step) {
      sum_scratch[l] += sum_scratch[l + step];
      top_scratch[l] = max(top_scratch[l], top_scratch[l + step]);
    }
  }
  if (l == 0) {
    sum[0] += sum_scratch[0];
    top[0] = max(top[0], top_scratch[0]);
  }
}
)CLC";

} // namespace

TEST_CASE("a reference dispatch combines into element 0 from its value",
          "[reduction]") {
  ferry::Buffer<int> in(1000), sum(1, 7), top(1, 2000);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<int>(i % 31);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.dispatch(addAll, ferry::Range(in.size()), in, sum, top);
    cc.dispatch(addAll, ferry::Range(10), in, sum, top);
  });
  int expected = 7;
  for (std::size_t i = 0; i < in.size(); ++i)
    expected += static_cast<int>(i % 31);
  for (int i = 0; i < 10; ++i)
    expected += i;
  CHECK(sum[0] == expected);
  CHECK(top[0] == 2000); // already above every value
}

TEST_CASE("a reduction refuses work-groups and an empty buffer",
          "[reduction]") {
  ferry::Buffer<int> in(64), sum(1, 0), top(1, 0), none(0);
  ferry::Accelerator acc;
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.dispatch(addAll, ferry::Range(64).local(16), in, sum, top);
    });
    FAIL("a reduction ran in the dispatch's work-groups");
  } catch (const ferry::Error &e) {
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("runs in work-groups Ferry chooses"));
  }
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.dispatch(addAll, ferry::Range(64), in, none, top);
    });
    FAIL("a reduction combined into an empty buffer");
  } catch (const ferry::Error &e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("the buffer is empty"));
  }
}

TEST_CASE("the device runs a reduction and its finishing kernel",
          "[reduction]") {
  ferry::Accelerator &acc = cpuAccelerator();
  // More elements than the groups Ferry chooses cover in one stride.
  ferry::Buffer<int> in(100000), sum(1, 5), top(1, -1);
  long long expected = 5;
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<int>(i * 7 % 1001);
    expected += in[i];
  }
  acc.compute([&](ferry::ComputeContext &cc) {
    cc.toDevice(in);
    cc.toDevice(sum);
    cc.toDevice(top);
    cc.launch(addAllSource, "addAll", addAll, ferry::Range(in.size()),
              ferry::ro(in), ferry::rw(sum), ferry::rw(top));
    cc.fromDevice(sum);
    cc.fromDevice(top);
  });
  CHECK(sum[0] == expected);
  CHECK(top[0] == 994); // i * 7 % 1001 is a multiple of 7
  try {
    acc.compute([&](ferry::ComputeContext &cc) {
      cc.launch(addAllSource, "addAll", addAll, ferry::Range(64).local(16),
                ferry::ro(in), ferry::rw(sum), ferry::rw(top));
    });
    FAIL("a reduction launched in the dispatch's work-groups");
  } catch (const ferry::Error &e) {
    CHECK_THAT(std::string(e.what()),
               Catch::Contains("runs in work-groups Ferry chooses"));
  }
}
