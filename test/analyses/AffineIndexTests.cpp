// Affine indices (issue 31): kernel subscripts as a constant, integer
// coefficients of the ids and terms the work-items share, read from the
// AST; and the questions the lints ask of two of them: do two different
// work-items of a group meet at one element, does one store map two
// work-items of a dispatch onto one element.

#include "TestSupport.h"

#include "analyses/kernel/AffineIndex.h"
#include "analyses/kernel/WorkItemVariance.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {

const char *Kernels = R"cpp(
#include <ferry/ferry.hpp>

FERRY_KERNEL void forms(ferry::KernelContext kc, float *v, int n, int w) {
  ferry::Local<float, 256> s;
  int lx = kc.localX;
  s[kc.localX] = v[kc.x];                       // 0
  v[kc.x] = s[63 - kc.localX];                  // 1
  s[2 * lx + 1] = 0;                            // 2
  s[kc.localSizeX - 1 - lx] = 0;                // 3
  s[(kc.localY << 4) + kc.localX] = 0;          // 4
  s[lx + n / 2] = 0;                            // 5
  s[kc.x % 64] = 0;                             // 6
  s[lx * lx] = 0;                               // 7
  for (int step = 1; step < 8; step *= 2)
    s[lx + step] = 0;                           // 8
  v[kc.groupX * kc.localSizeX + kc.localX] = 0; // 9
  v[kc.y * 16 + kc.x - w] = 0;                  // 10
  s[(int)v[kc.x]] = 0;                          // 11
}

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &v) {
  cc.dispatch(forms, ferry::Range(v.size()).local(64), v, 1, 2);
}
)cpp";

/// The index of every subscript of F (local arrays and buffers), in order.
std::vector<const clang::Expr *> subscripts(const clang::FunctionDecl *F) {
  struct Find : clang::RecursiveASTVisitor<Find> {
    std::vector<const clang::Expr *> Out;
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
      Out.push_back(E->getIdx());
      return true;
    }
    bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *E) {
      if (E->getOperator() == clang::OO_Subscript && E->getNumArgs() == 2)
        Out.push_back(E->getArg(1));
      return true;
    }
  } Finder;
  Finder.TraverseStmt(F->getBody());
  // Visited in source order; the statement `v[kc.x] = s[63 - lx]` visits
  // the assignment's left side first.
  std::stable_sort(Finder.Out.begin(), Finder.Out.end(),
                   [](const clang::Expr *A, const clang::Expr *B) {
                     return A->getBeginLoc() < B->getBeginLoc();
                   });
  return Finder.Out;
}

struct Forms {
  Source S{Kernels};
  const clang::FunctionDecl *F = S.function("forms");
  std::set<const clang::ParmVarDecl *> NoBuffers;
  WorkItemVariance V{F, CallContext(), NoBuffers};
  std::vector<const clang::Expr *> Index = subscripts(F);
  AffineIndex of(size_t I) { return affineIndex(Index.at(I), F, V); }
};

} // namespace

TEST_CASE("affine forms of kernel subscripts", "[affine]") {
  Forms T;
  // s[kc.localX], v[kc.x], v[kc.x], s[63 - kc.localX], s[2*lx+1], ...
  REQUIRE(T.Index.size() == 15);
  CHECK(affineText(T.of(0)) == "kc.localX");
  CHECK(affineText(T.of(1)) == "kc.x");
  CHECK(affineText(T.of(3)) == "-kc.localX + 63");
  AffineIndex Reverse = T.of(3);
  CHECK(Reverse.Affine);
  CHECK(Reverse.Ids[LocalX] == -1);
  CHECK(Reverse.Constant == 63);
  CHECK(affineText(T.of(4)) == "2*kc.localX + 1");
  CHECK(affineText(T.of(5)) == "-kc.localX + kc.localSizeX - 1");
  CHECK(affineText(T.of(6)) == "kc.localX + 16*kc.localY");
  // n / 2: a term every work-item shares, and stable (n never changes).
  AffineIndex Half = T.of(7);
  CHECK(Half.Affine);
  CHECK(Half.Uniform.size() == 1);
  CHECK(Half.Unstable.empty());
  CHECK(!T.of(8).Affine); // kc.x % 64
  CHECK(!T.of(9).Affine); // lx * lx
  // The loop counter is shared but changes: unstable.
  AffineIndex Step = T.of(10);
  CHECK(Step.Affine);
  CHECK(Step.Unstable.size() == 1);
  CHECK(affineText(Step) == "kc.localX + step'");
  // kc.groupX * kc.localSizeX: the same within a group, not a sum.
  AffineIndex Global = T.of(11);
  CHECK(Global.Affine);
  CHECK(Global.PerGroup.size() == 1);
  CHECK(affineText(T.of(12)) == "kc.x + 16*kc.y - w");
  CHECK(!T.of(13).Affine); // a loaded value, (int)v[kc.x]
  CHECK(affineText(T.of(14)) == "kc.x");
}

TEST_CASE("two work-items of a group meet at one element", "[affine]") {
  Forms T;
  AffineIndex Own = T.of(0), Reverse = T.of(3), Odd = T.of(4),
              Mirror = T.of(5), Tile = T.of(6), Step = T.of(10);
  GroupShape G64{64, 1, 1}, G32{32, 1, 1}, G16{16, 16, 1}, G2{2, 1, 1};
  // The reverse-in-group pattern: item 63 writes s[63], item 0 reads it.
  CHECK(distinctItemsMeet(Own, Reverse, G64));
  // For groups of 32, 63 - b is 32 or more: nobody wrote it.
  CHECK(!distinctItemsMeet(Own, Reverse, G32));
  // A work-item's own element is not another's.
  CHECK(!distinctItemsMeet(Own, Own, G64));
  // ... unless the group splits along a dimension the index ignores.
  CHECK(distinctItemsMeet(Own, Own, GroupShape{64, 2, 1}));
  // 2 * lx + 1 (odd elements) against lx: item 1 reads what item 0 wrote.
  CHECK(distinctItemsMeet(Odd, Own, G64));
  CHECK(distinctItemsMeet(Odd, Own, G2));
  CHECK(distinctItemsMeet(Own, Odd, G2));
  // kc.localSizeX - 1 - lx: the mirror, at any size of two or more.
  CHECK(distinctItemsMeet(Own, Mirror, G2));
  CHECK(distinctItemsMeet(Own, Mirror, G64));
  // The 2-D tile is a bijection of 16 x 16 items: only its own.
  CHECK(!distinctItemsMeet(Tile, Tile, G16));
  CHECK(distinctItemsMeet(Tile, Own, G16));
  // Terms that do not cancel, or that change: not sure.
  CHECK(!distinctItemsMeet(Own, T.of(7), G64));
  CHECK(!distinctItemsMeet(Step, Step, G64));
  CHECK(!distinctItemsMeet(Own, T.of(8), G64));
}

TEST_CASE("one store maps two work-items of a dispatch onto one element",
          "[affine]") {
  Forms T;
  AffineIndex X = T.of(1), Grid = T.of(12);
  CHECK(!distinctItemsCollide(X, GroupShape{1024, 1, 1}));
  CHECK(distinctItemsCollide(X, GroupShape{64, 2, 1}));
  // kc.y * 16 + kc.x: a bijection for 16 columns, not for 17.
  CHECK(!distinctItemsCollide(Grid, GroupShape{16, 8, 1}));
  CHECK(distinctItemsCollide(Grid, GroupShape{17, 8, 1}));
  CHECK(!distinctItemsCollide(Grid, GroupShape{17, 1, 1}));
  // Local ids: not this question.
  CHECK(!distinctItemsCollide(T.of(0), GroupShape{64, 2, 1}));
}
