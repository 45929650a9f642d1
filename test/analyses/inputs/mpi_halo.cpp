// A halo exchange between MPI ranks for `ferry analyze`'s golden output
// (issue 22): each rank holds its rows of a grid plus a halo row above and
// below, relaxes its interior on the device, swaps the grids by pointer, and
// trades edge rows with its neighbours through a pointer kept from data().
// The MPI calls are events over exactly their rows; the pointer's binding
// only binds. Not meant to run.
#include <ferry/ferry.hpp>
#include <mpi.h>

#include <utility>

FERRY_KERNEL void relax(ferry::KernelContext kc, const float *in, float *out,
                        int n) {
  out[kc.x + n] = in[kc.x + n];
}

FERRY_COMPUTE void sweep(ferry::ComputeContext &cc, ferry::Buffer<float> &a,
                         ferry::Buffer<float> &b, int n, int rows, int up,
                         int down, int sweeps) {
  ferry::Buffer<float> *u = &a, *v = &b;
  for (int s = 0; s < sweeps; ++s) {
    cc.dispatch(relax, ferry::Range(n * (rows - 2)), *u, *v, n);
    std::swap(u, v);
    float *p = u->data();
    MPI_Sendrecv(p + n, n, MPI_FLOAT, up, 0, p, n, MPI_FLOAT, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(p + (rows - 2) * n, n, MPI_FLOAT, down, 1,
                 p + (rows - 1) * n, n, MPI_FLOAT, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
  }
  float residual = a[n];
  MPI_Allreduce(MPI_IN_PLACE, &residual, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Bcast(b.data(), n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
