// Issue 31's contract extensions, together: cc.finish() waits for the
// device so that a program can time its kernels; acc.device() and
// cc.device() say what the device offers, so that the launch shape is
// chosen by the program; kc.barrier() fences local memory alone where no
// buffer crosses it (a reduction tree: `in` only read, `partial` only
// written, the tree in local memory; the .cl golden shows
// `barrier(CLK_LOCAL_MEM_FENCE)`), and kc.barrier(ferry::globalFence)
// fences buffers too, here where one is written by one work-item and read
// by another across the barrier (`rotate`). What the program prints does
// not depend on the device: whether each limit is sensible, not its value.
//
// By hand (n = 1024 ints = 4096 B, groups of 64 = 16 partial sums of 64 B,
// `ring` 64 ints = 256 B, 2 dispatches):
//   `data` is written by the host and read by `groupSums`: one copy in,
//   4096 B; its device copy is never newer, so it never comes home.
//   `partial`, made in `run`, is only written by `groupSums`, one element
//   per group, an index (kc.groupX) no analysis of coverage follows: so it
//   is copied in first, and since the host never wrote it, as a fill of its
//   initial value, 64 B; the host copies it into `sums`, one copy out,
//   64 B.
//   `ring` is made by `Buffer<int> ring(64)` and then written by the host
//   (`ring[i] = i`), read and written by `rotate` (each item writes its
//   element, then reads its neighbour's): one copy in, 256 B, and one copy
//   out, 256 B, for the host's print.
//   cc.finish() and the device queries move nothing.
// ferry-test: golden
// ferry-test: to_device 3 to_device_bytes 4416 fills 1 fill_bytes 64
// ferry-test: from_device 2 from_device_bytes 320 dispatches 2
#include <ferry/ferry.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

constexpr int kGroup = 64;

FERRY_KERNEL void groupSums(ferry::KernelContext kc, const int *in,
                            int *partial) {
  ferry::Local<int, kGroup> tree;
  tree[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      tree[kc.localX] += tree[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    partial[kc.groupX] = tree[0];
}

// Each work-item takes its right neighbour's element (in its group): the
// buffer itself crosses the barrier, so the barrier must fence it; the
// local copy crosses the second barrier only to keep the tree's shape.
FERRY_KERNEL void rotate(ferry::KernelContext kc, int *ring) {
  ferry::Local<int, kGroup> seen;
  const int mine = ring[kc.x] * 10;
  ring[kc.x] = mine;
  kc.barrier(ferry::globalFence);
  const int next = kc.groupX * kc.localSizeX +
                   (kc.localX + 1) % kc.localSizeX;
  seen[kc.localX] = ring[next];
  kc.barrier(ferry::globalFence);
  ring[kc.x] = seen[kc.localX] + 1;
}

// `partial` is made here, after `data` was bound: Ferry sees they are two
// buffers, so nothing written by one work-item of groupSums is read by
// another, and its barriers fence local memory alone.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<int> &data,
                       ferry::Buffer<int> &ring, std::vector<int> &sums,
                       double &seconds) {
  // The launch shape from the device: groups no larger than it allows.
  const int group = cc.device().maxWorkGroupSize >= kGroup ? kGroup : 1;
  ferry::Buffer<int> partial(data.size() / kGroup);
  const auto t0 = std::chrono::steady_clock::now();
  cc.dispatch(groupSums, ferry::Range(data.size()).local(group), data,
              partial);
  cc.finish(); // the kernel has run when finish returns
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                          t0)
                .count();
  sums.assign(partial.begin(), partial.end());
  cc.dispatch(rotate, ferry::Range(ring.size()).local(group), ring);
  cc.finish();
}

int main() {
  const int n = 1024;
  ferry::Buffer<int> data(n), ring(kGroup);
  for (int i = 0; i < n; ++i)
    data[i] = i % 7;
  for (int i = 0; i < kGroup; ++i)
    ring[i] = i;
  ferry::Accelerator acc;
  const ferry::Device device = acc.device();
  std::printf("device named: %s\n", device.name.empty() ? "no" : "yes");
  std::printf("compute units > 0: %s\n", device.computeUnits > 0 ? "yes" : "no");
  std::printf("work-group of %d fits: %s\n", kGroup,
              device.maxWorkGroupSize >= kGroup ? "yes" : "no");
  std::printf("local memory for the tree: %s\n",
              device.localMemoryBytes >= kGroup * sizeof(int) ? "yes" : "no");
  std::printf("global memory for the data: %s\n",
              device.globalMemoryBytes == 0 ||
                      device.globalMemoryBytes >= n * sizeof(int)
                  ? "yes"
                  : "no");
  double seconds = -1;
  std::vector<int> sums;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, data, ring, sums, seconds);
  });
  std::printf("timed: %s\n", seconds >= 0 ? "yes" : "no");
  long total = 0;
  for (int sum : sums) {
    std::printf("%d ", sum);
    total += sum;
  }
  std::printf("\ntotal %ld\n", total);
  for (int i = 0; i < kGroup; ++i)
    std::printf("%d ", ring[i]);
  std::printf("\n");
  return 0;
}
