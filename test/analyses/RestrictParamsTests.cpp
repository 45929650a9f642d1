// `restrict` on kernel parameters (issue 31): a buffer parameter is
// `restrict` only where every dispatch binds every other buffer parameter
// of its element type to a different buffer.

#include "TestSupport.h"

#include "analyses/kernel/KernelDispatches.h"
#include "analyses/kernel/RestrictParams.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {

const char *Kernels = R"cpp(
#include <ferry/ferry.hpp>

FERRY_KERNEL void copy(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x];
}
FERRY_KERNEL void copySame(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] + 1.0f;
}
FERRY_KERNEL void copyRefs(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x] * 2.0f;
}
FERRY_KERNEL void toInt(ferry::KernelContext kc, const float *in, int *out,
                        int scale) {
  out[kc.x] = (int)in[kc.x] * scale;
}
FERRY_KERNEL void lonely(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x];
}
FERRY_KERNEL void one(ferry::KernelContext kc, float *data) { data[kc.x] += 1; }

struct Grid {
  ferry::Buffer<float> cur, next;
};

FERRY_COMPUTE void step(ferry::ComputeContext &cc, Grid &g,
                        ferry::Buffer<float> &a, ferry::Buffer<float> &b) {
  ferry::Buffer<float> tmp(64);
  cc.dispatch(copy, ferry::Range(64), g.cur, g.next); // two members
  cc.dispatch(copy, ferry::Range(64), a, tmp);        // made here
  cc.dispatch(copySame, ferry::Range(64), tmp, tmp);  // one buffer twice
  cc.dispatch(copyRefs, ferry::Range(64), a, b);      // may be one
  cc.dispatch(one, ferry::Range(64), a);
}
)cpp";

} // namespace

TEST_CASE("restrict: only where every dispatch passes different buffers",
          "[restrict]") {
  Source S(Kernels);
  ProgramModel M = S.model();
  REQUIRE(S.errors().empty());
  RestrictParams R =
      analyzeRestrictParams(M.Kernels, KernelDispatches(S.context()));
  auto restricted = [&](const char *Kernel, unsigned Index) {
    const clang::FunctionDecl *K = S.function(Kernel);
    REQUIRE(K);
    return R.isRestrict(K, Index);
  };
  // Parameter 0 is the KernelContext.
  CHECK(restricted("copy", 1));
  CHECK(restricted("copy", 2));
  CHECK_FALSE(restricted("copySame", 1));
  CHECK_FALSE(restricted("copySame", 2));
  CHECK_FALSE(restricted("copyRefs", 1));
  CHECK_FALSE(restricted("copyRefs", 2));
  // Two element types are two buffers, dispatched or not; a scalar never.
  CHECK(restricted("toInt", 1));
  CHECK(restricted("toInt", 2));
  CHECK_FALSE(restricted("toInt", 3));
  // No dispatch in the file shows what `lonely` is given.
  CHECK_FALSE(restricted("lonely", 1));
  CHECK_FALSE(restricted("lonely", 2));
  CHECK(restricted("one", 1));
}

TEST_CASE("restrict: reference parameters of a function only this file calls",
          "[restrict]") {
  Source S(R"cpp(
#include <ferry/ferry.hpp>
FERRY_KERNEL void add(ferry::KernelContext kc, const float *a, float *b) {
  b[kc.x] += a[kc.x];
}
FERRY_KERNEL void addOpen(ferry::KernelContext kc, const float *a, float *b) {
  b[kc.x] += a[kc.x];
}
FERRY_KERNEL void addTwice(ferry::KernelContext kc, const float *a, float *b) {
  b[kc.x] += a[kc.x];
}
// Internal linkage, and every call (through a second helper too) passes two
// different buffers.
static void inner(ferry::ComputeContext &cc, ferry::Buffer<float> &x,
                  ferry::Buffer<float> &y) {
  cc.dispatch(add, ferry::Range(64), x, y);
}
static void outer(ferry::ComputeContext &cc, ferry::Buffer<float> &x,
                  ferry::Buffer<float> &y) {
  inner(cc, x, y);
}
// Another file may call this one with one buffer twice.
void open(ferry::ComputeContext &cc, ferry::Buffer<float> &x,
          ferry::Buffer<float> &y) {
  cc.dispatch(addOpen, ferry::Range(64), x, y);
}
// One of its calls passes one buffer twice.
static void twice(ferry::ComputeContext &cc, ferry::Buffer<float> &x,
                  ferry::Buffer<float> &y) {
  cc.dispatch(addTwice, ferry::Range(64), x, y);
}
FERRY_COMPUTE void run(ferry::ComputeContext &cc) {
  ferry::Buffer<float> a(64), b(64);
  outer(cc, a, b);
  inner(cc, b, a);
  open(cc, a, b);
  twice(cc, a, b);
  twice(cc, a, a);
}
)cpp");
  ProgramModel M = S.model();
  REQUIRE(S.errors().empty());
  RestrictParams R =
      analyzeRestrictParams(M.Kernels, KernelDispatches(S.context()));
  CHECK(R.isRestrict(S.function("add"), 1));
  CHECK(R.isRestrict(S.function("add"), 2));
  CHECK_FALSE(R.isRestrict(S.function("addOpen"), 1));
  CHECK_FALSE(R.isRestrict(S.function("addTwice"), 1));
  CHECK_FALSE(R.isRestrict(S.function("addTwice"), 2));
}
