// TeaLeaf's settings and the Chunk that owns every field (see main.cpp).
#pragma once
#include <ferry/ferry.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

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

inline void reset_fields_to_exchange(Settings &settings) {
  for (int ii = 0; ii < NUM_FIELDS; ++ii)
    settings.fields_to_exchange[ii] = false;
}

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
