// Issue 33 (found by a review of the cross-file planning): a local struct
// of buffers (`Grid g`, and `Model m`, which holds a Grid) passed to a
// compute function of another Ferry source, and a member path of a
// parameter (`m.grid`) passed on to one. Within one file the callee leaves
// the buffers on the device for its planned caller; across files the
// caller's summary marked such a call `exact: false` (as if the caller
// could not name the buffers), so the callee brought them home at every
// return: 25,600 B out against the one-file form's 9,244. The inline
// header helper `relaxTwice` was planned differently in the two files for
// the same cause (the copies of grid.h differed). Now a local struct or a
// path of public members naming every buffer it reaches is exact, and both
// forms make the same copies; grid.h's two copies are the same text.
//
// By hand (each buffer 256 floats, 1024 B; cur and next start 0, aux 1):
//   compute 1 (4 x relax(g), reading g.cur[0] after each): the first relax
//     fills cur and next (2 fills); each read brings element 0 home (4 x
//     4 B); the exit brings home the rest of cur (1020 B) and all of next.
//     In 2 (2048), out 6 (2060); 8 dispatches.
//   compute 2 (3 x advance(m), writing m.aux[2] after each): the first
//     advance fills the grid's cur, next and aux (3 fills); each write
//     brings element 2 home first (3 x 4 B), and the next two advances copy
//     it in again (2 x 4 B); the exit brings home cur, next, and aux but
//     element 2, in two pieces (1020 B). In 5 (3080), out 7 (3080); 9
//     dispatches.
//   compute 3 (relaxTwice(g), settle(m)): main wrote nothing since, so all
//     five buffers stay on the device; each relaxTwice's host write brings
//     element 5 home (4 B) and its second relax copies it in (4 B); the
//     exit brings home g's and m.grid's cur and next (4 x 1024); m.aux is
//     the host's already. In 2 (8), out 6 (4104); 8 dispatches.
// In 9 (5136 B), 5 of them fills (5120 B); out 19 (9244 B); dispatches 25.
// ferry-test: golden
// ferry-test: to_device 9 to_device_bytes 5136 fills 5 fill_bytes 5120
// ferry-test: from_device 19 from_device_bytes 9244
// ferry-test: dispatches 25
#include "grid.h"

#include <cstdio>

static double sum(const ferry::Buffer<float> &b) {
  double s = 0;
  for (float x : b)
    s += x;
  return s;
}

int main() {
  Grid g(256);
  Model m(256);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 4; ++i) {
      relax(cc, g);
      std::printf("cur[0] %.1f\n", g.cur[0]);
    }
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int i = 0; i < 3; ++i) {
      advance(cc, m);
      m.aux[2] += 100.0f;
    }
  });
  acc.compute([&](ferry::ComputeContext &cc) {
    relaxTwice(cc, g);
    settle(cc, m);
  });
  std::printf("g %.1f %.1f\n", sum(g.cur), sum(g.next));
  std::printf("m %.1f %.1f %.1f\n", sum(m.grid.cur), sum(m.grid.next), sum(m.aux));
}
