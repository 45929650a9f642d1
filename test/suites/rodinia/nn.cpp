// Rodinia nn (nearest neighbours), OpenCL version, written anew in Ferry's
// dialect. Original: github.com/yuhc/gpu-rodinia, opencl/nn/
// nearestNeighbor.cpp (main, OpenClFindNearestNeighbors, findLowest),
// nearestNeighbor.h and nearestNeighbor_kernel.cl (NearestNeighbor).
//
// The locations arrive in a std::vector<LatLong> (read from hurricane files
// in the original, generated here) and are copied into the device buffer;
// the kernel writes each record's distance through pointers into the
// buffers (latLong = d_locations + globalId, dist = d_distances +
// globalId) over a range padded to a multiple of 64; the launch function
// returns a malloc'd array of distances, and findLowest selects the
// closest records on the host. (The original's swap in findLowest copies a
// record through a pointer to itself, so it duplicates instead of swapping;
// kept.)
//
//   nn [RECORDS RESULTS LAT LNG]
//
// Bytes the ORIGINAL host code moves at 1000 records (LatLong is 8 B):
//   clEnqueueWriteBuffer d_locations 1000*8 = 8000
//   clEnqueueReadBuffer  d_distances 1000*4 = 4000
//   in 1 (8000 B), out 1 (4000 B).
// Whole-buffer optimum: the locations are host-written and read: in 1.
// The distances are written at every record (guard globalId < numRecords)
// and read by the host: out 1. Nothing else.
//   in 1 (8000 B), out 1 (4000 B), 1 dispatch: the original.
// suite-original: to_device 1 to_device_bytes 8000 from_device 1 from_device_bytes 4000
// ferry-test: args 1000 10 30 90
// ferry-test: to_device 1 to_device_bytes 8000 from_device 1 from_device_bytes 4000
// ferry-test: dispatches 1
#include "Print.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define REC_LENGTH 53

typedef struct latLong {
  float lat;
  float lng;
} LatLong;

typedef struct record {
  char recString[REC_LENGTH];
  float distance;
} Record;

FERRY_KERNEL void NearestNeighbor(ferry::KernelContext kc, LatLong *d_locations,
                                  float *d_distances, const int numRecords, const float lat,
                                  const float lng) {
  int globalId = kc.x;
  if (globalId < numRecords) {
    LatLong *latLong = d_locations + globalId;
    float *dist = d_distances + globalId;
    *dist = (float)std::sqrt((lat - latLong->lat) * (lat - latLong->lat) +
                             (lng - latLong->lng) * (lng - latLong->lng));
  }
}

FERRY_COMPUTE float *OpenClFindNearestNeighbors(ferry::ComputeContext &cc, int numRecords,
                                                std::vector<LatLong> &locations, float lat,
                                                float lng) {
  ferry::Buffer<LatLong> d_locations(numRecords);
  ferry::Buffer<float> d_distances(numRecords);
  std::copy(locations.begin(), locations.end(), d_locations.begin());
  int globalWorkSize = numRecords;
  if (numRecords % 64)
    globalWorkSize += 64 - (numRecords % 64);
  cc.dispatch(NearestNeighbor, ferry::Range(globalWorkSize), d_locations, d_distances,
              numRecords, lat, lng);
  float *distances = (float *)std::malloc(sizeof(float) * numRecords);
  std::copy(d_distances.begin(), d_distances.end(), distances);
  return distances;
}

void findLowest(std::vector<Record> &records, float *distances, int numRecords, int topN) {
  int i, j;
  float val;
  int minLoc;
  Record *tempRec;
  float tempDist;
  for (i = 0; i < topN; i++) {
    minLoc = i;
    for (j = i; j < numRecords; j++) {
      val = distances[j];
      if (val < distances[minLoc])
        minLoc = j;
    }
    tempRec = &records[i];
    records[i] = records[minLoc];
    records[minLoc] = *tempRec;
    tempDist = distances[i];
    distances[i] = distances[minLoc];
    distances[minLoc] = tempDist;
    records[i].distance = distances[i];
  }
}

int main(int argc, char **argv) {
  const int numRecords = argc > 1 ? std::atoi(argv[1]) : 1000;
  int resultsCount = argc > 2 ? std::atoi(argv[2]) : 10;
  const float lat = argc > 3 ? static_cast<float>(std::atof(argv[3])) : 30.0f;
  const float lng = argc > 4 ? static_cast<float>(std::atof(argv[4])) : 90.0f;
  std::vector<Record> records(numRecords);
  std::vector<LatLong> locations(numRecords);
  for (int i = 0; i < numRecords; i++) {
    locations[i].lat = static_cast<float>((i * 37) % 61) + 0.5f * static_cast<float>(i % 2);
    locations[i].lng = static_cast<float>(60 + (i * 53) % 59);
    std::snprintf(records[i].recString, REC_LENGTH, "rec %4d: %5.1f %5.1f", i,
                  locations[i].lat, locations[i].lng);
    records[i].distance = 0.0f;
  }
  std::printf("Number of records: %d\n", numRecords);
  std::printf("Finding the %d closest neighbors.\n", resultsCount);
  if (resultsCount > numRecords)
    resultsCount = numRecords;
  float *recordDistances = nullptr;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    recordDistances = OpenClFindNearestNeighbors(cc, numRecords, locations, lat, lng);
  });
  findLowest(records, recordDistances, numRecords, resultsCount);
  for (int i = 0; i < resultsCount; i++) {
    std::printf("%s --> Distance=", records[i].recString);
    printRounded(records[i].distance);
    std::printf("\n");
  }
  std::free(recordDistances);
}
