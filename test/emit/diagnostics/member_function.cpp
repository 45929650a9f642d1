// A non-static member function, and a member operator.
#include <ferry/ferry.hpp>

struct Vec2 {
  float x, y;
  float dot(Vec2 o) const { return x * o.x + y * o.y; }
  Vec2 operator+(Vec2 o) const { return Vec2{x + o.x, y + o.y}; }
};

FERRY_KERNEL void k(ferry::KernelContext kc, const Vec2* in, float* out) {
  Vec2 v = in[kc.x];
  out[kc.x] = v.dot(v) + (v + v).x;
}

// CHECK: 12:15: error: Ferry cannot translate a call to the non-static member function 'Vec2::dot' to OpenCL C; make it a static member or a free function
// CHECK: 12:27: error: Ferry cannot translate a call to the non-static member function 'Vec2::operator+' to OpenCL C; make it a static member or a free function
