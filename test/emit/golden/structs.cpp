// Structs on the device with the host's layout: padding, nesting, arrays,
// alignment, bool and enum members, namespaces, templates; built, copied,
// returned and assigned.
#include <ferry/ferry.hpp>

#include <cstdint>

enum class Kind : std::uint8_t { Empty, Solid, Liquid };

struct Padded {
  char tag;      // 3 bytes of padding follow
  int count;
  short small;   // 6 bytes of padding follow
  std::int64_t big;
  bool flag;     // 7 bytes of tail padding
};

namespace geo {
struct Point {
  float x, y;
};
struct Box {
  Point lo, hi;
  Kind kind;
  int ids[3];
};
template <typename T, int N> struct Vec {
  T v[N];
};
} // namespace geo

struct alignas(16) Aligned {
  float a;
  int b;
};

static geo::Point mid(geo::Box b) {
  geo::Point p{(b.lo.x + b.hi.x) / 2, (b.lo.y + b.hi.y) / 2};
  return p;
}

static geo::Vec<float, 3> twice(geo::Vec<float, 3> v) {
  geo::Vec<float, 3> r = v;
  for (int i = 0; i < 3; ++i)
    r.v[i] *= 2;
  return r;
}

FERRY_KERNEL void centres(ferry::KernelContext kc, const geo::Box* boxes,
                          geo::Point* out, Padded* padded, Aligned* aligned,
                          geo::Vec<float, 3>* vecs) {
  int i = kc.x;
  geo::Box b = boxes[i];
  out[i] = mid(b);
  Padded p = padded[i];
  p.count += b.ids[0] + b.ids[1] + b.ids[2];
  p.flag = b.kind == Kind::Solid;
  p.big = p.big * 2 + p.tag + p.small;
  padded[i] = p;
  aligned[i].a += aligned[i].b;
  vecs[i] = twice(vecs[i]);
}
