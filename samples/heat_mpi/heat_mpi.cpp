// heat_mpi: 2-D Jacobi heat diffusion on a plate split by rows over MPI
// ranks. The plate's top edge is held hot and its bottom edge cool; its side
// columns keep their temperature. Each rank holds its own rows plus a halo
// row above and below in a ferry::Buffer<float> (two of them, swapped by
// pointer after each sweep), sweeps its rows on its own device, and before
// each sweep trades edge rows with its neighbours through MPI_Sendrecv, in
// compute code, through a pointer kept from data(). The first rank's upper
// halo row is the hot edge, the last rank's lower one the cool edge: nobody
// sends them, so they never change.
//
//   mpirun -np RANKS heat_mpi [WIDTH] [ROWS] [SWEEPS]
//   (each rank on its own device: FERRY_DEVICE=gpu:local-rank)
//
// Rank 0 prints each rank's sum over its rows and one check line.
//
// Transfers, by hand, per rank, for `mpirun -np 2` at the default size: a
// 64-wide plate of 32 rows, 100 sweeps. Each rank owns R = 16 rows, so a
// grid is R + 2 = 18 rows of 64 floats: a row B = 256 B, a grid G = 4608 B.
// Rank 0 exchanges only downwards (its row R for rank 1's row 1, into its
// row R + 1), rank 1 only upwards (its row 1 for rank 0's row R, into its
// row 0); the two are mirror images, so both move the same:
//   sweep 1: the exchange sends a row of `a`, which the host holds (nothing
//            moves), and receives the halo row; the kernel reads all of `a`
//            (R + 2 rows): in, the whole grid (1 transfer, G). It writes
//            rows 1..R of `b` whole and nothing else of it: no copy in.
//   sweep 2: the exchange sends the edge row of `b`, which the kernel wrote:
//            out, that row (1, B); receives into the halo row. The kernel
//            reads all of `b`: its received halo row and its fixed edge row
//            (written by main, never on the device yet) are stale there: in,
//            those two rows (2 transfers, 2 B).
//   sweeps 3..100: the edge row out (1, B), the received halo row in (1, B);
//            the fixed edge row of `a` is on the device since sweep 1.
//   exit:    the grid written by sweep 100 (`a`) has rows 1..R newer on the
//            device, none read back: out (1, R x B = 4096 B); the grid
//            written by sweep 99 (`b`) has rows 1..R newer there but its edge
//            row, read back at sweep 100: out ((R - 1) x B = 3840 B). Both
//            halo rows of each are the host's.
// Per rank: in 1 + 2 + 98 = 101 transfers, G + 100 B = 4608 + 25600 = 30208
// B; out 99 + 2 = 101 transfers, 99 B + 4096 + 3840 = 33280 B; 100
// dispatches. All but the first copy in move part of a grid: partial in 100
// (25600 B), partial out 101 (33280 B). In steady state a rank moves 512 B a
// sweep: its edge row out, its neighbour's into its halo row in.
//
// Whole-buffer transfers, for comparison (the best plan that moves only
// whole grids): sweep 1 copies in `a`, and `b` too (its halo rows must be
// valid on the device before a kernel writes only its other rows); every
// later sweep copies out the whole grid that holds the row to send (G) and
// copies it in again after the receive (G); at exit the last grid comes
// out (the other came out at the last exchange). In 101 (101 G = 465408 B), out 100 (100 G = 460800 B): 9216 B a
// sweep against 512 B, 18 times more; 14.6 times more in all.
//
// The Jacobi update only adds and scales by 0.25, so the host and the device
// compute the same bits, and every rank prints the same as the reference
// execution (the same program, unrewritten, under mpirun).
//
// ferry-test-mpi: ranks 2
// ferry-test-mpi: rank 0 to_device 101 to_device_bytes 30208 from_device 101 from_device_bytes 33280
// ferry-test-mpi: rank 0 dispatches 100 fills 0 partial_to_device 100 partial_to_device_bytes 25600
// ferry-test-mpi: rank 0 partial_from_device 101 partial_from_device_bytes 33280
// ferry-test-mpi: rank 1 to_device 101 to_device_bytes 30208 from_device 101 from_device_bytes 33280
// ferry-test-mpi: rank 1 dispatches 100 fills 0 partial_to_device 100 partial_to_device_bytes 25600
// ferry-test-mpi: rank 1 partial_from_device 101 partial_from_device_bytes 33280
#include <ferry/ferry.hpp>
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

constexpr float kHot = 100.0f; // the plate's top edge
constexpr float kCool = 20.0f; // its bottom edge
constexpr int kTagUp = 1;      // a row on its way to the rank above
constexpr int kTagDown = 2;    // a row on its way to the rank below

// One sweep over this rank's rows: row kc.y + 1 of `next` from rows kc.y to
// kc.y + 2 of `grid`. The side columns keep their temperature. The halo rows
// (0 and kc.maxY + 1) are not written: the exchange fills them.
FERRY_KERNEL void sweep(ferry::KernelContext kc, const float *grid, float *next) {
  const int w = kc.maxX;
  const int i = (kc.y + 1) * w + kc.x;
  float t = grid[i];
  if (kc.x > 0 && kc.x < w - 1)
    t = 0.25f * (grid[i - 1] + grid[i + 1] + grid[i - w] + grid[i + w]);
  next[(kc.y + 1) * kc.maxX + kc.x] = t;
}

// `sweeps` sweeps of this rank's `rows` rows; `up` and `down` are the
// neighbours' ranks, or MPI_PROC_NULL at the plate's edges. The latest
// temperatures end up in `a` after an even number of sweeps, in `b` after an
// odd one.
FERRY_COMPUTE void diffuse(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                           ferry::Buffer<float> &b, int width, int rows, int up,
                           int down, int sweeps) {
  ferry::Buffer<float> *u = &a, *v = &b;
  for (int s = 0; s < sweeps; ++s) {
    // Halo rows first: my first row up for the row above mine, my last row
    // down for the row below. A call with MPI_PROC_NULL would move nothing,
    // but Ferry cannot know that: it would bring the edge row back from the
    // device for nothing. So the edges skip the call.
    float *p = u->data();
    if (up != MPI_PROC_NULL)
      MPI_Sendrecv(p + width, width, MPI_FLOAT, up, kTagUp, p, width,
                   MPI_FLOAT, up, kTagDown, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (down != MPI_PROC_NULL)
      MPI_Sendrecv(p + rows * width, width, MPI_FLOAT, down, kTagDown,
                   p + (rows + 1) * width, width, MPI_FLOAT, down, kTagUp,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    cc.dispatch(sweep, ferry::Range(width, rows), *u, *v);
    std::swap(u, v);
  }
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer or overflow an index. Every rank checks it (they all see
// the same arguments) and only rank 0 says what is wrong.
const char kUsage[] =
    "usage: heat_mpi [WIDTH] [ROWS] [SWEEPS]\n"
    "  WIDTH   points across the plate, 1 to 4096 (default 64)\n"
    "  ROWS    rows of the plate between its fixed top and bottom edges,\n"
    "          split over the ranks: the number of ranks to 4096 (default 32)\n"
    "  SWEEPS  Jacobi sweeps, 0 to 1000000 (default 100)\n"
    "run under MPI (mpirun -np RANKS heat_mpi ...); FERRY_DEVICE=gpu:local-rank\n"
    "gives each rank of a node its own GPU\n";

int rank = 0; // this process's rank: only rank 0 prints

[[noreturn]] void usage(int status) {
  if (rank == 0)
    std::fputs(kUsage, status == 0 ? stdout : stderr);
  MPI_Finalize();
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
    if (rank == 0)
      std::fprintf(stderr,
                   "heat_mpi: %s must be a whole number from %d to %d, not "
                   "'%s'\n",
                   name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

// How many of the plate's `height` rows rank `r` of `ranks` owns.
int rowsOf(int r, int ranks, int height) {
  return height / ranks + (r < height % ranks ? 1 : 0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 4) {
    if (rank == 0)
      std::fprintf(stderr, "heat_mpi: too many arguments\n");
    usage(1);
  }
  const int width = intArgument(argc, argv, 1, "WIDTH", 1, 4096, 64);
  const int height = intArgument(argc, argv, 2, "ROWS", 1, 4096, 32);
  const int sweeps = intArgument(argc, argv, 3, "SWEEPS", 0, 1000000, 100);
  if (height < ranks) {
    if (rank == 0)
      std::fprintf(stderr,
                   "heat_mpi: ROWS must be at least the number of ranks (%d), "
                   "not %d\n",
                   ranks, height);
    usage(1);
  }

  // This rank's rows of the plate: the first height % ranks ranks have one
  // more than the others.
  const int rows = rowsOf(rank, ranks, height);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL;

  // Both grids hold the fixed edges: a sweep reads the halo rows of one
  // grid and writes the other's rows 1..rows only.
  const std::size_t cells = static_cast<std::size_t>(rows + 2) * width;
  ferry::Buffer<float> a(cells), b(cells);
  for (int x = 0; x < width; ++x) {
    if (up == MPI_PROC_NULL)
      a[x] = b[x] = kHot;
    if (down == MPI_PROC_NULL)
      a[(rows + 1) * width + x] = b[(rows + 1) * width + x] = kCool;
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    diffuse(cc, a, b, width, rows, up, down, sweeps);
  });

  // This rank's sum over its rows, and the temperature in the middle of its
  // middle row; rank 0 prints them all in rank order.
  const ferry::Buffer<float> &plate = sweeps % 2 == 0 ? a : b;
  double mine[2] = {0.0, plate[(1 + rows / 2) * width + width / 2]};
  for (int y = 1; y <= rows; ++y)
    for (int x = 0; x < width; ++x)
      mine[0] += plate[y * width + x];
  std::vector<double> all(2 * static_cast<std::size_t>(ranks));
  MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  if (rank == 0) {
    double total = 0.0;
    for (int r = 0; r < ranks; ++r) {
      const int firstRow = r * (height / ranks) + std::min(r, height % ranks);
      std::printf("rank %d: rows %d-%d sum=%.6f middle=%.6f\n", r, firstRow,
                  firstRow + rowsOf(r, ranks, height) - 1, all[2 * r],
                  all[2 * r + 1]);
      total += all[2 * r];
    }
    std::printf("check: %dx%d ranks=%d sweeps=%d total=%.6f\n", width, height,
                ranks, sweeps, total);
  }
  MPI_Finalize();
  return 0;
}
