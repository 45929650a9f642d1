// particles: a multi-file sample (issue 23). Particles fall and bounce in a
// unit box; the state is two buffers, positions and velocities, members of
// a class that owns them. Four Ferry sources make one target:
//   particles.h   the kernels (`inline`) and what the .cpp files share
//   solver.cpp    advance(): the time steps, dispatching both kernels
//   setup.cpp     seed(), kineticEnergy(), printCentre(): host code
//   particles.cpp class Particles (simulate(), FERRY_COMPUTE) and main
// Each file is planned with the others' summaries (docs/multi-file.md), so
// the target moves exactly what onefile/particles.cpp, the same program in
// one file, moves.
//
//   particles [PARTICLES] [FRAMES] [STEPS]
//
// Energies and positions are printed to a few digits only: the device may
// fuse a multiply and an add that the host rounds twice.
//
// Transfers, by hand, for the defaults: 1024 particles (a Vec2 is 8 B: each
// buffer is 8192 B), 4 frames of 10 steps:
//   seed() writes pos_ and vel_ on the host, which holds them: nothing.
//   frame 0: advance()'s first dispatch reads vel, stale on the device:
//            in (1); the second reads pos: in (2). Then nothing: both stay
//            on the device (advance() is internal: it leaves them there).
//   every frame: kineticEnergy() reads vel, written by the last step: out
//            (one per frame, 4); reading leaves the device copy valid, so
//            the next frame copies nothing in.
//   exit: the members come home: pos_ is stale on the host: out (5);
//            vel_ was read back after the last frame: nothing.
// In 2 (16384 B), out 5 (40960 B), 4 x 10 x 2 = 80 dispatches.
// ferry-test: to_device 2 to_device_bytes 16384 from_device 5 from_device_bytes 40960
// ferry-test: dispatches 80
#include "particles.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
