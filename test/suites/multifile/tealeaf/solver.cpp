// The CG solver (cg_driver, src/omp/cg.cpp) and solve_finished_driver
// (src/omp/solver_methods.cpp): kernels and the FERRY_COMPUTE members that
// dispatch them.
#include "chunk.h"

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
