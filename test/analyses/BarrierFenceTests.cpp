// Barrier fences (issue 31): a kernel's kc.barrier() leaves out the global
// fence only where no buffer can be written by one work-item and read by
// another across it, and keeps it in every case the analysis cannot
// classify.

#include "TestSupport.h"

#include "analyses/kernel/BarrierFences.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {

const char *Kernels = R"cpp(
#include <ferry/ferry.hpp>

// The reduction tree: `in` read, `out` written, the tree in local memory.
FERRY_KERNEL void tree(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 64> s;
  s[kc.localX] = in[kc.x];
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      s[kc.localX] += s[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    out[kc.groupX] = s[0];
}

// One buffer written and then read by other work-items.
FERRY_KERNEL void shiftInPlace(ferry::KernelContext kc, float *data) {
  ferry::Local<float, 64> s;
  s[kc.localX] = data[kc.x];
  data[kc.x] = 0.0f;
  kc.barrier();
  data[kc.x] += s[(kc.localX + 1) % kc.localSizeX];
}

// An atomic on a buffer reads and writes it.
FERRY_KERNEL void histogram(ferry::KernelContext kc, const int *in, int *bins) {
  ferry::Local<int, 16> local;
  if (kc.localX < 16)
    local[kc.localX] = 0;
  kc.barrier();
  ferry::atomicAdd(&local[in[kc.x] % 16], 1);
  kc.barrier();
  if (kc.localX < 16)
    ferry::atomicAdd(&bins[kc.localX], local[kc.localX]);
}

// No local memory: both fences stay.
FERRY_KERNEL void noLocal(ferry::KernelContext kc, const float *in, float *out) {
  float v = in[kc.x];
  kc.barrier();
  out[kc.x] = v;
}

// Written and read by helpers, which the kernel's summary includes.
void put(float *p, int i, float v) { p[i] = v; }
float get(const float *p, int i) { return p[i]; }
FERRY_KERNEL void throughHelpers(ferry::KernelContext kc, float *data) {
  ferry::Local<float, 64> s;
  put(data, kc.x, 1.0f);
  kc.barrier();
  s[kc.localX] = get(data, kc.x ^ 1);
}

// A helper with a barrier, shared by a kernel that needs the global fence
// and one that does not.
void sync(ferry::KernelContext kc) { kc.barrier(); }
FERRY_KERNEL void sharedA(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 64> s;
  s[kc.localX] = in[kc.x];
  sync(kc);
  out[kc.x] = s[kc.localSizeX - 1 - kc.localX];
}
FERRY_KERNEL void sharedB(ferry::KernelContext kc, float *data) {
  ferry::Local<float, 64> s;
  s[kc.localX] = data[kc.x];
  data[kc.x] = 1.0f;
  sync(kc);
  data[kc.x] += s[0] + data[kc.x ^ 1];
}

// Buffers of different element types are never one buffer.
FERRY_KERNEL void toInt(ferry::KernelContext kc, const float *in, int *out) {
  ferry::Local<float, 64> s;
  s[kc.localX] = in[kc.x];
  kc.barrier();
  out[kc.x] = (int)s[kc.localSizeX - 1 - kc.localX];
}

// An explicit global fence.
FERRY_KERNEL void explicitFence(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 64> s;
  s[kc.localX] = in[kc.x];
  kc.barrier(ferry::globalFence);
  out[kc.x] = s[0];
}

struct Pair {
  ferry::Buffer<float> a, b;
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(tree, ferry::Range(64).local(64), a, b);
  }
};

// `in` and `out` of different buffers at every dispatch: locals of one
// function, a local beside a reference parameter, members of one object.
FERRY_COMPUTE void distinctBuffers(ferry::ComputeContext &cc,
                                   ferry::Buffer<float> &data) {
  ferry::Buffer<float> partial(1), other(64);
  cc.dispatch(tree, ferry::Range(64).local(64), data, partial);
  cc.dispatch(tree, ferry::Range(64).local(64), other, partial);
  cc.dispatch(sharedA, ferry::Range(64).local(64), data, partial);
  cc.dispatch(explicitFence, ferry::Range(64).local(64), data, partial);
}

// Two reference parameters of one element type may be one buffer.
FERRY_KERNEL void tree2(ferry::KernelContext kc, const float *in, float *out) {
  tree(kc, in, out);
}
FERRY_COMPUTE void maybeSame(ferry::ComputeContext &cc,
                             ferry::Buffer<float> &a, ferry::Buffer<float> &b) {
  cc.dispatch(tree2, ferry::Range(64).local(64), a, b);
}
)cpp";

const KernelFence &fence(const BarrierFences &F, Source &S,
                         const std::string &Name) {
  const clang::FunctionDecl *K = S.function(Name);
  REQUIRE(K);
  auto It = F.Kernels.find(K);
  REQUIRE(It != F.Kernels.end());
  return It->second;
}

} // namespace

TEST_CASE("barrier fences: local only where no buffer crosses", "[fences]") {
  Source S(Kernels);
  ProgramModel M = S.model();
  BarrierFences F = analyzeBarrierFences(S.context(), M.Kernels);
  REQUIRE(S.errors().empty());

  CHECK_FALSE(fence(F, S, "tree").Global);
  CHECK(fence(F, S, "tree").Why == "no buffer is both written and read");

  CHECK(fence(F, S, "shiftInPlace").Global);
  CHECK(fence(F, S, "shiftInPlace").Why == "'data' is read and written");

  CHECK(fence(F, S, "histogram").Global);
  CHECK(fence(F, S, "histogram").Why == "'bins' is read and written");

  CHECK(fence(F, S, "noLocal").Global);
  CHECK(fence(F, S, "noLocal").Why == "no local memory");

  CHECK(fence(F, S, "throughHelpers").Global);

  // Different element types need no dispatch to tell them apart.
  CHECK_FALSE(fence(F, S, "toInt").Global);

  // The analysis does not look at the tag: the emitter prints both fences
  // for kc.barrier(ferry::globalFence) whatever it says.
  CHECK_FALSE(fence(F, S, "explicitFence").Global);
}

TEST_CASE("barrier fences: a helper keeps the fence any caller needs",
          "[fences]") {
  Source S(Kernels);
  BarrierFences F = analyzeBarrierFences(S.context(), S.model().Kernels);
  CHECK_FALSE(fence(F, S, "sharedA").Global);
  CHECK(fence(F, S, "sharedB").Global);
  CHECK_FALSE(F.globalFenceIn(S.function("sharedA")));
  CHECK(F.globalFenceIn(S.function("sync")));
  // A function the analysis never saw keeps both.
  CHECK(F.globalFenceIn(S.function("distinctBuffers")));
}

TEST_CASE("barrier fences: parameters of one element type may be one buffer",
          "[fences]") {
  Source S(Kernels);
  BarrierFences F = analyzeBarrierFences(S.context(), S.model().Kernels);
  const KernelFence &T2 = fence(F, S, "tree2");
  CHECK(T2.Global);
  CHECK(T2.Why == "'out' and 'in' may be one buffer at a dispatch");
  // The tree's own dispatches (locals, a local beside a reference
  // parameter, two members of one object) all pass different buffers; but
  // tree2 calls tree, so tree's body is printed with the global fence too.
  CHECK_FALSE(fence(F, S, "tree").Global);
  CHECK(F.globalFenceIn(S.function("tree")));
}

TEST_CASE("barrier fences: a kernel no dispatch shows keeps the fence",
          "[fences]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
FERRY_KERNEL void lonely(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 64> s;
  s[kc.localX] = in[kc.x];
  kc.barrier();
  out[kc.x] = s[0];
}
)cpp");
  BarrierFences F = analyzeBarrierFences(S.context(), S.model().Kernels);
  CHECK(fence(F, S, "lonely").Global);
  CHECK(fence(F, S, "lonely").Why ==
        "'out' and 'in' may be one buffer (no dispatch in this file shows "
        "them)");
}

TEST_CASE("barrier fences: unclassified constructs keep the fence",
          "[fences]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
FERRY_KERNEL void pointers(ferry::KernelContext kc, const float *in, float *out) {
  ferry::Local<float, 64> s;
  const float *both[2] = {in, out};
  s[kc.localX] = both[kc.x % 2][kc.x];
  kc.barrier();
  out[kc.x] = s[0];
}
FERRY_COMPUTE void run(ferry::ComputeContext &cc) {
  ferry::Buffer<float> a(64), b(64);
  cc.dispatch(pointers, ferry::Range(64).local(64), a, b);
}
)cpp");
  BarrierFences F = analyzeBarrierFences(S.context(), S.model().Kernels);
  CHECK(fence(F, S, "pointers").Global);
  CHECK(fence(F, S, "pointers").Why ==
        "the variable 'both', which holds pointers in 'pointers'");
}
