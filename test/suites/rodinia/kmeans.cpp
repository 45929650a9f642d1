// Rodinia kmeans, OpenCL version, written anew in Ferry's dialect.
// Original: github.com/yuhc/gpu-rodinia, opencl/kmeans/kmeans.cpp (host:
// allocate, kmeansOCL), kmeans.cl (kmeans_kernel_c, kmeans_swap),
// kmeans_clustering.c (the convergence loop) and cluster.c (the sweep over
// cluster counts).
//
// allocate() copies the row-major features (a std::vector here) into
// d_feature and transposes them into d_feature_swap with kmeans_swap.
// kmeans_clustering() seeds the centres with the first nclusters points,
// then loops: kmeansOCL() copies the centres into d_cluster, runs
// kmeans_kernel_c (nearest centre per point), reads d_membership back, and
// the host accumulates the new centres; until no point moves (delta <=
// threshold) or 500 loops. cluster() sweeps nclusters from min to max
// (here 5..5, the original's defaults) with nloops = 1. Features are small
// integers; the first centres are points, so the first distances are
// exact.
//
//   kmeans [NPOINTS NFEATURES NCLUSTERS]
//
// At 1024 points x 8 features, 5 clusters, the loop runs C = 2 times (as
// printed: "iterated 2 times"). Bytes the ORIGINAL host code moves:
//   allocate:  clEnqueueWriteBuffer d_feature 1024*8*4 = 32768
//   per loop:  clEnqueueWriteBuffer d_cluster 5*8*4 = 160,
//              clEnqueueReadBuffer d_membership 1024*4 = 4096
//   in 1 + 2 = 3 (32768 + 320 = 33088 B), out 2 (8192 B).
// Whole-buffer optimum for this port: d_feature is host-written (std::copy)
// and read by kmeans_swap: in 1. d_feature_swap is fully written by
// kmeans_swap (feature_swap[i * npoints + tid] for every i of the row loop,
// under tid < npoints): no copy. d_cluster is rewritten by the host before
// each kernel: in C = 2. d_membership is fully written (membership[point_id]
// under point_id < npoints) and read by the host after each kernel: out 2.
// The buffers are local to cluster(), so nothing else goes home.
//   in 3 (33088 B), out 2 (8192 B), 1 + 2 = 3 dispatches: the original.
// The kernels keep the original's unsigned ids; the guards compare against
// (unsigned)npoints (the original's signed/unsigned compare does not build
// under -Werror=sign-compare).
// suite-original: to_device 3 to_device_bytes 33088 from_device 2 from_device_bytes 8192
// ferry-test: args 1024 8 5
// ferry-test: to_device 3 to_device_bytes 33088 from_device 2 from_device_bytes 8192
// ferry-test: dispatches 3
#include "Print.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#ifndef FLT_MAX
#define FLT_MAX 3.40282347e+38
#endif

FERRY_KERNEL void kmeans_kernel_c(ferry::KernelContext kc, float *feature,
                                  float *clusters, int *membership, int npoints,
                                  int nclusters, int nfeatures, int offset,
                                  int size) {
  (void)offset; // unused, as in the original
  (void)size;
  unsigned int point_id = kc.x;
  int index = 0;
  if (point_id < (unsigned)npoints) {
    float min_dist = FLT_MAX;
    for (int i = 0; i < nclusters; i++) {
      float dist = 0;
      float ans = 0;
      for (int l = 0; l < nfeatures; l++) {
        ans += (feature[l * npoints + point_id] - clusters[i * nfeatures + l]) *
               (feature[l * npoints + point_id] - clusters[i * nfeatures + l]);
      }
      dist = ans;
      if (dist < min_dist) {
        min_dist = dist;
        index = i;
      }
    }
    membership[point_id] = index;
  }
}

FERRY_KERNEL void kmeans_swap(ferry::KernelContext kc, float *feature,
                              float *feature_swap, int npoints, int nfeatures) {
  unsigned int tid = kc.x;
  if (tid < (unsigned)npoints) {
    for (int i = 0; i < nfeatures; i++)
      feature_swap[i * npoints + tid] = feature[tid * nfeatures + i];
  }
}

// The original's allocate(): upload the features and transpose them.
void allocate(ferry::ComputeContext &cc, int n_points, int n_features,
              const std::vector<float> &feature, ferry::Buffer<float> &d_feature,
              ferry::Buffer<float> &d_feature_swap) {
  std::copy(feature.begin(), feature.end(), d_feature.begin());
  cc.dispatch(kmeans_swap, ferry::Range(n_points), d_feature, d_feature_swap,
              n_points, n_features);
}

// The original's kmeansOCL(): one assignment step; returns how many points
// moved and accumulates the new centres on the host.
int kmeansOCL(ferry::ComputeContext &cc, const std::vector<float> &feature,
              int n_features, int n_points, int n_clusters, int *membership,
              std::vector<float> &clusters, int *new_centers_len,
              std::vector<float> &new_centers, ferry::Buffer<float> &d_feature_swap,
              ferry::Buffer<float> &d_cluster, ferry::Buffer<int> &d_membership) {
  int delta = 0;
  std::copy(clusters.begin(), clusters.end(), d_cluster.begin());
  int size = 0;
  int offset = 0;
  cc.dispatch(kmeans_kernel_c, ferry::Range(n_points), d_feature_swap, d_cluster,
              d_membership, n_points, n_clusters, n_features, offset, size);
  delta = 0;
  for (int i = 0; i < n_points; i++) {
    int cluster_id = d_membership[i];
    new_centers_len[cluster_id]++;
    if (d_membership[i] != membership[i]) {
      delta++;
      membership[i] = d_membership[i];
    }
    for (int j = 0; j < n_features; j++)
      new_centers[cluster_id * n_features + j] += feature[i * n_features + j];
  }
  return delta;
}

std::vector<float> kmeans_clustering(ferry::ComputeContext &cc,
                                     const std::vector<float> &feature,
                                     int nfeatures, int npoints, int nclusters,
                                     float threshold, int *membership,
                                     ferry::Buffer<float> &d_feature_swap,
                                     ferry::Buffer<float> &d_cluster,
                                     ferry::Buffer<int> &d_membership) {
  int loop = 0;
  float delta;
  if (nclusters > npoints)
    nclusters = npoints;
  std::vector<float> clusters(nclusters * nfeatures);
  std::vector<int> initial(npoints);
  for (int i = 0; i < npoints; i++)
    initial[i] = i;
  int initial_points = npoints;
  int n = 0;
  for (int i = 0; i < nclusters && initial_points >= 0; i++) {
    for (int j = 0; j < nfeatures; j++)
      clusters[i * nfeatures + j] = feature[initial[n] * nfeatures + j];
    int temp = initial[n];
    initial[n] = initial[initial_points - 1];
    initial[initial_points - 1] = temp;
    initial_points--;
    n++;
  }
  for (int i = 0; i < npoints; i++)
    membership[i] = -1;
  std::vector<int> new_centers_len(nclusters, 0);
  std::vector<float> new_centers(nclusters * nfeatures, 0.0f);
  int c = 0;
  do {
    delta = 0.0;
    delta = (float)kmeansOCL(cc, feature, nfeatures, npoints, nclusters,
                             membership, clusters, new_centers_len.data(),
                             new_centers, d_feature_swap, d_cluster, d_membership);
    for (int i = 0; i < nclusters; i++) {
      for (int j = 0; j < nfeatures; j++) {
        if (new_centers_len[i] > 0)
          clusters[i * nfeatures + j] =
              new_centers[i * nfeatures + j] / new_centers_len[i];
        new_centers[i * nfeatures + j] = 0.0;
      }
      new_centers_len[i] = 0;
    }
    c++;
  } while ((delta > threshold) && (loop++ < 500));
  std::printf("iterated %d times\n", c);
  return clusters;
}

FERRY_COMPUTE void cluster(ferry::ComputeContext &cc, int npoints, int nfeatures,
                           const std::vector<float> &features, int min_nclusters,
                           int max_nclusters, float threshold,
                           std::vector<float> &cluster_centres, int nloops,
                           std::vector<int> &membership) {
  ferry::Buffer<float> d_feature(npoints * nfeatures);
  ferry::Buffer<float> d_feature_swap(npoints * nfeatures);
  ferry::Buffer<int> d_membership(npoints);
  for (int nclusters = min_nclusters; nclusters <= max_nclusters; nclusters++) {
    if (nclusters > npoints)
      break;
    ferry::Buffer<float> d_cluster(nclusters * nfeatures);
    allocate(cc, npoints, nfeatures, features, d_feature, d_feature_swap);
    for (int i = 0; i < nloops; i++) {
      cluster_centres = kmeans_clustering(cc, features, nfeatures, npoints,
                                          nclusters, threshold, membership.data(),
                                          d_feature_swap, d_cluster, d_membership);
    }
  }
}

int main(int argc, char **argv) {
  const int npoints = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int nfeatures = argc > 2 ? std::atoi(argv[2]) : 8;
  const int nclusters = argc > 3 ? std::atoi(argv[3]) : 5;
  // The original reads the points from a file; here small integers in five
  // loose groups.
  std::vector<float> features(npoints * nfeatures);
  for (int i = 0; i < npoints; ++i)
    for (int j = 0; j < nfeatures; ++j)
      features[i * nfeatures + j] =
          static_cast<float>(((i * 7) % 5) * 10 + (i * 13 + j * 5) % 7);
  std::vector<float> centres;
  std::vector<int> membership(npoints);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    cluster(cc, npoints, nfeatures, features, nclusters, nclusters, 0.001f,
            centres, 1, membership);
  });
  std::printf("kmeans %d points, %d features, %d clusters\n", npoints, nfeatures,
              nclusters);
  printApprox("centres", centres.data(), centres.size());
  long long sum = 0;
  for (int i = 0; i < npoints; ++i)
    sum = (sum * 31 + membership[i]) % 1000000007;
  std::printf("membership: %d %d %d %d check=%lld\n", membership[0], membership[1],
              membership[2], membership[3], sum);
}
