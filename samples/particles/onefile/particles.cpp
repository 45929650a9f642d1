// particles, the multi-file sample (../particles.cpp and its files), as one
// file: the multi-file target must move exactly what this moves. The working
// is in ../particles.cpp; the counts are the same.
//   particles [PARTICLES] [FRAMES] [STEPS]
//
// Energies and positions are printed to a few digits only: the device may
// fuse a multiply and an add that the host rounds twice.
//
// Transfers, by hand, for the defaults: 1024 particles (a Vec2 is 8 B: each
// buffer is 8192 B), 4 frames of 10 steps:
//   seed() writes pos and vel on the host, which holds them: nothing.
//   frame 0: advance()'s first dispatch reads vel, stale on the device:
//            in (1); the second reads pos: in (2). Then nothing: both stay
//            on the device (advance() is internal: it leaves them there).
//   every frame: kineticEnergy() reads vel, written by the last step: out
//            (one per frame, 4); reading leaves the device copy valid, so
//            the next frame copies nothing in.
//   exit: pos is stale on the host and main prints it: out (5). vel was
//            read back after the last frame: nothing.
// In 2 (16384 B), out 5 (40960 B), 4 x 10 x 2 = 80 dispatches.
// ferry-test: to_device 2 to_device_bytes 16384 from_device 5 from_device_bytes 40960
// ferry-test: dispatches 80
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Vec2 {
  float x, y;
};

// Gravity and drag: each particle's own velocity, read and written.
FERRY_KERNEL inline void accelerate(ferry::KernelContext kc, Vec2 *vel, int n,
                                    float dt, float gravity, float drag) {
  if (kc.x < n) {
    vel[kc.x].y -= gravity * dt;
    vel[kc.x].x *= 1.0f - drag * dt;
    vel[kc.x].y *= 1.0f - drag * dt;
  }
}

// Moves each particle and bounces it off the walls of the unit box.
FERRY_KERNEL inline void move(ferry::KernelContext kc, Vec2 *pos, Vec2 *vel,
                              int n, float dt) {
  if (kc.x < n) {
    Vec2 p = pos[kc.x], v = vel[kc.x];
    p.x += v.x * dt;
    p.y += v.y * dt;
    if (p.x < 0.0f) { p.x = -p.x; v.x = -v.x; }
    if (p.x > 1.0f) { p.x = 2.0f - p.x; v.x = -v.x; }
    if (p.y < 0.0f) { p.y = -p.y; v.y = -v.y; }
    if (p.y > 1.0f) { p.y = 2.0f - p.y; v.y = -v.y; }
    pos[kc.x] = p;
    vel[kc.x] = v;
  }
}

void advance(ferry::ComputeContext &cc, ferry::Buffer<Vec2> &pos,
             ferry::Buffer<Vec2> &vel, int steps, float dt) {
  const int n = static_cast<int>(pos.size());
  for (int step = 0; step < steps; ++step) {
    cc.dispatch(accelerate, ferry::Range(n), vel, n, dt, 9.81f, 0.1f);
    cc.dispatch(move, ferry::Range(n), pos, vel, n, dt);
  }
}

void seed(ferry::Buffer<Vec2> &pos, ferry::Buffer<Vec2> &vel, unsigned seed) {
  unsigned state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (std::size_t i = 0; i < pos.size(); ++i) {
    pos[i] = Vec2{next(), next()};
    vel[i] = Vec2{next() - 0.5f, next() - 0.5f};
  }
}

double kineticEnergy(const ferry::Buffer<Vec2> &vel) {
  double e = 0.0;
  for (std::size_t i = 0; i < vel.size(); ++i)
    e += 0.5 * (vel[i].x * vel[i].x + vel[i].y * vel[i].y);
  return e;
}

void printCentre(const char *label, const ferry::Buffer<Vec2> &pos) {
  double x = 0.0, y = 0.0;
  for (std::size_t i = 0; i < pos.size(); ++i) {
    x += pos[i].x;
    y += pos[i].y;
  }
  const double n = static_cast<double>(pos.size());
  std::printf("%s: centre %.4g %.4g\n", label, x / n, y / n);
}


// A particle system that owns its state. Its compute member function runs
// the frames; the helpers it calls live in solver.cpp and setup.cpp.
class Particles {
public:
  explicit Particles(int n) : pos_(n), vel_(n) {}

  FERRY_COMPUTE void simulate(ferry::ComputeContext &cc, int frames,
                              int steps) {
    seed(pos_, vel_, 7u);
    for (int frame = 0; frame < frames; ++frame) {
      advance(cc, pos_, vel_, steps, 0.01f);
      std::printf("frame %d: kinetic energy %.4g\n", frame,
                  kineticEnergy(vel_));
    }
  }

  void print() const { printCentre("final", pos_); }

private:
  ferry::Buffer<Vec2> pos_, vel_;
};

// The command line, checked: a size out of range would otherwise make an
// impossible buffer.
const char kUsage[] =
    "usage: particles [PARTICLES] [FRAMES] [STEPS]\n"
    "  PARTICLES  particles, 1 to 1048576 (default 1024)\n"
    "  FRAMES     frames, 0 to 100000 (default 4)\n"
    "  STEPS      time steps per frame, 0 to 100000 (default 10)\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr, "particles: %s must be a whole number from %d to %d, "
                         "not '%s'\n", name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 4) {
    std::fprintf(stderr, "particles: too many arguments\n");
    usage(1);
  }
  const int n = intArgument(argc, argv, 1, "PARTICLES", 1, 1 << 20, 1024);
  const int frames = intArgument(argc, argv, 2, "FRAMES", 0, 100000, 4);
  const int steps = intArgument(argc, argv, 3, "STEPS", 0, 100000, 10);
  Particles system(n);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    system.simulate(cc, frames, steps);
  });
  system.print();
}
