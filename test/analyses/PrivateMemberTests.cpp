// Private buffer members and what code outside computes may do to them
// (issue 33, items 4 and 5): only compute code names them (kept on the
// device, never copied home), or the class's code outside computes only
// reads them through const (kept on the device, copied home as usual), or
// anything else (neither).

#include "TestSupport.h"

#include "analyses/lifetime/ComputeOnlyMembers.h"

#include "clang/AST/DeclCXX.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {

const char *Classes = R"cpp(
#include <ferry/ferry.hpp>

FERRY_KERNEL void bump(ferry::KernelContext kc, float *x) { x[kc.x] += 1; }

struct Grid {
  ferry::Buffer<float> cur, next;
};

class Model {
public:
  Model() : state_(8), flux_(8), grid_{ferry::Buffer<float>(8), ferry::Buffer<float>(8)},
            counted_(8), handed_(8), sized_(8), passed_(8), peeked_(8),
            looped_(8), doubled_(8) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc) {
    cc.dispatch(bump, ferry::Range(8), state_);
    cc.dispatch(bump, ferry::Range(8), flux_);
    cc.dispatch(bump, ferry::Range(8), grid_.cur);
    cc.dispatch(bump, ferry::Range(8), counted_);
    cc.dispatch(bump, ferry::Range(8), handed_);
    cc.dispatch(bump, ferry::Range(8), sized_);
    cc.dispatch(bump, ferry::Range(8), passed_);
    cc.dispatch(bump, ferry::Range(8), peeked_);
    cc.dispatch(bump, ferry::Range(8), looped_);
    cc.dispatch(bump, ferry::Range(8), doubled_);
  }
  float first() const { return state_[0] + grid_.next[1]; }
  void reset() { counted_[0] = 0; }
  ferry::Buffer<float> &handed() { return handed_; }
  // Non-const methods, but each use only reads: a const method of the
  // buffer, a const reference.
  std::size_t size() { return sized_.size(); }
  float sum() { return total(passed_); }
  static float total(const ferry::Buffer<float> &b) { return b[0]; }
  // The non-const operator[] as a value, a range-for by value.
  float peek(int i) { return peeked_[i] * 2.0f; }
  float all() {
    float s = 0;
    for (float v : looped_)
      s += v;
    return s;
  }
  // A range-for by non-const reference may write.
  void twice() {
    for (float &v : doubled_)
      s_ += v;
  }
  float s_ = 0;

private:
  ferry::Buffer<float> state_;   // read by a const method
  ferry::Buffer<float> flux_;    // only compute code
  Grid grid_;                    // a struct of buffers, read by a const method
  ferry::Buffer<float> counted_; // written by a non-const method
  ferry::Buffer<float> handed_;  // handed out as non-const
  ferry::Buffer<float> sized_;   // non-const method, const use
  ferry::Buffer<float> passed_;  // non-const method, bound as const reference
  ferry::Buffer<float> peeked_;  // b[i] as a value
  ferry::Buffer<float> looped_;  // range-for by value
  ferry::Buffer<float> doubled_; // range-for by reference
};
)cpp";

const clang::FieldDecl *field(Source &S, const char *Name) {
  const clang::FunctionDecl *Step = S.function("Model::step");
  REQUIRE(Step);
  for (const clang::FieldDecl *F :
       llvm::cast<clang::CXXMethodDecl>(Step)->getParent()->fields())
    if (F->getName() == Name)
      return F;
  FAIL("no field " << Name);
  return nullptr;
}

PrivateMembers members(Source &S) {
  ProgramModel M = S.model();
  REQUIRE(S.errors().empty());
  std::set<const clang::FunctionDecl *> Planned(M.ComputeFunctions.begin(),
                                                M.ComputeFunctions.end());
  return computeOnlyMembers(S.context(), Planned);
}

} // namespace

TEST_CASE("private members: what code outside computes does to them",
          "[members]") {
  Source S(Classes);
  PrivateMembers P = members(S);
  auto readsOnly = [&](const char *Name) {
    return P.HostReadsOnly.count(field(S, Name)) != 0;
  };
  auto computeOnly = [&](const char *Name) {
    return P.ComputeOnly.count(field(S, Name)) != 0;
  };
  CHECK(computeOnly("flux_"));
  CHECK_FALSE(readsOnly("flux_"));
  CHECK(readsOnly("state_"));
  CHECK(readsOnly("grid_"));
  CHECK(readsOnly("sized_"));
  CHECK(readsOnly("passed_"));
  CHECK(readsOnly("peeked_"));
  CHECK(readsOnly("looped_"));
  for (const char *Written : {"counted_", "handed_", "doubled_"}) {
    CHECK_FALSE(readsOnly(Written));
    CHECK_FALSE(computeOnly(Written));
  }
  CHECK_FALSE(computeOnly("state_"));
}

TEST_CASE("private members: a cast of const anywhere makes no use a read",
          "[members]") {
  for (const char *Cast :
       {"void poke(const ferry::Buffer<float> &b) { "
        "const_cast<ferry::Buffer<float> &>(b)[0] = 1; }",
        "void poke(const float *p) { ((float *)p)[0] = 1; }"}) {
    Source S(std::string(Classes) + Cast + "\n");
    PrivateMembers P = members(S);
    CHECK(P.HostReadsOnly.empty());
    // Only compute code names `flux_`: no cast can reach it.
    CHECK(P.ComputeOnly.count(field(S, "flux_")));
  }
  // A cast that adds const is no such cast.
  Source S(std::string(Classes) +
           "const float *view(float *p) { return (const float *)p; }\n");
  CHECK(members(S).HostReadsOnly.count(field(S, "state_")));
}
