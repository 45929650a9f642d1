// The halo update (halo_update_driver -> local_halos): one rank, so every
// face reflects the field's interior.
#include "chunk.h"

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
