// TeaLeaf (2-D heat conduction, implicit: a conjugate gradient solve per
// timestep), written anew in Ferry's dialect. Original: UoB-HPC/TeaLeaf
// (github.com/UoB-HPC/TeaLeaf, the C++ port of the mini-app), its OpenMP
// target-offload model: src/omp/diffuse_overload.cpp (the data directives
// around the time loop), src/omp/cg.cpp, solver_methods.cpp and
// local_halos.cpp (kernels), and driver/ (chunk.h, kernel_initialise,
// initialise.cpp, diffuse.cpp, cg_driver.cpp, solve_finished_driver.cpp,
// halo_update_driver.cpp, field_summary_driver.cpp).
//
// The state is a `Chunk` that privately owns every field, as TeaLeaf's
// Chunk struct does (density0, density, energy0, energy, u, u0, p, r, mi,
// w, kx, ky, sd, volume, the mesh's vertex_x/y and cell_x/y, cg_alphas and
// cg_betas), plus `partial_`, the reductions' partial sums. Its
// constructor is kernel_initialise + set_chunk_data + set_chunk_state + the
// first halo update + store_energy, on the host, as the original does them
// before its `target enter data`. The halo update (halo_update_driver ->
// local_halos: update_left/right/top/bottom for each field flagged in
// settings.fields_to_exchange), the CG solve (cg_driver: cg_init_driver
// with its halo update and copy_u, then cg_main_step_driver and a depth-1
// halo update per iteration, cg_alphas/cg_betas recorded on the host) and
// solve_finished_driver (calculate_residual, calculate_2norm, finalise,
// the energy halo) are FERRY_COMPUTE member functions; main's compute runs
// diffuse()'s time loop (solve() per step) and, after it, the final
// field_summary reads the fields on the host, as the original's
// field_summary_driver does after its `target exit data`.
//
// Differences, all deliberate:
// * One rank, no MPI: every face is external, so the halo update is the
//   local reflection only (remote_halo_driver, the comms buffers and their
//   map(alloc:) are left out; with one rank they move nothing anyway).
// * The OpenMP `reduction(+ : x)` loops (cg_init, cg_calc_w, cg_calc_ur,
//   calculate_2norm) are kernels over the interior cells, rounded up to
//   whole work-groups of REDUCE_WG, each group summing its cells in
//   `ferry::Local` memory (a halving tree with barriers) into
//   partial_[group]; the host adds the groups' sums (sum_partials).
// * The other loops are 2-D ranges over the cells the original's loops
//   visit (the interior, or [1, y-1) for w, [halo, y-1) for kx/ky).
// * Only the CG solver (the deck's `use_cg`); no Chebyshev, PPCG, Jacobi.
// * The deck is tea.in's test problem 5 (its five states) on 64 x 64 cells
//   (not 512 x 512), 4 timesteps (not 20), and max_iters 30: eps 1e-15 is
//   never reached in 30 iterations (the last step's error is ~7e-16, its
//   square root ~3e-8), so every run does 30 iterations a step and the
//   dispatch count is fixed. The mid-run field_summary (every 10 steps;
//   the original computes it on the host, from host copies the offload
//   version never updates, and prints nothing of it) is left out.
// * Values are printed to 6 significant digits: the device may contract
//   a * b + c into one rounding where the host does not.
//
//   tealeaf [CELLS END_STEP MAX_ITERS]
//
// Sizes: x = y = 64 + 2 * halo_depth(2) = 68 cells a side with halos, so a
// field is n = 4624 doubles, 36992 B; cg_alphas, cg_betas, cheby_alphas,
// cheby_betas are max_iters = 30 doubles, 240 B each. 4 steps of 30
// iterations; reductions a step: cg_init 1 + 2 per iteration + 2norm 1 =
// 62, in all 248.
//
// Bytes the ORIGINAL moves (OpenMP target offload, DIFFUSE_OVERLOAD):
//   target enter data map(to: r, sd, kx, ky, w, p, density, energy,
//     density0, energy0, u, u0):                      12 x 36992 = 443904
//     map(to: cheby_alphas, cheby_betas, cg_alphas, cg_betas): 4 x 240 = 960
//     (map(alloc:) of the 8 comms buffers: nothing)
//   target exit data map(from: density, energy, density0, energy0, u, u0):
//                                                      6 x 36992 = 221952
//   The data directives alone: in 16 (444864 B), out 6 (221952 B).
//   Each of the 248 `target teams distribute parallel for reduction(+ : v)`
//   maps its scalar v tofrom (8 B in, 8 B out): in 248 (1984 B), out 248
//   (1984 B). No `target update`: the host touches no field in between.
//   In all: in 264 (446848 B), out 254 (223936 B).
// suite-original: to_device 264 to_device_bytes 446848 from_device 254 from_device_bytes 223936
// Ferry, by hand:
//   Step 1. The halo update reads density and energy (host-written by the
//     constructor): in 2. cg_init_u overwrites u, p and r over the whole
//     x * y range (u's host values are never read): no copy. cg_init_w
//     writes w on [1, y-1) only, cg_init_k kx and ky on [2, y-1), copy_u
//     u0 on the interior, the reductions partial_ one element a group: each
//     needs its device copy first, and each still holds the zeros it was
//     made with, so the device fills it: 5 fills (4 x 36992 + 256 B, no
//     byte on the bus). density0, energy0, mi, sd, volume, the mesh,
//     cg_alphas and cg_betas never reach a kernel: never moved.
//   Every reduction's partial sums come home for sum_partials: 248 x 32
//     groups x 8 B = 248 x 256 = 63488 B. Nothing else crosses in the loop.
//   Exit: main cannot name the private fields, so the lambda's exit brings
//     home, through the runtime (cc.fromDeviceAllOf<double>, the safety
//     net), the double buffers the device holds newer that host code
//     outside a compute may read. Only field_summary (density, energy0, u,
//     volume) and the constructor name fields outside compute code; energy,
//     u0, p, r, w, kx, ky and partial_ are named by compute code only, so
//     they stay on the device (cc.keepOnDevice, "Private members only
//     compute code uses"). Home: density (its halos changed) and u: 2,
//     73984 B, counted as unnamed_from_device.
//   In 7 (2 x 36992 + 148224 = 222208 B, 5 of them fills, 148224 B);
//   out 250 (63488 + 73984 = 137472 B). Dispatches: a step has the halo
//   update of energy and density (8), cg_init (4), its halo update of u and
//   p (8), copy_u (1), 30 x (cg_calc_w, cg_calc_ur, cg_calc_p + halo of u,
//   p: 11), calculate_residual, calculate_2norm, finalise (3) and the halo
//   of energy, u and p (12): 366; 4 steps: 1464.
// Against the original: over the bus, in 2 (73984 B) against 264
// (446848 B), out 250 (137472 B) against 254 (223936 B). A reduction
// brings home 256 B where OpenMP brings home 8, but the exit brings home 2
// fields where the original's brings home 6. This is the whole-buffer
// optimum too (less the fills, which move no byte).
// ferry-test: args 64 4 30
// ferry-test: to_device 7 to_device_bytes 222208 fills 5 fill_bytes 148224
// ferry-test: from_device 250 from_device_bytes 137472
// ferry-test: unnamed_from_device 2 unnamed_from_device_bytes 73984
// ferry-test: dispatches 1464
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// ---------------------------------------------------------------- settings

enum Field { FIELD_DENSITY, FIELD_ENERGY0, FIELD_ENERGY1, FIELD_U, FIELD_P, FIELD_SD, NUM_FIELDS };
enum Coefficient { CONDUCTIVITY = 1, RECIP_CONDUCTIVITY = 2 };

// Work-items of a reduction's work-group (the partial sums of a dot product).
constexpr int REDUCE_WG = 128;

// One `state` line of the input deck: a rectangle of given density and
// energy (state 0 is the background).
struct State {
  double density;
  double energy;
  double x_min, x_max, y_min, y_max;
};

// The input deck (TeaLeaf's tea.in, test problem 5, on a smaller grid).
struct Settings {
  int grid_x_cells = 64;
  int grid_y_cells = 64;
  double grid_x_min = 0.0, grid_y_min = 0.0;
  double grid_x_max = 10.0, grid_y_max = 10.0;
  double dt_init = 0.004;
  int end_step = 4;
  int max_iters = 30;
  double eps = 1.0e-15;
  int coefficient = CONDUCTIVITY;
  int halo_depth = 2;
  double dx = 0.0, dy = 0.0;
  bool fields_to_exchange[NUM_FIELDS] = {};
  std::vector<State> states;
};

void reset_fields_to_exchange(Settings &settings) {
  for (int ii = 0; ii < NUM_FIELDS; ++ii)
    settings.fields_to_exchange[ii] = false;
}

// ---------------------------------------------------------------- the chunk

// The chunk of the mesh this (single) rank owns, with a halo of
// halo_depth cells on each side, and every field of it.
class Chunk {
public:
  explicit Chunk(Settings &settings);

  // Halo exchange: with one rank every face is external, so each field's
  // halo reflects its interior (the original's local_halos).
  FERRY_COMPUTE void halo_update(ferry::ComputeContext &cc, const Settings &settings, int depth);
  // The conjugate gradient solve of one timestep; returns its iterations.
  FERRY_COMPUTE int cg_solve(ferry::ComputeContext &cc, Settings &settings, double rx, double ry,
                             double *error);
  // The residual's 2-norm and energy from u (solve_finished_driver).
  FERRY_COMPUTE double solve_finished(ferry::ComputeContext &cc, Settings &settings);

  // Volume, mass, internal energy and temperature of the interior.
  void field_summary(double *vol, double *mass, double *ie, double *temp) const;
  // Bytes of all fields (the allocation report).
  std::size_t bytes() const { return bytes_; }

private:
  FERRY_COMPUTE void update_face(ferry::ComputeContext &cc, ferry::Buffer<double> &field, int depth);
  FERRY_COMPUTE double cg_init(ferry::ComputeContext &cc, Settings &settings, double rx, double ry);
  FERRY_COMPUTE void cg_main_step(ferry::ComputeContext &cc, int tt, double *rro, double *error);
  double sum_partials() const;
  void reflect_on_host(ferry::Buffer<double> &field, int depth);

  int x_, y_, halo_depth_;
  int inner_, groups_;  // interior cells; work-groups of a reduction
  std::size_t bytes_ = 0;

  ferry::Buffer<double> density0_, density_, energy0_, energy_;
  ferry::Buffer<double> u_, u0_, p_, r_, mi_, w_, kx_, ky_, sd_;
  ferry::Buffer<double> volume_;
  ferry::Buffer<double> vertex_x_, vertex_y_, cell_x_, cell_y_;
  ferry::Buffer<double> cg_alphas_, cg_betas_;
  ferry::Buffer<double> partial_;  // one sum per work-group of a reduction
};

// ---------------------------------------------------------------- set-up

Chunk::Chunk(Settings &settings)
    : x_(settings.grid_x_cells + 2 * settings.halo_depth),
      y_(settings.grid_y_cells + 2 * settings.halo_depth), halo_depth_(settings.halo_depth),
      inner_(settings.grid_x_cells * settings.grid_y_cells),
      groups_((inner_ + REDUCE_WG - 1) / REDUCE_WG), density0_(x_ * y_), density_(x_ * y_),
      energy0_(x_ * y_), energy_(x_ * y_), u_(x_ * y_), u0_(x_ * y_), p_(x_ * y_), r_(x_ * y_),
      mi_(x_ * y_), w_(x_ * y_), kx_(x_ * y_), ky_(x_ * y_), sd_(x_ * y_), volume_(x_ * y_),
      vertex_x_(x_ + 1), vertex_y_(y_ + 1), cell_x_(x_), cell_y_(y_),
      cg_alphas_(settings.max_iters), cg_betas_(settings.max_iters), partial_(groups_) {
  settings.dx = (settings.grid_x_max - settings.grid_x_min) / settings.grid_x_cells;
  settings.dy = (settings.grid_y_max - settings.grid_y_min) / settings.grid_y_cells;
  const double dx = settings.dx, dy = settings.dy;

  // set_chunk_data: the mesh.
  for (int ii = 0; ii < x_ + 1; ++ii)
    vertex_x_[ii] = settings.grid_x_min + dx * (ii - halo_depth_);
  for (int ii = 0; ii < y_ + 1; ++ii)
    vertex_y_[ii] = settings.grid_y_min + dy * (ii - halo_depth_);
  for (int ii = 0; ii < x_; ++ii)
    cell_x_[ii] = 0.5 * (vertex_x_[ii] + vertex_x_[ii + 1]);
  for (int ii = 0; ii < y_; ++ii)
    cell_y_[ii] = 0.5 * (vertex_y_[ii] + vertex_y_[ii + 1]);
  for (int ii = 0; ii < x_ * y_; ++ii)
    volume_[ii] = dx * dy;

  // set_chunk_state: the background, then each rectangle in turn.
  const std::vector<State> &states = settings.states;
  for (int ii = 0; ii < x_ * y_; ++ii) {
    energy0_[ii] = states[0].energy;
    density_[ii] = states[0].density;
  }
  for (std::size_t ss = 1; ss < states.size(); ++ss) {
    for (int jj = 0; jj < y_; ++jj) {
      for (int kk = 0; kk < x_; ++kk) {
        const bool apply = vertex_x_[kk + 1] >= states[ss].x_min &&
                           vertex_x_[kk] < states[ss].x_max &&
                           vertex_y_[jj + 1] >= states[ss].y_min &&
                           vertex_y_[jj] < states[ss].y_max;
        if (apply) {
          energy0_[kk + jj * x_] = states[ss].energy;
          density_[kk + jj * x_] = states[ss].density;
        }
      }
    }
  }
  for (int jj = 1; jj < y_ - 1; ++jj)
    for (int kk = 1; kk < x_ - 1; ++kk)
      u_[kk + jj * x_] = energy0_[kk + jj * x_] * density_[kk + jj * x_];

  // Prime the halos of density and energy0 (on the host, as the original
  // does before any offload), then store_energy: energy = energy0.
  reflect_on_host(density_, 2);
  reflect_on_host(energy0_, 2);
  for (int ii = 0; ii < x_ * y_; ++ii)
    energy_[ii] = energy0_[ii];

  bytes_ = density0_.bytes() + density_.bytes() + energy0_.bytes() + energy_.bytes() +
           u_.bytes() + u0_.bytes() + p_.bytes() + r_.bytes() + mi_.bytes() + w_.bytes() +
           kx_.bytes() + ky_.bytes() + sd_.bytes() + volume_.bytes() + vertex_x_.bytes() +
           vertex_y_.bytes() + cell_x_.bytes() + cell_y_.bytes() + cg_alphas_.bytes() +
           cg_betas_.bytes() + partial_.bytes();
}

void Chunk::reflect_on_host(ferry::Buffer<double> &field, int depth) {
  const int h = halo_depth_;
  for (int jj = h; jj < y_ - h; ++jj)
    for (int kk = 0; kk < depth; ++kk) {
      field[jj * x_ + (h - kk - 1)] = field[jj * x_ + (h + kk)];
      field[jj * x_ + (x_ - h + kk)] = field[jj * x_ + (x_ - h - 1 - kk)];
    }
  for (int jj = 0; jj < depth; ++jj)
    for (int kk = h; kk < x_ - h; ++kk) {
      field[kk + (y_ - h + jj) * x_] = field[kk + (y_ - h - 1 - jj) * x_];
      field[kk + (h - jj - 1) * x_] = field[kk + (h + jj) * x_];
    }
}

void Chunk::field_summary(double *vol, double *mass, double *ie, double *temp) const {
  double v = 0.0, m = 0.0, e = 0.0, t = 0.0;
  for (int jj = halo_depth_; jj < y_ - halo_depth_; ++jj) {
    for (int kk = halo_depth_; kk < x_ - halo_depth_; ++kk) {
      const int index = kk + jj * x_;
      const double cellVol = volume_[index];
      const double cellMass = cellVol * density_[index];
      v += cellVol;
      m += cellMass;
      e += cellMass * energy0_[index];
      t += cellMass * u_[index];
    }
  }
  *vol = v;
  *mass = m;
  *ie = e;
  *temp = t;
}

// ---------------------------------------------------------------- halos

FERRY_KERNEL void update_left(ferry::KernelContext kc, int x, int halo_depth, double *buffer) {
  const int kk = kc.x;
  const int base = (kc.y + halo_depth) * x;
  buffer[base + (halo_depth - kk - 1)] = buffer[base + (halo_depth + kk)];
}

FERRY_KERNEL void update_right(ferry::KernelContext kc, int x, int halo_depth, double *buffer) {
  const int kk = kc.x;
  const int base = (kc.y + halo_depth) * x;
  buffer[base + (x - halo_depth + kk)] = buffer[base + (x - halo_depth - 1 - kk)];
}

FERRY_KERNEL void update_top(ferry::KernelContext kc, int x, int y, int halo_depth,
                             double *buffer) {
  const int kk = kc.x + halo_depth;
  const int jj = kc.y;
  buffer[kk + (y - halo_depth + jj) * x] = buffer[kk + (y - halo_depth - 1 - jj) * x];
}

FERRY_KERNEL void update_bottom(ferry::KernelContext kc, int x, int halo_depth, double *buffer) {
  const int kk = kc.x + halo_depth;
  const int jj = kc.y;
  buffer[kk + (halo_depth - jj - 1) * x] = buffer[kk + (halo_depth + jj) * x];
}

void Chunk::update_face(ferry::ComputeContext &cc, ferry::Buffer<double> &field, int depth) {
  const int rows = y_ - 2 * halo_depth_, cols = x_ - 2 * halo_depth_;
  cc.dispatch(update_left, ferry::Range(depth, rows), x_, halo_depth_, field);
  cc.dispatch(update_right, ferry::Range(depth, rows), x_, halo_depth_, field);
  cc.dispatch(update_top, ferry::Range(cols, depth), x_, y_, halo_depth_, field);
  cc.dispatch(update_bottom, ferry::Range(cols, depth), x_, halo_depth_, field);
}

void Chunk::halo_update(ferry::ComputeContext &cc, const Settings &settings, int depth) {
  const bool *fields = settings.fields_to_exchange;
  if (fields[FIELD_DENSITY])
    update_face(cc, density_, depth);
  if (fields[FIELD_P])
    update_face(cc, p_, depth);
  if (fields[FIELD_ENERGY0])
    update_face(cc, energy0_, depth);
  if (fields[FIELD_ENERGY1])
    update_face(cc, energy_, depth);
  if (fields[FIELD_U])
    update_face(cc, u_, depth);
  if (fields[FIELD_SD])
    update_face(cc, sd_, depth);
}

// ---------------------------------------------------------------- solver

// The 5-point operator at index (tealeaf_SMVP).
inline double smvp(const double *a, const double *kx, const double *ky, int index, int x) {
  return (1.0 + (kx[index + 1] + kx[index]) + (ky[index + x] + ky[index])) * a[index] -
         (kx[index + 1] * a[index + 1] + kx[index] * a[index - 1]) -
         (ky[index + x] * a[index + x] + ky[index] * a[index - x]);
}

// The interior cell of reduction work-item `item` (x_inner cells a row), or
// -1 past the last one (the range is rounded up to whole work-groups).
inline int inner_index(int item, int inner, int x_inner, int x, int halo_depth) {
  if (item >= inner)
    return -1;
  return (halo_depth + item % x_inner) + (halo_depth + item / x_inner) * x;
}

// The work-group's sum of `value` into partial[group]: a tree in local
// memory, halving with a barrier each step.
inline void group_sum(ferry::KernelContext kc, double *scratch, double value, double *partial) {
  scratch[kc.localX] = value;
  kc.barrier();
  for (int step = kc.localSizeX / 2; step > 0; step /= 2) {
    if (kc.localX < step)
      scratch[kc.localX] += scratch[kc.localX + step];
    kc.barrier();
  }
  if (kc.localX == 0)
    partial[kc.groupX] = scratch[0];
}

FERRY_KERNEL void cg_init_u(ferry::KernelContext kc, int x, const double *density,
                            const double *energy, double *u, double *p, double *r) {
  const int index = kc.x + kc.y * x;
  p[index] = 0.0;
  r[index] = 0.0;
  u[index] = energy[index] * density[index];
}

FERRY_KERNEL void cg_init_w(ferry::KernelContext kc, int x, int coefficient,
                            const double *density, double *w) {
  const int index = (kc.x + 1) + (kc.y + 1) * x;
  w[index] = (coefficient == CONDUCTIVITY) ? density[index] : 1.0 / density[index];
}

FERRY_KERNEL void cg_init_k(ferry::KernelContext kc, int x, int halo_depth, double rx, double ry,
                            const double *w, double *kx, double *ky) {
  const int index = (kc.x + halo_depth) + (kc.y + halo_depth) * x;
  kx[index] = rx * (w[index - 1] + w[index]) / (2.0 * w[index - 1] * w[index]);
  ky[index] = ry * (w[index - x] + w[index]) / (2.0 * w[index - x] * w[index]);
}

FERRY_KERNEL void cg_init_others(ferry::KernelContext kc, int inner, int x_inner, int x,
                                 int halo_depth, const double *u, const double *kx,
                                 const double *ky, double *w, double *r, double *p,
                                 double *partial) {
  ferry::Local<double, REDUCE_WG> scratch;
  const int index = inner_index(kc.x, inner, x_inner, x, halo_depth);
  double rro = 0.0;
  if (index >= 0) {
    w[index] = smvp(u, kx, ky, index, x);
    r[index] = u[index] - w[index];
    p[index] = r[index];
    rro = r[index] * p[index];
  }
  group_sum(kc, &scratch[0], rro, partial);
}

FERRY_KERNEL void cg_calc_w(ferry::KernelContext kc, int inner, int x_inner, int x,
                            int halo_depth, const double *p, const double *kx, const double *ky,
                            double *w, double *partial) {
  ferry::Local<double, REDUCE_WG> scratch;
  const int index = inner_index(kc.x, inner, x_inner, x, halo_depth);
  double pw = 0.0;
  if (index >= 0) {
    w[index] = smvp(p, kx, ky, index, x);
    pw = w[index] * p[index];
  }
  group_sum(kc, &scratch[0], pw, partial);
}

FERRY_KERNEL void cg_calc_ur(ferry::KernelContext kc, int inner, int x_inner, int x,
                             int halo_depth, double alpha, const double *p, const double *w,
                             double *u, double *r, double *partial) {
  ferry::Local<double, REDUCE_WG> scratch;
  const int index = inner_index(kc.x, inner, x_inner, x, halo_depth);
  double rrn = 0.0;
  if (index >= 0) {
    u[index] += alpha * p[index];
    r[index] -= alpha * w[index];
    rrn = r[index] * r[index];
  }
  group_sum(kc, &scratch[0], rrn, partial);
}

FERRY_KERNEL void cg_calc_p(ferry::KernelContext kc, int x, int halo_depth, double beta,
                            const double *r, double *p) {
  const int index = (kc.x + halo_depth) + (kc.y + halo_depth) * x;
  p[index] = beta * p[index] + r[index];
}

FERRY_KERNEL void copy_u(ferry::KernelContext kc, int x, int halo_depth, const double *u,
                         double *u0) {
  const int index = (kc.x + halo_depth) + (kc.y + halo_depth) * x;
  u0[index] = u[index];
}

FERRY_KERNEL void calculate_residual(ferry::KernelContext kc, int x, int halo_depth,
                                     const double *u, const double *u0, const double *kx,
                                     const double *ky, double *r) {
  const int index = (kc.x + halo_depth) + (kc.y + halo_depth) * x;
  r[index] = u0[index] - smvp(u, kx, ky, index, x);
}

FERRY_KERNEL void calculate_2norm(ferry::KernelContext kc, int inner, int x_inner, int x,
                                  int halo_depth, const double *buffer, double *partial) {
  ferry::Local<double, REDUCE_WG> scratch;
  const int index = inner_index(kc.x, inner, x_inner, x, halo_depth);
  const double norm = index >= 0 ? buffer[index] * buffer[index] : 0.0;
  group_sum(kc, &scratch[0], norm, partial);
}

FERRY_KERNEL void finalise(ferry::KernelContext kc, int x, int halo_depth, const double *u,
                           const double *density, double *energy) {
  const int index = (kc.x + halo_depth) + (kc.y + halo_depth) * x;
  energy[index] = u[index] / density[index];
}

// The host's half of every reduction: the work-groups' partial sums.
double Chunk::sum_partials() const {
  double total = 0.0;
  for (int g = 0; g < groups_; ++g)
    total += partial_[g];
  return total;
}

double Chunk::cg_init(ferry::ComputeContext &cc, Settings &settings, double rx, double ry) {
  if (settings.coefficient != CONDUCTIVITY && settings.coefficient != RECIP_CONDUCTIVITY) {
    std::fprintf(stderr, "Coefficient %d is not valid.\n", settings.coefficient);
    std::exit(EXIT_FAILURE);
  }
  const int h = halo_depth_;
  const int x_inner = x_ - 2 * h, y_inner = y_ - 2 * h;
  const ferry::Range reduce = ferry::Range(groups_ * REDUCE_WG).local(REDUCE_WG);

  cc.dispatch(cg_init_u, ferry::Range(x_, y_), x_, density_, energy_, u_, p_, r_);
  cc.dispatch(cg_init_w, ferry::Range(x_ - 2, y_ - 2), x_, settings.coefficient, density_, w_);
  cc.dispatch(cg_init_k, ferry::Range(x_ - 1 - h, y_ - 1 - h), x_, h, rx, ry, w_, kx_, ky_);
  cc.dispatch(cg_init_others, reduce, inner_, x_inner, x_, h, u_, kx_, ky_, w_, r_, p_, partial_);
  const double rro = sum_partials();

  // The matrix-vector products need u's and p's halos.
  reset_fields_to_exchange(settings);
  settings.fields_to_exchange[FIELD_U] = true;
  settings.fields_to_exchange[FIELD_P] = true;
  halo_update(cc, settings, 1);

  cc.dispatch(copy_u, ferry::Range(x_inner, y_inner), x_, h, u_, u0_);
  return rro;
}

void Chunk::cg_main_step(ferry::ComputeContext &cc, int tt, double *rro, double *error) {
  const int h = halo_depth_;
  const int x_inner = x_ - 2 * h, y_inner = y_ - 2 * h;
  const ferry::Range reduce = ferry::Range(groups_ * REDUCE_WG).local(REDUCE_WG);

  cc.dispatch(cg_calc_w, reduce, inner_, x_inner, x_, h, p_, kx_, ky_, w_, partial_);
  const double pw = sum_partials();
  const double alpha = *rro / pw;
  cg_alphas_[tt] = alpha;

  cc.dispatch(cg_calc_ur, reduce, inner_, x_inner, x_, h, alpha, p_, w_, u_, r_, partial_);
  const double rrn = sum_partials();
  const double beta = rrn / *rro;
  cg_betas_[tt] = beta;

  cc.dispatch(cg_calc_p, ferry::Range(x_inner, y_inner), x_, h, beta, r_, p_);
  *error = rrn;
  *rro = rrn;
}

int Chunk::cg_solve(ferry::ComputeContext &cc, Settings &settings, double rx, double ry,
                    double *error) {
  double rro = cg_init(cc, settings, rx, ry);
  int tt;
  for (tt = 0; tt < settings.max_iters; ++tt) {
    cg_main_step(cc, tt, &rro, error);
    halo_update(cc, settings, 1);
    if (std::sqrt(std::fabs(*error)) < settings.eps)
      break;
  }
  return tt;
}

double Chunk::solve_finished(ferry::ComputeContext &cc, Settings &settings) {
  const int h = halo_depth_;
  const int x_inner = x_ - 2 * h, y_inner = y_ - 2 * h;
  cc.dispatch(calculate_residual, ferry::Range(x_inner, y_inner), x_, h, u_, u0_, kx_, ky_, r_);
  cc.dispatch(calculate_2norm, ferry::Range(groups_ * REDUCE_WG).local(REDUCE_WG), inner_,
              x_inner, x_, h, r_, partial_);
  const double exact_error = sum_partials();

  cc.dispatch(finalise, ferry::Range(x_inner, y_inner), x_, h, u_, density_, energy_);
  settings.fields_to_exchange[FIELD_ENERGY1] = true;
  halo_update(cc, settings, 1);
  return exact_error;
}

// ---------------------------------------------------------------- driver

// A value to 6 significant digits (the device may contract a * b + c into
// one rounding where the host does not; six digits hide that).
void print_value(const char *name, double v) { std::printf(" %s %.6g", name, v); }

int main(int argc, char **argv) {
  Settings settings;
  if (argc > 1)
    settings.grid_x_cells = settings.grid_y_cells = std::atoi(argv[1]);
  if (argc > 2)
    settings.end_step = std::atoi(argv[2]);
  if (argc > 3)
    settings.max_iters = std::atoi(argv[3]);
  // tea.in's states, test problem 5.
  settings.states = {{100.0, 0.0001, 0.0, 0.0, 0.0, 0.0},
                     {0.1, 25.0, 0.0, 1.0, 1.0, 2.0},
                     {0.1, 0.1, 1.0, 6.0, 1.0, 2.0},
                     {0.1, 0.1, 5.0, 6.0, 1.0, 8.0},
                     {0.1, 0.1, 5.0, 10.0, 7.0, 8.0}};

  Chunk chunk(settings);
  std::printf("TeaLeaf %dx%d cells, %d steps, CG of at most %d iterations, %zu bytes of fields\n",
              settings.grid_x_cells, settings.grid_y_cells, settings.end_step, settings.max_iters,
              chunk.bytes());

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (int tt = 0; tt < settings.end_step; ++tt) {
      const double dt = settings.dt_init;
      const double rx = dt / (settings.dx * settings.dx);
      const double ry = dt / (settings.dy * settings.dy);

      reset_fields_to_exchange(settings);
      settings.fields_to_exchange[FIELD_ENERGY1] = true;
      settings.fields_to_exchange[FIELD_DENSITY] = true;
      chunk.halo_update(cc, settings, 2);

      double error = 1e+10;
      const int iterations = chunk.cg_solve(cc, settings, rx, ry, &error);
      const double exact_error = chunk.solve_finished(cc, settings);

      std::printf("Timestep %d: CG %d iterations", tt + 1, iterations);
      print_value("error", error);
      print_value("exact", exact_error);
      std::printf("\n");
    }
  });

  double vol, mass, ie, temp;
  chunk.field_summary(&vol, &mass, &ie, &temp);
  std::printf("Field summary:");
  print_value("vol", vol);
  print_value("mass", mass);
  print_value("ie", ie);
  print_value("temp", temp);
  std::printf("\n");
  return 0;
}
