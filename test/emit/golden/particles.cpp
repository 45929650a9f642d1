// A struct-of-particles update: gravity, drag and a floor bounce.
#include <ferry/ferry.hpp>

#include <cmath>

struct Vec3 {
  float x, y, z;
};

struct Particle {
  Vec3 position;
  Vec3 velocity;
  float mass;
  bool alive;
};

struct Params {
  float dt;
  float drag;
  Vec3 gravity;
};

namespace physics {
inline Vec3 add(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 scale(Vec3 v, float s) { return Vec3{v.x * s, v.y * s, v.z * s}; }
inline float length(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
} // namespace physics

FERRY_KERNEL void advance(ferry::KernelContext kc, Particle* particles,
                          Params p, int count) {
  int i = kc.x;
  if (i >= count || !particles[i].alive)
    return;
  Particle& q = particles[i];
  float speed = physics::length(q.velocity);
  Vec3 drag = physics::scale(q.velocity, -p.drag * speed / q.mass);
  Vec3 accel = physics::add(p.gravity, drag);
  q.velocity = physics::add(q.velocity, physics::scale(accel, p.dt));
  q.position = physics::add(q.position, physics::scale(q.velocity, p.dt));
  if (q.position.y < 0.0f) {
    q.position.y = -q.position.y;
    q.velocity.y = -q.velocity.y * 0.5f;
  }
  if (std::fabs(q.velocity.y) < 1e-3f && q.position.y < 1e-3f)
    q.alive = false;
}
