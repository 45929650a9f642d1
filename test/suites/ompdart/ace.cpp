// OMPDart evaluation benchmark "ace" (phase-field solidification, from
// HeCBench ace-omp), written anew in Ferry's dialect. Original:
// github.com/lmarzen/ompdart, evaluation/src/ace-omp/main.cpp (the authors'
// hand-mapped version; main_stripped.cpp is the unannotated input).
//
// Each `#pragma omp target teams distribute parallel for collapse(3)` loop
// is a FERRY_KERNEL over a 3-D range (iz = kc.x, iy = kc.y, ix = kc.z, the
// innermost loop fastest; loops starting at 1 add 1 to each id), dispatched
// from the original's launch-wrapper functions (calculateForce, allenCahn,
// boundaryConditionsPhi, thermalEquation, boundaryConditionsU, swapGrid),
// which the time-step loop calls in the same order. The 3-D arrays
// phi[x][y][z] are flattened with the same macros. The volume is reduced
// from 100^3 to 32^3 (the DATA*SIZE macros) so PoCL runs it quickly; the
// device-side swapGrid kernel is kept (it swaps contents, not pointers), and
// phiold/uold alias the host arrays phi_host/u_host through pointers, as in
// the original.
//
//   ace NUM_STEPS      (the while loop runs NUM_STEPS + 1 times)
//
// Bytes the ORIGINAL host code moves at 32^3, NUM_STEPS 4 (doubles,
// vol = 32768, 262144 B an array):
//   target data map(tofrom: d_phiold, d_uold)  in 2 (524288 B), out 2 (524288 B)
//   map(alloc: d_phinew, d_unew, d_Fx, d_Fy, d_Fz)  nothing.
// Whole-buffer optimum of this port: calculateForce reads phiold (host
// initialised): in (1); allenCahn reads uold (host initialised): in (1).
// Fx/Fy/Fz are written whole by calculateForce before allenCahn reads them;
// phinew is written in the interior by allenCahn and on the boundary by
// boundaryConditionsPhi, unew likewise by thermalEquation and
// boundaryConditionsU, before thermalEquation / swapGrid read any element,
// so none of the five device-only arrays ever holds a host value a kernel
// reads. The host prints phi_host and u_host afterwards: out (2). The five
// local arrays are never read on the host. 5 iterations x 7 dispatches = 35.
//   in 2 (524288 B), out 2 (524288 B): equal to the original.
// optimum: to_device 2 to_device_bytes 524288 from_device 2 from_device_bytes 524288
// suite-original: to_device 2 to_device_bytes 524288 from_device 2 from_device_bytes 524288
// ferry-test: args 4
// Ferry: the five device-only fields, never written on the host, are filled
// (zero) for the kernels that write their interiors: fills 5.
// (to_device counts the fills with the copies.)
// ferry-test: to_device 7 to_device_bytes 1835008 from_device 2 from_device_bytes 524288
// ferry-test: fills 5 fill_bytes 1310720
// ferry-test: dispatches 35
#include "Print.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

// define the data set size (cubic volume)
#define DATAXSIZE 32
#define DATAYSIZE 32
#define DATAZSIZE 32

#define SQ(x) ((x) * (x))

// phi[x][y][z] of the original's double[][DATAYSIZE][DATAXSIZE] arrays.
#define IDX(x, y, z) ((((x) * DATAYSIZE) + (y)) * DATAXSIZE + (z))

double dFphi(double phi, double u, double lambda) {
  return (-phi * (1.0 - phi * phi) + lambda * u * (1.0 - phi * phi) * (1.0 - phi * phi));
}

double GradientX(const double *phi, double dx, double /*dy*/, double /*dz*/, int x, int y, int z) {
  return (phi[IDX(x + 1, y, z)] - phi[IDX(x - 1, y, z)]) / (2.0 * dx);
}

double GradientY(const double *phi, double /*dx*/, double dy, double /*dz*/, int x, int y, int z) {
  return (phi[IDX(x, y + 1, z)] - phi[IDX(x, y - 1, z)]) / (2.0 * dy);
}

double GradientZ(const double *phi, double /*dx*/, double /*dy*/, double dz, int x, int y, int z) {
  return (phi[IDX(x, y, z + 1)] - phi[IDX(x, y, z - 1)]) / (2.0 * dz);
}

double Divergence(const double *phix, const double *phiy, const double *phiz,
                  double dx, double dy, double dz, int x, int y, int z) {
  return GradientX(phix, dx, dy, dz, x, y, z) + GradientY(phiy, dx, dy, dz, x, y, z) +
         GradientZ(phiz, dx, dy, dz, x, y, z);
}

double Laplacian(const double *phi, double dx, double dy, double dz, int x, int y, int z) {
  double phixx = (phi[IDX(x + 1, y, z)] + phi[IDX(x - 1, y, z)] - 2.0 * phi[IDX(x, y, z)]) / SQ(dx);
  double phiyy = (phi[IDX(x, y + 1, z)] + phi[IDX(x, y - 1, z)] - 2.0 * phi[IDX(x, y, z)]) / SQ(dy);
  double phizz = (phi[IDX(x, y, z + 1)] + phi[IDX(x, y, z - 1)] - 2.0 * phi[IDX(x, y, z)]) / SQ(dz);
  return phixx + phiyy + phizz;
}

double An(double phix, double phiy, double phiz, double epsilon) {
  if (phix != 0.0 || phiy != 0.0 || phiz != 0.0) {
    return ((1.0 - 3.0 * epsilon) *
            (1.0 + (((4.0 * epsilon) / (1.0 - 3.0 * epsilon)) *
                    ((SQ(phix) * SQ(phix) + SQ(phiy) * SQ(phiy) + SQ(phiz) * SQ(phiz)) /
                     ((SQ(phix) + SQ(phiy) + SQ(phiz)) * (SQ(phix) + SQ(phiy) + SQ(phiz)))))));
  } else {
    return (1.0 - ((5.0 / 3.0) * epsilon));
  }
}

double Wn(double phix, double phiy, double phiz, double epsilon, double W0) {
  return (W0 * An(phix, phiy, phiz, epsilon));
}

double taun(double phix, double phiy, double phiz, double epsilon, double tau0) {
  return tau0 * SQ(An(phix, phiy, phiz, epsilon));
}

double dFunc(double l, double m, double n) {
  if (l != 0.0 || m != 0.0 || n != 0.0) {
    return (((l * l * l * (SQ(m) + SQ(n))) - (l * (SQ(m) * SQ(m) + SQ(n) * SQ(n)))) /
            ((SQ(l) + SQ(m) + SQ(n)) * (SQ(l) + SQ(m) + SQ(n))));
  } else {
    return 0.0;
  }
}

FERRY_KERNEL void calculateForceKernel(ferry::KernelContext kc, const double *phi, double *Fx,
                                       double *Fy, double *Fz, double dx, double dy, double dz,
                                       double epsilon, double W0, double /*tau0*/) {
  const int ix = kc.z, iy = kc.y, iz = kc.x;
  if ((ix < (DATAXSIZE - 1)) && (iy < (DATAYSIZE - 1)) && (iz < (DATAZSIZE - 1)) && (ix > (0)) &&
      (iy > (0)) && (iz > (0))) {
    double phix = GradientX(phi, dx, dy, dz, ix, iy, iz);
    double phiy = GradientY(phi, dx, dy, dz, ix, iy, iz);
    double phiz = GradientZ(phi, dx, dy, dz, ix, iy, iz);
    double sqGphi = SQ(phix) + SQ(phiy) + SQ(phiz);
    double c = 16.0 * W0 * epsilon;
    double w = Wn(phix, phiy, phiz, epsilon, W0);
    double w2 = SQ(w);
    Fx[IDX(ix, iy, iz)] = w2 * phix + sqGphi * w * c * dFunc(phix, phiy, phiz);
    Fy[IDX(ix, iy, iz)] = w2 * phiy + sqGphi * w * c * dFunc(phiy, phiz, phix);
    Fz[IDX(ix, iy, iz)] = w2 * phiz + sqGphi * w * c * dFunc(phiz, phix, phiy);
  } else {
    Fx[IDX(ix, iy, iz)] = 0.0;
    Fy[IDX(ix, iy, iz)] = 0.0;
    Fz[IDX(ix, iy, iz)] = 0.0;
  }
}

void calculateForce(ferry::ComputeContext &cc, ferry::Buffer<double> &phi,
                    ferry::Buffer<double> &Fx, ferry::Buffer<double> &Fy,
                    ferry::Buffer<double> &Fz, double dx, double dy, double dz,
                    double epsilon, double W0, double tau0) {
  cc.dispatch(calculateForceKernel, ferry::Range(DATAZSIZE, DATAYSIZE, DATAXSIZE), phi, Fx, Fy,
              Fz, dx, dy, dz, epsilon, W0, tau0);
}

FERRY_KERNEL void allenCahnKernel(ferry::KernelContext kc, double *phinew, const double *phiold,
                                  const double *uold, const double *Fx, const double *Fy,
                                  const double *Fz, double epsilon, double /*W0*/, double tau0,
                                  double lambda, double dt, double dx, double dy, double dz) {
  const int ix = kc.z + 1, iy = kc.y + 1, iz = kc.x + 1;
  double phix = GradientX(phiold, dx, dy, dz, ix, iy, iz);
  double phiy = GradientY(phiold, dx, dy, dz, ix, iy, iz);
  double phiz = GradientZ(phiold, dx, dy, dz, ix, iy, iz);
  phinew[IDX(ix, iy, iz)] =
      phiold[IDX(ix, iy, iz)] +
      (dt / taun(phix, phiy, phiz, epsilon, tau0)) *
          (Divergence(Fx, Fy, Fz, dx, dy, dz, ix, iy, iz) -
           dFphi(phiold[IDX(ix, iy, iz)], uold[IDX(ix, iy, iz)], lambda));
}

void allenCahn(ferry::ComputeContext &cc, ferry::Buffer<double> &phinew,
               ferry::Buffer<double> &phiold, ferry::Buffer<double> &uold,
               ferry::Buffer<double> &Fx, ferry::Buffer<double> &Fy, ferry::Buffer<double> &Fz,
               double epsilon, double W0, double tau0, double lambda, double dt, double dx,
               double dy, double dz) {
  cc.dispatch(allenCahnKernel, ferry::Range(DATAZSIZE - 2, DATAYSIZE - 2, DATAXSIZE - 2), phinew,
              phiold, uold, Fx, Fy, Fz, epsilon, W0, tau0, lambda, dt, dx, dy, dz);
}

FERRY_KERNEL void boundaryConditionsPhiKernel(ferry::KernelContext kc, double *phinew) {
  const int ix = kc.z, iy = kc.y, iz = kc.x;
  if (ix == 0) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  } else if (ix == DATAXSIZE - 1) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  } else if (iy == 0) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  } else if (iy == DATAYSIZE - 1) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  } else if (iz == 0) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  } else if (iz == DATAZSIZE - 1) {
    phinew[IDX(ix, iy, iz)] = -1.0;
  }
}

void boundaryConditionsPhi(ferry::ComputeContext &cc, ferry::Buffer<double> &phinew) {
  cc.dispatch(boundaryConditionsPhiKernel, ferry::Range(DATAZSIZE, DATAYSIZE, DATAXSIZE), phinew);
}

FERRY_KERNEL void thermalEquationKernel(ferry::KernelContext kc, double *unew, const double *uold,
                                        const double *phinew, const double *phiold, double D,
                                        double dt, double dx, double dy, double dz) {
  const int ix = kc.z + 1, iy = kc.y + 1, iz = kc.x + 1;
  unew[IDX(ix, iy, iz)] = uold[IDX(ix, iy, iz)] +
                          0.5 * (phinew[IDX(ix, iy, iz)] - phiold[IDX(ix, iy, iz)]) +
                          dt * D * Laplacian(uold, dx, dy, dz, ix, iy, iz);
}

void thermalEquation(ferry::ComputeContext &cc, ferry::Buffer<double> &unew,
                     ferry::Buffer<double> &uold, ferry::Buffer<double> &phinew,
                     ferry::Buffer<double> &phiold, double D, double dt, double dx, double dy,
                     double dz) {
  cc.dispatch(thermalEquationKernel, ferry::Range(DATAZSIZE - 2, DATAYSIZE - 2, DATAXSIZE - 2),
              unew, uold, phinew, phiold, D, dt, dx, dy, dz);
}

FERRY_KERNEL void boundaryConditionsUKernel(ferry::KernelContext kc, double *unew, double delta) {
  const int ix = kc.z, iy = kc.y, iz = kc.x;
  if (ix == 0) {
    unew[IDX(ix, iy, iz)] = -delta;
  } else if (ix == DATAXSIZE - 1) {
    unew[IDX(ix, iy, iz)] = -delta;
  } else if (iy == 0) {
    unew[IDX(ix, iy, iz)] = -delta;
  } else if (iy == DATAYSIZE - 1) {
    unew[IDX(ix, iy, iz)] = -delta;
  } else if (iz == 0) {
    unew[IDX(ix, iy, iz)] = -delta;
  } else if (iz == DATAZSIZE - 1) {
    unew[IDX(ix, iy, iz)] = -delta;
  }
}

void boundaryConditionsU(ferry::ComputeContext &cc, ferry::Buffer<double> &unew, double delta) {
  cc.dispatch(boundaryConditionsUKernel, ferry::Range(DATAZSIZE, DATAYSIZE, DATAXSIZE), unew,
              delta);
}

FERRY_KERNEL void swapGridKernel(ferry::KernelContext kc, double *cnew, double *cold) {
  const int ix = kc.z, iy = kc.y, iz = kc.x;
  double tmp = cnew[IDX(ix, iy, iz)];
  cnew[IDX(ix, iy, iz)] = cold[IDX(ix, iy, iz)];
  cold[IDX(ix, iy, iz)] = tmp;
}

void swapGrid(ferry::ComputeContext &cc, ferry::Buffer<double> &cnew, ferry::Buffer<double> &cold) {
  cc.dispatch(swapGridKernel, ferry::Range(DATAZSIZE, DATAYSIZE, DATAXSIZE), cnew, cold);
}

// Host initialisation (the original's `omp parallel for` loops on the host).
void initializationPhi(ferry::Buffer<double> &phi, double r0) {
  for (int ix = 0; ix < DATAXSIZE; ix++) {
    for (int iy = 0; iy < DATAYSIZE; iy++) {
      for (int iz = 0; iz < DATAZSIZE; iz++) {
        double r = std::sqrt(SQ(ix - 0.5 * DATAXSIZE) + SQ(iy - 0.5 * DATAYSIZE) +
                             SQ(iz - 0.5 * DATAZSIZE));
        if (r < r0) {
          phi[IDX(ix, iy, iz)] = 1.0;
        } else {
          phi[IDX(ix, iy, iz)] = -1.0;
        }
      }
    }
  }
}

void initializationU(ferry::Buffer<double> &u, double r0, double delta) {
  for (int ix = 0; ix < DATAXSIZE; ix++) {
    for (int iy = 0; iy < DATAYSIZE; iy++) {
      for (int iz = 0; iz < DATAZSIZE; iz++) {
        double r = std::sqrt(SQ(ix - 0.5 * DATAXSIZE) + SQ(iy - 0.5 * DATAYSIZE) +
                             SQ(iz - 0.5 * DATAZSIZE));
        if (r < r0) {
          u[IDX(ix, iy, iz)] = 0.0;
        } else {
          u[IDX(ix, iy, iz)] = -delta * (1.0 - std::exp(-(r - r0)));
        }
      }
    }
  }
}

// The original's target data region: phiold/uold are the host arrays, the
// other five are device-only storage.
FERRY_COMPUTE void offload(ferry::ComputeContext &cc, ferry::Buffer<double> &phi_host,
                           ferry::Buffer<double> &u_host, int num_steps, int vol, double dx,
                           double dy, double dz, double dt, double delta, double epsilon,
                           double W0, double D, double lambda, double tau0) {
  ferry::Buffer<double> *d_phiold = &phi_host;
  ferry::Buffer<double> *d_uold = &u_host;
  ferry::Buffer<double> d_phinew(vol);
  ferry::Buffer<double> d_unew(vol);
  ferry::Buffer<double> d_Fx(vol);
  ferry::Buffer<double> d_Fy(vol);
  ferry::Buffer<double> d_Fz(vol);

  int t = 0;
  while (t <= num_steps) {
    calculateForce(cc, *d_phiold, d_Fx, d_Fy, d_Fz, dx, dy, dz, epsilon, W0, tau0);

    allenCahn(cc, d_phinew, *d_phiold, *d_uold, d_Fx, d_Fy, d_Fz, epsilon, W0, tau0, lambda, dt,
              dx, dy, dz);

    boundaryConditionsPhi(cc, d_phinew);

    thermalEquation(cc, d_unew, *d_uold, d_phinew, *d_phiold, D, dt, dx, dy, dz);

    boundaryConditionsU(cc, d_unew, delta);

    swapGrid(cc, d_phinew, *d_phiold);

    swapGrid(cc, d_unew, *d_uold);

    t++;
  }
}

int main(int argc, char *argv[]) {
  const int num_steps = argc > 1 ? atoi(argv[1]) : 4;
  const double dx = 0.4;
  const double dy = 0.4;
  const double dz = 0.4;
  const double dt = 0.01;
  const double delta = 0.8;
  const double r0 = 5.0;
  const double epsilon = 0.07;
  const double W0 = 1.0;
  const double beta0 = 0.0;
  const double D = 2.0;
  const double d0 = 0.5;
  const double a1 = 1.25 / std::sqrt(2.0);
  const double a2 = 0.64;
  const double lambda = (W0 * a1) / (d0);
  const double tau0 = ((W0 * W0 * W0 * a1 * a2) / (d0 * D)) + ((W0 * W0 * beta0) / (d0));

  // overall data set sizes
  const int nx = DATAXSIZE;
  const int ny = DATAYSIZE;
  const int nz = DATAZSIZE;
  const int vol = nx * ny * nz;

  // storage for result stored on host
  ferry::Buffer<double> phi_host(vol);
  ferry::Buffer<double> u_host(vol);
  initializationPhi(phi_host, r0);
  initializationU(u_host, r0, delta);

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    offload(cc, phi_host, u_host, num_steps, vol, dx, dy, dz, dt, delta, epsilon, W0, D, lambda,
            tau0);
  });

  std::printf("ace %dx%dx%d, %d steps\n", nx, ny, nz, num_steps);
  printApprox("phi", phi_host);
  printApprox("u", u_host);
  return 0;
}
