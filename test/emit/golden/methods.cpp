// Member functions and member operators: a const one takes its object by
// value, the others through a pointer into wherever the object lives (one
// version per address space, as for any pointer parameter).
#include <ferry/ferry.hpp>

#include <cmath>

struct Vec2 {
  float x, y;
  float dot(Vec2 o) const { return x * o.x + y * o.y; }
  float length2() const { return dot(*this); }
  Vec2 operator+(Vec2 o) const { return Vec2{x + o.x, y + o.y}; }
  void scale(float s) {
    x *= s;
    y *= s;
  }
  void normalise() {
    float l = std::sqrt(length2());
    if (l > 0)
      scale(1 / l);
  }
};

struct Body {
  Vec2 p, v;
  void advance(float dt) { p = p + Vec2{v.x * dt, v.y * dt}; }
};

FERRY_KERNEL void move(ferry::KernelContext kc, Body* bodies, float* lens,
                       float dt) {
  Body& b = bodies[kc.x];
  b.advance(dt);
  Vec2 local = b.v;
  local.normalise();
  bodies[kc.x].v.scale(0.5f);
  Body* again = &bodies[kc.x];
  again->advance(dt);
  lens[kc.x] = local.length2() + (b.p + local).dot(local);
}
