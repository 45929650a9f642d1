#include "../golden/structs.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<geo::Box> &boxes,
                       ferry::Buffer<geo::Point> &out,
                       ferry::Buffer<Padded> &padded,
                       ferry::Buffer<Aligned> &aligned,
                       ferry::Buffer<geo::Vec<float, 3>> &vecs, int n) {
  cc.dispatch(centres, ferry::Range(n), boxes, out, padded, aligned, vecs);
}

int main() {
  const int n = 200;
  ferry::Buffer<geo::Box> boxes(n);
  for (geo::Box &b : boxes) {
    b.lo = {check::uniform(-5.0f, 0.0f), check::uniform(-5.0f, 0.0f)};
    b.hi = {check::uniform(0.0f, 5.0f), check::uniform(0.0f, 5.0f)};
    b.kind = static_cast<Kind>(check::uniform(0, 2));
    for (int &id : b.ids)
      id = check::uniform(-100, 100);
  }
  ferry::Buffer<geo::Point> out(n);
  ferry::Buffer<Padded> padded(n);
  for (Padded &p : padded) {
    p.tag = static_cast<char>(check::uniform(-100, 100));
    p.count = check::uniform(-1000, 1000);
    p.small = static_cast<short>(check::uniform(-3000, 3000));
    p.big = check::uniform<long long>(-1000000000000LL, 1000000000000LL);
    p.flag = check::uniform(0, 1);
  }
  ferry::Buffer<Aligned> aligned(n);
  for (Aligned &a : aligned)
    a = {check::uniform(-1.0f, 1.0f), check::uniform(-9, 9)};
  ferry::Buffer<geo::Vec<float, 3>> vecs(n);
  for (auto &v : vecs)
    for (float &x : v.v)
      x = check::uniform(-3.0f, 3.0f);
  std::vector<geo::Box> rboxes = check::copy(boxes);
  std::vector<geo::Point> rout(n);
  std::vector<Padded> rpadded = check::copy(padded);
  std::vector<Aligned> raligned = check::copy(aligned);
  std::vector<geo::Vec<float, 3>> rvecs = check::copy(vecs);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, boxes, out, padded, aligned, vecs, n);
  });
  check::host(centres, n, 1, 1, rboxes.data(), rout.data(), rpadded.data(),
              raligned.data(), rvecs.data());
  check::member("out.x", out, rout, &geo::Point::x);
  check::member("out.y", out, rout, &geo::Point::y);
  check::member("padded.tag", padded, rpadded, &Padded::tag);
  check::member("padded.count", padded, rpadded, &Padded::count);
  check::member("padded.small", padded, rpadded, &Padded::small);
  check::member("padded.big", padded, rpadded, &Padded::big);
  check::member("padded.flag", padded, rpadded, &Padded::flag);
  check::member("aligned.a", aligned, raligned, &Aligned::a);
  check::member("aligned.b", aligned, raligned, &Aligned::b);
  for (int k = 0; k < 3; ++k) {
    ferry::Buffer<float> d(n);
    std::vector<float> r(n);
    for (int i = 0; i < n; ++i) {
      d[i] = vecs[i].v[k];
      r[i] = rvecs[i].v[k];
    }
    check::values("vecs", d, r);
  }
  return check::report("structs");
}
