// The Chunk's host side: kernel_initialise, set_chunk_data, set_chunk_state,
// the first halo update and store_energy (the constructor), and the final
// field_summary.
#include "chunk.h"

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
