// Rodinia cfd (euler3d: finite-volume Euler solver on an unstructured mesh),
// OpenCL version, written anew in Ferry's dialect. Original:
// github.com/yuhc/gpu-rodinia, opencl/cfd/euler3d.cpp (host: main, the
// launch wrappers initialize_variables / compute_step_factor / compute_flux /
// time_step, the alloc/upload/copy/download templates, dump) and Kernels.cl.
//
// Same kernels (memset_kernel, initialize_variables, compute_step_factor,
// compute_flux, time_step) with the same SoA indexing `i + j*nelr`, the
// far-field constants in five small buffers, the same RK loop. Differences:
//   * the original's copy<float>(old_variables, variables, N) is a
//     device-to-device clEnqueueCopyBuffer; here the copy<T> helper
//     dispatches copy_kernel (one element per work-item);
//   * _clMemset runs the original's memset_kernel on a char view of
//     step_factors; a Ferry buffer has one element type, so memset_kernel
//     takes float* here (one float per work-item, still zero);
//   * the mesh (a file in the original) is generated in std::vectors in
//     the original's Fortran numbering and converted by the same host loops
//     (including the original's self-assignment in the padding loop, so the
//     padded elements' normals stay zero), and `iterations` is 4, not 2000.
//
//   cfd [NEL]
//
// Bytes the ORIGINAL host code moves at nel = 1000, nelr = 1152
// (block_length 192), 4 iterations:
//   _clMemcpyH2D ff_variable NVAR*4 = 20, four float3 contributions 4 x 12
//   upload areas 1152*4 = 4608, elements_surrounding_elements 1152*4*4 =
//   18432, normals 1152*3*4*4 = 55296
//   (copy<float> is device-to-device; _clMemset is a kernel)
//   dump: download variables 1152*5*4 = 23040
//   in 8 (78404 B), out 1 (23040 B).
// Whole-buffer optimum for this port: the eight host-written inputs are
// read by kernels: in 8. variables, old_variables and fluxes are first
// written whole by initialize_variables (variables[i + j*nelr] for every j
// of the NVAR loop, i < nelr), step_factors by memset_kernel: no copy. The
// host reads variables in dump: out 1. All buffers are local.
//   in 8 (78404 B), out 1 (23040 B): the original. Dispatches: 3
//   initialize_variables + 1 memset + 4 x (copy + step factor + 3 x (flux +
//   time step)) = 36.
// suite-original: to_device 8 to_device_bytes 78404 from_device 1 from_device_bytes 23040
// ferry-test: args 1000
// ferry-test: to_device 8 to_device_bytes 78404 from_device 1 from_device_bytes 23040
// ferry-test: dispatches 36
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#define GAMMA 1.4f
#define iterations 4
#ifndef block_length
#define block_length 192
#endif
#define NDIM 3
#define NNB 4
#define RK 3 // 3rd order RK
#define ff_mach 1.2f
#define deg_angle_of_attack 0.0f

#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY (VAR_MOMENTUM + NDIM)
#define NVAR (VAR_DENSITY_ENERGY + 1)

typedef struct {
  float x;
  float y;
  float z;
} FLOAT3;

// ---- kernels and the functions they call ----------------------------------

FERRY_KERNEL void memset_kernel(ferry::KernelContext kc, float *mem_d, short val, int ct) {
  const int thread_id = kc.x;
  if (thread_id >= ct)
    return;
  mem_d[thread_id] = val;
}

FERRY_KERNEL void copy_kernel(ferry::KernelContext kc, float *dst, const float *src, int N) {
  const int i = kc.x;
  if (i >= N)
    return;
  dst[i] = src[i];
}

inline void compute_velocity(float density, FLOAT3 momentum, FLOAT3 *velocity) {
  velocity->x = momentum.x / density;
  velocity->y = momentum.y / density;
  velocity->z = momentum.z / density;
}

inline float compute_speed_sqd(FLOAT3 velocity) {
  return velocity.x * velocity.x + velocity.y * velocity.y + velocity.z * velocity.z;
}

inline float compute_pressure(float density, float density_energy, float speed_sqd) {
  return ((float)(GAMMA) - (float)(1.0f)) * (density_energy - (float)(0.5f) * density * speed_sqd);
}

inline float compute_speed_of_sound(float density, float pressure) {
  return std::sqrt((float)(GAMMA)*pressure / density);
}

inline void compute_flux_contribution_k(float density, FLOAT3 momentum, float density_energy,
                                        float pressure, FLOAT3 velocity, FLOAT3 *fc_momentum_x,
                                        FLOAT3 *fc_momentum_y, FLOAT3 *fc_momentum_z,
                                        FLOAT3 *fc_density_energy) {
  (void)density;
  fc_momentum_x->x = velocity.x * momentum.x + pressure;
  fc_momentum_x->y = velocity.x * momentum.y;
  fc_momentum_x->z = velocity.x * momentum.z;

  fc_momentum_y->x = fc_momentum_x->y;
  fc_momentum_y->y = velocity.y * momentum.y + pressure;
  fc_momentum_y->z = velocity.y * momentum.z;

  fc_momentum_z->x = fc_momentum_x->z;
  fc_momentum_z->y = fc_momentum_y->z;
  fc_momentum_z->z = velocity.z * momentum.z + pressure;

  float de_p = density_energy + pressure;
  fc_density_energy->x = velocity.x * de_p;
  fc_density_energy->y = velocity.y * de_p;
  fc_density_energy->z = velocity.z * de_p;
}

FERRY_KERNEL void initialize_variables_k(ferry::KernelContext kc, float *variables,
                                         const float *ff_variable, int nelr) {
  const int i = kc.x;
  if (i >= nelr)
    return;
  for (int j = 0; j < NVAR; j++)
    variables[i + j * nelr] = ff_variable[j];
}

FERRY_KERNEL void compute_step_factor_k(ferry::KernelContext kc, float *variables, float *areas,
                                        float *step_factors, int nelr) {
  const int i = kc.x;
  if (i >= nelr)
    return;

  float density = variables[i + VAR_DENSITY * nelr];
  FLOAT3 momentum;
  momentum.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  momentum.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  momentum.z = variables[i + (VAR_MOMENTUM + 2) * nelr];

  float density_energy = variables[i + VAR_DENSITY_ENERGY * nelr];

  FLOAT3 velocity;
  compute_velocity(density, momentum, &velocity);
  float speed_sqd = compute_speed_sqd(velocity);
  float pressure = compute_pressure(density, density_energy, speed_sqd);
  float speed_of_sound = compute_speed_of_sound(density, pressure);

  step_factors[i] = (float)(0.5f) / (std::sqrt(areas[i]) * (std::sqrt(speed_sqd) + speed_of_sound));
}

FERRY_KERNEL void compute_flux_k(ferry::KernelContext kc, int *elements_surrounding_elements,
                                 float *normals, float *variables, const float *ff_variable,
                                 float *fluxes, const FLOAT3 *ff_flux_contribution_density_energy,
                                 const FLOAT3 *ff_flux_contribution_momentum_x,
                                 const FLOAT3 *ff_flux_contribution_momentum_y,
                                 const FLOAT3 *ff_flux_contribution_momentum_z, int nelr) {
  const float smoothing_coefficient = (float)(0.2f);
  const int i = kc.x;
  if (i >= nelr)
    return;
  int j, nb;
  FLOAT3 normal;
  float normal_len;
  float factor;

  float density_i = variables[i + VAR_DENSITY * nelr];
  FLOAT3 momentum_i;
  momentum_i.x = variables[i + (VAR_MOMENTUM + 0) * nelr];
  momentum_i.y = variables[i + (VAR_MOMENTUM + 1) * nelr];
  momentum_i.z = variables[i + (VAR_MOMENTUM + 2) * nelr];

  float density_energy_i = variables[i + VAR_DENSITY_ENERGY * nelr];

  FLOAT3 velocity_i;
  compute_velocity(density_i, momentum_i, &velocity_i);
  float speed_sqd_i = compute_speed_sqd(velocity_i);
  float speed_i = std::sqrt(speed_sqd_i);
  float pressure_i = compute_pressure(density_i, density_energy_i, speed_sqd_i);
  float speed_of_sound_i = compute_speed_of_sound(density_i, pressure_i);
  FLOAT3 flux_contribution_i_momentum_x, flux_contribution_i_momentum_y,
      flux_contribution_i_momentum_z;
  FLOAT3 flux_contribution_i_density_energy;
  compute_flux_contribution_k(density_i, momentum_i, density_energy_i, pressure_i, velocity_i,
                              &flux_contribution_i_momentum_x, &flux_contribution_i_momentum_y,
                              &flux_contribution_i_momentum_z,
                              &flux_contribution_i_density_energy);

  float flux_i_density = (float)(0.0f);
  FLOAT3 flux_i_momentum;
  flux_i_momentum.x = (float)(0.0f);
  flux_i_momentum.y = (float)(0.0f);
  flux_i_momentum.z = (float)(0.0f);
  float flux_i_density_energy = (float)(0.0f);

  FLOAT3 velocity_nb;
  float density_nb, density_energy_nb;
  FLOAT3 momentum_nb;
  FLOAT3 flux_contribution_nb_momentum_x, flux_contribution_nb_momentum_y,
      flux_contribution_nb_momentum_z;
  FLOAT3 flux_contribution_nb_density_energy;
  float speed_sqd_nb, speed_of_sound_nb, pressure_nb;

  for (j = 0; j < NNB; j++) {
    nb = elements_surrounding_elements[i + j * nelr];
    normal.x = normals[i + (j + 0 * NNB) * nelr];
    normal.y = normals[i + (j + 1 * NNB) * nelr];
    normal.z = normals[i + (j + 2 * NNB) * nelr];
    normal_len = std::sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);

    if (nb >= 0) { // a legitimate neighbor
      density_nb = variables[nb + VAR_DENSITY * nelr];
      momentum_nb.x = variables[nb + (VAR_MOMENTUM + 0) * nelr];
      momentum_nb.y = variables[nb + (VAR_MOMENTUM + 1) * nelr];
      momentum_nb.z = variables[nb + (VAR_MOMENTUM + 2) * nelr];
      density_energy_nb = variables[nb + VAR_DENSITY_ENERGY * nelr];
      compute_velocity(density_nb, momentum_nb, &velocity_nb);
      speed_sqd_nb = compute_speed_sqd(velocity_nb);
      pressure_nb = compute_pressure(density_nb, density_energy_nb, speed_sqd_nb);
      speed_of_sound_nb = compute_speed_of_sound(density_nb, pressure_nb);
      compute_flux_contribution_k(density_nb, momentum_nb, density_energy_nb, pressure_nb,
                                  velocity_nb, &flux_contribution_nb_momentum_x,
                                  &flux_contribution_nb_momentum_y,
                                  &flux_contribution_nb_momentum_z,
                                  &flux_contribution_nb_density_energy);

      // artificial viscosity
      factor = -normal_len * smoothing_coefficient * (float)(0.5f) *
               (speed_i + std::sqrt(speed_sqd_nb) + speed_of_sound_i + speed_of_sound_nb);
      flux_i_density += factor * (density_i - density_nb);
      flux_i_density_energy += factor * (density_energy_i - density_energy_nb);
      flux_i_momentum.x += factor * (momentum_i.x - momentum_nb.x);
      flux_i_momentum.y += factor * (momentum_i.y - momentum_nb.y);
      flux_i_momentum.z += factor * (momentum_i.z - momentum_nb.z);

      // accumulate cell-centered fluxes
      factor = (float)(0.5f) * normal.x;
      flux_i_density += factor * (momentum_nb.x + momentum_i.x);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.x +
                                         flux_contribution_i_density_energy.x);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.x +
                                     flux_contribution_i_momentum_x.x);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.x +
                                     flux_contribution_i_momentum_y.x);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.x +
                                     flux_contribution_i_momentum_z.x);

      factor = (float)(0.5f) * normal.y;
      flux_i_density += factor * (momentum_nb.y + momentum_i.y);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.y +
                                         flux_contribution_i_density_energy.y);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.y +
                                     flux_contribution_i_momentum_x.y);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.y +
                                     flux_contribution_i_momentum_y.y);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.y +
                                     flux_contribution_i_momentum_z.y);

      factor = (float)(0.5f) * normal.z;
      flux_i_density += factor * (momentum_nb.z + momentum_i.z);
      flux_i_density_energy += factor * (flux_contribution_nb_density_energy.z +
                                         flux_contribution_i_density_energy.z);
      flux_i_momentum.x += factor * (flux_contribution_nb_momentum_x.z +
                                     flux_contribution_i_momentum_x.z);
      flux_i_momentum.y += factor * (flux_contribution_nb_momentum_y.z +
                                     flux_contribution_i_momentum_y.z);
      flux_i_momentum.z += factor * (flux_contribution_nb_momentum_z.z +
                                     flux_contribution_i_momentum_z.z);
    } else if (nb == -1) { // a wing boundary
      flux_i_momentum.x += normal.x * pressure_i;
      flux_i_momentum.y += normal.y * pressure_i;
      flux_i_momentum.z += normal.z * pressure_i;
    } else if (nb == -2) { // a far field boundary
      factor = (float)(0.5f) * normal.x;
      flux_i_density += factor * (ff_variable[VAR_MOMENTUM + 0] + momentum_i.x);
      flux_i_density_energy += factor * (ff_flux_contribution_density_energy[0].x +
                                         flux_contribution_i_density_energy.x);
      flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].x +
                                     flux_contribution_i_momentum_x.x);
      flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].x +
                                     flux_contribution_i_momentum_y.x);
      flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].x +
                                     flux_contribution_i_momentum_z.x);

      factor = (float)(0.5f) * normal.y;
      flux_i_density += factor * (ff_variable[VAR_MOMENTUM + 1] + momentum_i.y);
      flux_i_density_energy += factor * (ff_flux_contribution_density_energy[0].y +
                                         flux_contribution_i_density_energy.y);
      flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].y +
                                     flux_contribution_i_momentum_x.y);
      flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].y +
                                     flux_contribution_i_momentum_y.y);
      flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].y +
                                     flux_contribution_i_momentum_z.y);

      factor = (float)(0.5f) * normal.z;
      flux_i_density += factor * (ff_variable[VAR_MOMENTUM + 2] + momentum_i.z);
      flux_i_density_energy += factor * (ff_flux_contribution_density_energy[0].z +
                                         flux_contribution_i_density_energy.z);
      flux_i_momentum.x += factor * (ff_flux_contribution_momentum_x[0].z +
                                     flux_contribution_i_momentum_x.z);
      flux_i_momentum.y += factor * (ff_flux_contribution_momentum_y[0].z +
                                     flux_contribution_i_momentum_y.z);
      flux_i_momentum.z += factor * (ff_flux_contribution_momentum_z[0].z +
                                     flux_contribution_i_momentum_z.z);
    }
  }

  fluxes[i + VAR_DENSITY * nelr] = flux_i_density;
  fluxes[i + (VAR_MOMENTUM + 0) * nelr] = flux_i_momentum.x;
  fluxes[i + (VAR_MOMENTUM + 1) * nelr] = flux_i_momentum.y;
  fluxes[i + (VAR_MOMENTUM + 2) * nelr] = flux_i_momentum.z;
  fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_i_density_energy;
}

FERRY_KERNEL void time_step_k(ferry::KernelContext kc, int j, int nelr, float *old_variables,
                              float *variables, float *step_factors, float *fluxes) {
  const int i = kc.x;
  if (i >= nelr)
    return;

  float factor = step_factors[i] / (float)(RK + 1 - j);

  variables[i + VAR_DENSITY * nelr] =
      old_variables[i + VAR_DENSITY * nelr] + factor * fluxes[i + VAR_DENSITY * nelr];
  variables[i + VAR_DENSITY_ENERGY * nelr] = old_variables[i + VAR_DENSITY_ENERGY * nelr] +
                                             factor * fluxes[i + VAR_DENSITY_ENERGY * nelr];
  variables[i + (VAR_MOMENTUM + 0) * nelr] = old_variables[i + (VAR_MOMENTUM + 0) * nelr] +
                                             factor * fluxes[i + (VAR_MOMENTUM + 0) * nelr];
  variables[i + (VAR_MOMENTUM + 1) * nelr] = old_variables[i + (VAR_MOMENTUM + 1) * nelr] +
                                             factor * fluxes[i + (VAR_MOMENTUM + 1) * nelr];
  variables[i + (VAR_MOMENTUM + 2) * nelr] = old_variables[i + (VAR_MOMENTUM + 2) * nelr] +
                                             factor * fluxes[i + (VAR_MOMENTUM + 2) * nelr];
}

// ---- host: the original's generic helpers and launch wrappers --------------

template <typename T> ferry::Buffer<T> alloc(int N) { return ferry::Buffer<T>(N); }

template <typename T>
void copy(ferry::ComputeContext &cc, ferry::Buffer<T> &dst, ferry::Buffer<T> &src, int N) {
  cc.dispatch(copy_kernel, ferry::Range(N), dst, src, N);
}

template <typename T> void upload(ferry::Buffer<T> &dst, const T *src, int N) {
  std::copy(src, src + N, dst.begin());
}

template <typename T> void download(T *dst, ferry::Buffer<T> &src, int N) {
  std::copy(src.begin(), src.begin() + N, dst);
}

void dump(ferry::Buffer<float> &variables, int nel, int nelr) {
  float *h_variables = new float[nelr * NVAR];
  download(h_variables, variables, nelr * NVAR);
  std::vector<float> density(nel), momentum(nel * NDIM), density_energy(nel);
  for (int i = 0; i < nel; i++)
    density[i] = h_variables[i + VAR_DENSITY * nelr];
  for (int i = 0; i < nel; i++)
    for (int j = 0; j != NDIM; j++)
      momentum[i * NDIM + j] = h_variables[i + (VAR_MOMENTUM + j) * nelr];
  for (int i = 0; i < nel; i++)
    density_energy[i] = h_variables[i + VAR_DENSITY_ENERGY * nelr];
  printApprox("density", density.data(), density.size());
  printApprox("momentum", momentum.data(), momentum.size());
  printApprox("density_energy", density_energy.data(), density_energy.size());
  delete[] h_variables;
}

void initialize_variables(ferry::ComputeContext &cc, int nelr, ferry::Buffer<float> &variables,
                          ferry::Buffer<float> &ff_variable) {
  int work_items = nelr;
  cc.dispatch(initialize_variables_k, ferry::Range(work_items), variables, ff_variable, nelr);
}

void compute_step_factor(ferry::ComputeContext &cc, int nelr, ferry::Buffer<float> &variables,
                         ferry::Buffer<float> &areas, ferry::Buffer<float> &step_factors) {
  int work_items = nelr;
  cc.dispatch(compute_step_factor_k, ferry::Range(work_items), variables, areas, step_factors,
              nelr);
}

void compute_flux(ferry::ComputeContext &cc, int nelr,
                  ferry::Buffer<int> &elements_surrounding_elements,
                  ferry::Buffer<float> &normals, ferry::Buffer<float> &variables,
                  ferry::Buffer<float> &ff_variable, ferry::Buffer<float> &fluxes,
                  ferry::Buffer<FLOAT3> &ff_flux_contribution_density_energy,
                  ferry::Buffer<FLOAT3> &ff_flux_contribution_momentum_x,
                  ferry::Buffer<FLOAT3> &ff_flux_contribution_momentum_y,
                  ferry::Buffer<FLOAT3> &ff_flux_contribution_momentum_z) {
  int work_items = nelr;
  cc.dispatch(compute_flux_k, ferry::Range(work_items), elements_surrounding_elements, normals,
              variables, ff_variable, fluxes, ff_flux_contribution_density_energy,
              ff_flux_contribution_momentum_x, ff_flux_contribution_momentum_y,
              ff_flux_contribution_momentum_z, nelr);
}

void time_step(ferry::ComputeContext &cc, int j, int nelr, ferry::Buffer<float> &old_variables,
               ferry::Buffer<float> &variables, ferry::Buffer<float> &step_factors,
               ferry::Buffer<float> &fluxes) {
  int work_items = nelr;
  cc.dispatch(time_step_k, ferry::Range(work_items), j, nelr, old_variables, variables,
              step_factors, fluxes);
}

inline void compute_flux_contribution(float &density, FLOAT3 &momentum, float &density_energy,
                                      float &pressure, FLOAT3 &velocity, FLOAT3 &fc_momentum_x,
                                      FLOAT3 &fc_momentum_y, FLOAT3 &fc_momentum_z,
                                      FLOAT3 &fc_density_energy) {
  (void)density;
  fc_momentum_x.x = velocity.x * momentum.x + pressure;
  fc_momentum_x.y = velocity.x * momentum.y;
  fc_momentum_x.z = velocity.x * momentum.z;
  fc_momentum_y.x = fc_momentum_x.y;
  fc_momentum_y.y = velocity.y * momentum.y + pressure;
  fc_momentum_y.z = velocity.y * momentum.z;
  fc_momentum_z.x = fc_momentum_x.z;
  fc_momentum_z.y = fc_momentum_y.z;
  fc_momentum_z.z = velocity.z * momentum.z + pressure;
  float de_p = density_energy + pressure;
  fc_density_energy.x = velocity.x * de_p;
  fc_density_energy.y = velocity.y * de_p;
  fc_density_energy.z = velocity.z * de_p;
}

// The mesh as the original's file holds it: per element an area and, per
// neighbour, a Fortran-numbered element (0: wing, negative: far field) and
// a normal.
struct MeshFile {
  int nel;
  std::vector<float> areas;
  std::vector<int> neighbours; // [nel][NNB]
  std::vector<float> normals;  // [nel][NNB][NDIM]
};

FERRY_COMPUTE void euler3d(ferry::ComputeContext &cc, const MeshFile &file) {
  ferry::Buffer<float> ff_variable;
  ferry::Buffer<FLOAT3> ff_flux_contribution_momentum_x, ff_flux_contribution_momentum_y,
      ff_flux_contribution_momentum_z, ff_flux_contribution_density_energy;
  ferry::Buffer<float> areas;
  ferry::Buffer<int> elements_surrounding_elements;
  ferry::Buffer<float> normals;
  ferry::Buffer<float> variables, old_variables, fluxes, step_factors;
  float h_ff_variable[NVAR];

  // set far field conditions and load them into small device buffers
  {
    const float angle_of_attack =
        float(3.1415926535897931 / 180.0f) * float(deg_angle_of_attack);
    h_ff_variable[VAR_DENSITY] = float(1.4);
    float ff_pressure = float(1.0f);
    float ff_speed_of_sound = std::sqrt(GAMMA * ff_pressure / h_ff_variable[VAR_DENSITY]);
    float ff_speed = float(ff_mach) * ff_speed_of_sound;
    FLOAT3 ff_velocity;
    ff_velocity.x = ff_speed * float(std::cos((float)angle_of_attack));
    ff_velocity.y = ff_speed * float(std::sin((float)angle_of_attack));
    ff_velocity.z = 0.0f;
    h_ff_variable[VAR_MOMENTUM + 0] = h_ff_variable[VAR_DENSITY] * ff_velocity.x;
    h_ff_variable[VAR_MOMENTUM + 1] = h_ff_variable[VAR_DENSITY] * ff_velocity.y;
    h_ff_variable[VAR_MOMENTUM + 2] = h_ff_variable[VAR_DENSITY] * ff_velocity.z;
    h_ff_variable[VAR_DENSITY_ENERGY] =
        h_ff_variable[VAR_DENSITY] * (float(0.5f) * (ff_speed * ff_speed)) +
        (ff_pressure / float(GAMMA - 1.0f));
    FLOAT3 h_ff_momentum;
    h_ff_momentum.x = *(h_ff_variable + VAR_MOMENTUM + 0);
    h_ff_momentum.y = *(h_ff_variable + VAR_MOMENTUM + 1);
    h_ff_momentum.z = *(h_ff_variable + VAR_MOMENTUM + 2);
    FLOAT3 h_ff_flux_contribution_momentum_x;
    FLOAT3 h_ff_flux_contribution_momentum_y;
    FLOAT3 h_ff_flux_contribution_momentum_z;
    FLOAT3 h_ff_flux_contribution_density_energy;
    compute_flux_contribution(h_ff_variable[VAR_DENSITY], h_ff_momentum,
                              h_ff_variable[VAR_DENSITY_ENERGY], ff_pressure, ff_velocity,
                              h_ff_flux_contribution_momentum_x,
                              h_ff_flux_contribution_momentum_y,
                              h_ff_flux_contribution_momentum_z,
                              h_ff_flux_contribution_density_energy);

    ff_variable = alloc<float>(NVAR);
    ff_flux_contribution_momentum_x = alloc<FLOAT3>(1);
    ff_flux_contribution_momentum_y = alloc<FLOAT3>(1);
    ff_flux_contribution_momentum_z = alloc<FLOAT3>(1);
    ff_flux_contribution_density_energy = alloc<FLOAT3>(1);
    upload<float>(ff_variable, h_ff_variable, NVAR);
    upload<FLOAT3>(ff_flux_contribution_momentum_x, &h_ff_flux_contribution_momentum_x, 1);
    upload<FLOAT3>(ff_flux_contribution_momentum_y, &h_ff_flux_contribution_momentum_y, 1);
    upload<FLOAT3>(ff_flux_contribution_momentum_z, &h_ff_flux_contribution_momentum_z, 1);
    upload<FLOAT3>(ff_flux_contribution_density_energy, &h_ff_flux_contribution_density_energy,
                   1);
  }
  int nel;
  int nelr;
  // read in domain geometry
  {
    nel = file.nel;
    nelr = block_length * ((nel / block_length) + std::min(1, nel % block_length));
    float *h_areas = new float[nelr];
    int *h_elements_surrounding_elements = new int[nelr * NNB];
    float *h_normals = new float[nelr * NDIM * NNB]();
    for (int i = 0; i < nel; i++) {
      h_areas[i] = file.areas[i];
      for (int j = 0; j < NNB; j++) {
        h_elements_surrounding_elements[i + j * nelr] = file.neighbours[i * NNB + j];
        if (h_elements_surrounding_elements[i + j * nelr] < 0)
          h_elements_surrounding_elements[i + j * nelr] = -1;
        h_elements_surrounding_elements[i + j * nelr]--; // Fortran numbering
        for (int k = 0; k < NDIM; k++) {
          h_normals[i + (j + k * NNB) * nelr] = file.normals[(i * NNB + j) * NDIM + k];
          h_normals[i + (j + k * NNB) * nelr] = -h_normals[i + (j + k * NNB) * nelr];
        }
      }
    }
    // fill in remaining data
    int last = nel - 1;
    for (int i = nel; i < nelr; i++) {
      h_areas[i] = h_areas[last];
      for (int j = 0; j < NNB; j++) {
        // duplicate the last element
        h_elements_surrounding_elements[i + j * nelr] =
            h_elements_surrounding_elements[last + j * nelr];
        for (int k = 0; k < NDIM; k++)
          h_normals[last + (j + k * NNB) * nelr] = h_normals[last + (j + k * NNB) * nelr]; // (sic)
      }
    }
    areas = alloc<float>(nelr);
    upload<float>(areas, h_areas, nelr);
    elements_surrounding_elements = alloc<int>(nelr * NNB);
    upload<int>(elements_surrounding_elements, h_elements_surrounding_elements, nelr * NNB);
    normals = alloc<float>(nelr * NDIM * NNB);
    upload<float>(normals, h_normals, nelr * NDIM * NNB);
    delete[] h_areas;
    delete[] h_elements_surrounding_elements;
    delete[] h_normals;
  }

  // Create arrays and set initial conditions
  variables = alloc<float>(nelr * NVAR);
  initialize_variables(cc, nelr, variables, ff_variable);
  old_variables = alloc<float>(nelr * NVAR);
  fluxes = alloc<float>(nelr * NVAR);
  step_factors = alloc<float>(nelr);
  initialize_variables(cc, nelr, old_variables, ff_variable);
  initialize_variables(cc, nelr, fluxes, ff_variable);
  cc.dispatch(memset_kernel, ferry::Range(nelr), step_factors, (short)0, nelr); // _clMemset

  // Begin iterations
  for (int i = 0; i < iterations; i++) {
    copy<float>(cc, old_variables, variables, nelr * NVAR);
    // for the first iteration we compute the time step
    compute_step_factor(cc, nelr, variables, areas, step_factors);
    for (int j = 0; j < RK; j++) {
      compute_flux(cc, nelr, elements_surrounding_elements, normals, variables, ff_variable,
                   fluxes, ff_flux_contribution_density_energy, ff_flux_contribution_momentum_x,
                   ff_flux_contribution_momentum_y, ff_flux_contribution_momentum_z);
      time_step(cc, j, nelr, old_variables, variables, step_factors, fluxes);
    }
  }
  std::printf("cfd nel=%d nelr=%d, %d iterations\n", nel, nelr, iterations);
  dump(variables, nel, nelr);
}

int main(int argc, char **argv) {
  MeshFile file;
  file.nel = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int nel = file.nel;
  file.areas.resize(nel);
  file.neighbours.resize(nel * NNB);
  file.normals.resize(nel * NNB * NDIM);
  for (int i = 0; i < nel; i++) {
    file.areas[i] = 1.0f + 0.125f * static_cast<float>(i % 7);
    int nb[NNB] = {(i + 1) % nel + 1, (i + nel - 1) % nel + 1,
                   i % 10 == 0 ? 0 : (i * 7 + 3) % nel + 1,
                   i % 13 == 0 ? -1 : (i + nel / 2) % nel + 1};
    for (int j = 0; j < NNB; j++) {
      file.neighbours[i * NNB + j] = nb[j];
      for (int k = 0; k < NDIM; k++)
        file.normals[(i * NNB + j) * NDIM + k] =
            0.0625f * static_cast<float>((i + 3 * j + 5 * k) % 5 - 2);
    }
  }
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { euler3d(cc, file); });
}
