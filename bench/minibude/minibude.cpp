// miniBUDE's `fasten` kernel (the energies of a ligand docked to a protein
// in many poses), written for Ferry from the description of
// UoB-HPC/miniBUDE's OpenCL version, to be run beside that original
// (bench/targets.sh): the same input deck (bm1: 65536 poses, 938 protein
// atoms, 26 ligand atoms, 34 force-field types), the same poses per
// work-item (PPWI) and work-group sizes, timing and validation.
//
//   minibude [--deck DIR] [-i ITER] [-n POSES] [-p PPWI,...] [-w WGSIZE,...]
//            [--csv] [--validate-only]
//     --deck DIR   ligand.in, protein.in, forcefield.in, poses.in and
//                  ref_energies.out (default ../data/bm1, as the original)
//     -i ITER      timed runs of the kernel per setting (default 8), after
//                  2 untimed ones
//     -n POSES     only the first POSES poses (default 0: all of them)
//     -p PPWI,...  poses per work-item: 1, 2, 4, 8, 16 (default 1); each is
//                  an instantiation of the kernel template
//     -w WGSIZE,.. work-group sizes (default 64); a setting whose
//                  PPWI x WGSIZE does not divide POSES is skipped, as the
//                  original does
//     --csv        one CSV row per setting, the original's columns
//     --validate-only   only the validation's verdict per setting (the ctest
//                  compares this output between the reference execution
//                  and the rewritten program)
//
// Each work-item computes PPWI poses that lie a group apart (pose
// g*WGSIZE*PPWI + l + i*WGSIZE for i < PPWI), so that a group's loads of the
// pose arrays are contiguous; the force-field table is copied into local
// memory by the group first. Like the original it takes reciprocals and
// square roots with native math (ferry::native::recip and sqrt, an
// extension of issue 31); the original's fast-math build options are
// FERRY_FAST_MATH=1 (bench/targets.sh runs the port both ways).
//
// Each run is timed on the host clock around the dispatch and a wait for
// the device (`cc.finish()`), as the original times its runs. Validation is
// the original's: every energy whose magnitude or reference's is at least 1
// within 0.025 % of ref_energies.out (relative to the reference's
// magnitude here, where the original divides by the signed reference);
// failures are reported on standard error and the program exits with 1.
//
// The ctest (bench/CMakeLists.txt) runs the first 128 poses of bm1 with
// every PPWI, in groups of 8 and 16, on PoCL and in the reference execution.
// ferry-test: args -n 128 -i 1 -p 1,2,4,8,16 -w 8,16 --validate-only
#include <ferry/ferry.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

// The deck read when --deck is not given: the original's default, or the
// test's (bench/CMakeLists.txt).
#ifndef MINIBUDE_DECK
#define MINIBUDE_DECK "../data/bm1"
#endif

struct Atom {
  float x, y, z;
  int type;
};

struct FFParams {
  int hbtype;
  float radius;
  float hphb;
  float elsc;
};

constexpr int kHbtypeF = 70;
constexpr int kHbtypeE = 69;
constexpr float kHardness = 38.0f;
constexpr float kNpnpDist = 5.5f;
constexpr float kNppDist = 1.0f;
constexpr float kCnstnt = 45.0f;
constexpr float kFloatMax = 3.40282347e+38f;

// Range(poses / PPWI).local(WGSIZE).
template <int PPWI>
FERRY_KERNEL void fasten(ferry::KernelContext kc,
                         ferry::LocalSpan<FFParams> types, int ntypes,
                         int nposes, int natlig, int natpro,
                         const Atom *protein, const Atom *ligand,
                         const FFParams *forcefield, const float *poses,
                         FERRY_WO float *energies) {
  const int groupSize = kc.localSizeX;
  const int first = kc.groupX * groupSize * PPWI + kc.localX;

  for (int t = kc.localX; t < ntypes; t += groupSize)
    types[t] = forcefield[t];

  // Each pose's rotation (rows 0-2, columns 0-2) and translation (column 3).
  float rot[PPWI][3][4];
  float energy[PPWI];
  for (int i = 0; i < PPWI; ++i) {
    int pose = first + i * groupSize;
    // Work-items past the last pose (none where PPWI x WGSIZE divides the
    // poses) compute the last one again: all must reach the barrier.
    pose = pose < nposes ? pose : nposes - 1;
    const float sx = std::sin(poses[pose]);
    const float cx = std::cos(poses[pose]);
    const float sy = std::sin(poses[nposes + pose]);
    const float cy = std::cos(poses[nposes + pose]);
    const float sz = std::sin(poses[2 * nposes + pose]);
    const float cz = std::cos(poses[2 * nposes + pose]);
    rot[i][0][0] = cy * cz;
    rot[i][0][1] = sx * sy * cz - cx * sz;
    rot[i][0][2] = cx * sy * cz + sx * sz;
    rot[i][0][3] = poses[3 * nposes + pose];
    rot[i][1][0] = cy * sz;
    rot[i][1][1] = sx * sy * sz + cx * cz;
    rot[i][1][2] = cx * sy * sz - sx * cz;
    rot[i][1][3] = poses[4 * nposes + pose];
    rot[i][2][0] = -sy;
    rot[i][2][1] = sx * cy;
    rot[i][2][2] = cx * cy;
    rot[i][2][3] = poses[5 * nposes + pose];
    energy[i] = 0.0f;
  }
  kc.barrier();

  for (int il = 0; il < natlig; ++il) {
    const Atom lig = ligand[il];
    const FFParams lp = types[lig.type];
    const bool ligNegative = lp.hphb < 0.0f;
    const bool ligPositive = lp.hphb > 0.0f;

    // The ligand atom moved into each pose.
    float pos[PPWI][3];
    for (int i = 0; i < PPWI; ++i)
      for (int r = 0; r < 3; ++r)
        pos[i][r] = rot[i][r][3] + lig.x * rot[i][r][0] +
                    lig.y * rot[i][r][1] + lig.z * rot[i][r][2];

    for (int ip = 0; ip < natpro; ++ip) {
      const Atom pro = protein[ip];
      const FFParams pp = types[pro.type];

      const float radij = pp.radius + lp.radius;
      const float invRadij = ferry::native::recip(radij);
      const bool bothF = pp.hbtype == kHbtypeF && lp.hbtype == kHbtypeF;
      const float elcdst = bothF ? 4.0f : 2.0f;
      const float elcdst1 = bothF ? 0.25f : 0.5f;
      const bool typeE = pp.hbtype == kHbtypeE || lp.hbtype == kHbtypeE;

      const bool proNegative = pp.hphb < 0.0f;
      const bool proPositive = pp.hphb > 0.0f;
      const bool proNonzero = pp.hphb != 0.0f;
      const float proHphb = pp.hphb * (proNegative && ligPositive ? -1.0f : 1.0f);
      const float ligHphb = lp.hphb * (proPositive && ligNegative ? -1.0f : 1.0f);
      const float distdslv =
          proNegative ? (ligNegative ? kNpnpDist : kNppDist)
                      : (ligNegative ? kNppDist : -kFloatMax);
      const float invDistdslv = ferry::native::recip(distdslv);
      const float chargeInit = lp.elsc * pp.elsc;
      const float desolvInit = proHphb + ligHphb;

      for (int i = 0; i < PPWI; ++i) {
        const float dx = pos[i][0] - pro.x;
        const float dy = pos[i][1] - pro.y;
        const float dz = pos[i][2] - pro.z;
        const float distij = ferry::native::sqrt(dx * dx + dy * dy + dz * dz);
        const float distbb = distij - radij;
        const bool zone1 = distbb < 0.0f;

        // Steric clash.
        energy[i] += (1.0f - distij * invRadij) * (zone1 ? 2.0f * kHardness : 0.0f);

        // Formal and dipole charges.
        float charge = chargeInit * ((zone1 ? 1.0f : 1.0f - distbb * elcdst1) *
                                     (distbb < elcdst ? 1.0f : 0.0f));
        charge = typeE ? -std::fabs(charge) : charge;
        energy[i] += charge * kCnstnt;

        // Non-polar / polar desolvation.
        const float coeff = 1.0f - distbb * invDistdslv;
        float desolv = desolvInit * ((distbb < distdslv && proNonzero) ? 1.0f : 0.0f);
        desolv *= zone1 ? 1.0f : coeff;
        energy[i] += desolv;
      }
    }
  }

  for (int i = 0; i < PPWI; ++i) {
    const int pose = first + i * groupSize;
    if (pose < nposes)
      energies[pose] = energy[i] * 0.5f;
  }
}

using Clock = std::chrono::steady_clock;

// The instantiations a run may choose from, one dispatch for them all (a
// kernel chosen at run time: Ferry emits each and names the one chosen).
using Fasten = void (*)(ferry::KernelContext, ferry::LocalSpan<FFParams>, int,
                        int, int, int, const Atom *, const Atom *,
                        const FFParams *, const float *, float *);
constexpr Fasten fastens[] = {fasten<1>, fasten<2>, fasten<4>, fasten<8>,
                              fasten<16>};

// The index in `fastens` of PPWI 1, 2, 4, 8 or 16.
static int ppwiIndex(int ppwi) {
  int index = 0;
  while (index < 4 && (1 << index) < ppwi)
    ++index;
  return index;
}

// Runs the kernel `runs` times with PPWI `ppwi` in groups of `groupSize`,
// the host-clock milliseconds of each run in `ms`, the energies of the last
// in `out`.
FERRY_COMPUTE void dock(ferry::ComputeContext &cc, ferry::Buffer<Atom> &protein,
                        ferry::Buffer<Atom> &ligand,
                        ferry::Buffer<FFParams> &forcefield,
                        ferry::Buffer<float> &poses, int nposes, int ppwi,
                        int groupSize, int runs, std::vector<double> &ms,
                        std::vector<float> &out) {
  const int ntypes = int(forcefield.size());
  const int natlig = int(ligand.size());
  const int natpro = int(protein.size());
  ferry::Buffer<float> energies(nposes);
  const ferry::Range range = ferry::Range(nposes / ppwi).local(groupSize);
  const int which = ppwiIndex(ppwi);
  for (int run = 0; run < runs; ++run) {
    const Clock::time_point start = Clock::now();
    cc.dispatch(fastens[which], range,
                ferry::localSpan<FFParams>(ntypes), ntypes, nposes, natlig,
                natpro, protein, ligand, forcefield, poses, energies);
    cc.finish();
    ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  out.assign(energies.begin(), energies.end());
}

template <typename T> static std::vector<T> readRecords(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "minibude: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<T> records(bytes.size() / sizeof(T));
  std::copy(bytes.begin(), bytes.begin() + records.size() * sizeof(T),
            reinterpret_cast<char *>(records.data()));
  return records;
}

static bool parseList(const std::string &text, std::vector<int> &out) {
  out.clear();
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char *end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v <= 0 || v > 65536)
      return false;
    out.push_back(int(v));
  }
  return !out.empty();
}

int main(int argc, char **argv) {
  std::string deck = MINIBUDE_DECK;
  long iterations = 8, wanted = 0;
  const int warmups = 2;
  std::vector<int> ppwis{1}, groupSizes{64};
  bool csv = false, validateOnly = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool more = i + 1 < argc;
    if (arg == "--deck" && more) {
      deck = argv[++i];
    } else if ((arg == "-i" || arg == "--iter") && more) {
      iterations = std::strtol(argv[++i], nullptr, 10);
    } else if ((arg == "-n" || arg == "--poses") && more) {
      wanted = std::strtol(argv[++i], nullptr, 10);
    } else if ((arg == "-p" || arg == "--ppwi") && more) {
      if (!parseList(argv[++i], ppwis) ||
          std::any_of(ppwis.begin(), ppwis.end(), [](int p) {
            return p != 1 && p != 2 && p != 4 && p != 8 && p != 16;
          })) {
        std::fprintf(stderr, "minibude: PPWI must be among 1,2,4,8,16\n");
        return 1;
      }
    } else if ((arg == "-w" || arg == "--wgsize") && more) {
      if (!parseList(argv[++i], groupSizes)) {
        std::fprintf(stderr, "minibude: bad work-group sizes\n");
        return 1;
      }
    } else if (arg == "--csv") {
      csv = true;
    } else if (arg == "--validate-only") {
      validateOnly = true;
    } else {
      std::fprintf(stderr, "usage: minibude [--deck DIR] [-i ITER] [-n POSES] "
                           "[-p PPWI,...] [-w WGSIZE,...] [--csv] [--validate-only]\n");
      return 1;
    }
  }
  if (iterations < 1 || wanted < 0) {
    std::fprintf(stderr, "minibude: bad iterations or poses\n");
    return 1;
  }

  const std::vector<Atom> ligandIn = readRecords<Atom>(deck + "/ligand.in");
  const std::vector<Atom> proteinIn = readRecords<Atom>(deck + "/protein.in");
  const std::vector<FFParams> forcefieldIn =
      readRecords<FFParams>(deck + "/forcefield.in");
  const std::vector<float> posesIn = readRecords<float>(deck + "/poses.in");
  if (posesIn.size() % 6 != 0) {
    std::fprintf(stderr, "minibude: poses.in does not hold 6 arrays\n");
    return 1;
  }
  const long maxPoses = long(posesIn.size() / 6);
  const long nposes = wanted == 0 ? maxPoses : wanted;
  std::vector<float> reference;
  {
    std::ifstream in(deck + "/ref_energies.out");
    std::string line;
    while (std::getline(in, line))
      reference.push_back(std::strtof(line.c_str(), nullptr));
  }
  if (nposes > maxPoses || long(reference.size()) < nposes) {
    std::fprintf(stderr, "minibude: the deck has %ld poses and %zu reference energies\n",
                 maxPoses, reference.size());
    return 1;
  }

  ferry::Buffer<Atom> protein(proteinIn.size());
  ferry::Buffer<Atom> ligand(ligandIn.size());
  ferry::Buffer<FFParams> forcefield(forcefieldIn.size());
  ferry::Buffer<float> poses(6 * nposes);
  std::copy(proteinIn.begin(), proteinIn.end(), protein.begin());
  std::copy(ligandIn.begin(), ligandIn.end(), ligand.begin());
  std::copy(forcefieldIn.begin(), forcefieldIn.end(), forcefield.begin());
  for (long d = 0; d < 6; ++d)
    std::copy(posesIn.begin() + d * maxPoses, posesIn.begin() + d * maxPoses + nposes,
              poses.begin() + d * nposes);

  ferry::Accelerator acc;
  if (!validateOnly && !csv) {
    std::printf("miniBUDE (Ferry port)\ndevice: \"%s\"\n", acc.device().name.c_str());
    std::printf("deck: %s: %ld poses, %zu protein atoms, %zu ligand atoms, %zu types\n",
                deck.c_str(), maxPoses, proteinIn.size(), ligandIn.size(),
                forcefieldIn.size());
    std::printf("iterations: %ld, poses: %ld\n", iterations, nposes);
  }
  if (csv)
    std::printf("ppwi,wgsize,sum_ms,avg_ms,min_ms,max_ms,stddev_ms,interactions/s,"
                "gflops/s,gfinst/s\n");

  bool allValid = true;
  const double natlig = double(ligandIn.size()), natpro = double(proteinIn.size());
  for (int ppwi : ppwis) {
    for (int groupSize : groupSizes) {
      if (nposes % (long(ppwi) * groupSize) != 0) {
        std::printf("# skipped ppwi=%d wgsize=%d: %ld poses is not a multiple\n",
                    ppwi, groupSize, nposes);
        continue;
      }
      std::vector<double> ms;
      std::vector<float> energies;
      acc.compute([&](ferry::ComputeContext &cc) {
        dock(cc, protein, ligand, forcefield, poses, int(nposes), ppwi,
             groupSize, int(iterations) + warmups, ms, energies);
      });

      double maxDiff = 0.0;
      long failed = 0;
      for (long i = 0; i < nposes; ++i) {
        const float want = reference[i], got = energies[i];
        if (std::fabs(want) < 1.0f && std::fabs(got) < 1.0f)
          continue;
        const double diff = std::fabs(double(got) - double(want)) / std::fabs(double(want));
        maxDiff = std::max(maxDiff, diff);
        if (100.0 * diff > 0.025 && ++failed <= 8)
          std::fprintf(stderr, "# pose %ld: %g, expected %g\n", i, double(got),
                       double(want));
      }
      const bool valid = failed == 0;
      allValid = allValid && valid;
      if (!valid)
        std::fprintf(stderr, "# Verification failed for ppwi=%d, wgsize=%d: "
                             "%ld energies beyond 0.025%%\n", ppwi, groupSize, failed);
      if (validateOnly) {
        std::printf("ppwi=%d wgsize=%d poses=%ld valid=%s\n", ppwi, groupSize,
                    nposes, valid ? "true" : "false");
        continue;
      }
      const std::vector<double> timed(ms.begin() + warmups, ms.end());
      const double sum = std::accumulate(timed.begin(), timed.end(), 0.0);
      const double mean = sum / double(timed.size());
      double var = 0.0;
      for (double t : timed)
        var += (t - mean) * (t - mean);
      const double stddev = std::sqrt(var / double(timed.size()));
      const double least = *std::min_element(timed.begin(), timed.end());
      const double most = *std::max_element(timed.begin(), timed.end());
      const double seconds = mean * 1e-3;
      // The original's operation counts.
      const double opsPerGroup = ppwi * 27.0 +
                                 natlig * (2.0 + ppwi * 18.0 + natpro * (10.0 + ppwi * 30.0)) +
                                 ppwi;
      const double gflops = opsPerGroup * (double(nposes) / ppwi) / seconds / 1e9;
      const double interactions = double(nposes) * natlig * natpro / seconds;
      const double gfinst = 25.0 * natpro * natlig * double(nposes) / seconds / 1e9;
      if (csv)
        std::printf("%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", ppwi,
                    groupSize, sum, mean, least, most, stddev, interactions,
                    gflops, gfinst);
      else
        std::printf("ppwi: %d, wgsize: %d, valid: %s, max_diff_%%: %.5f, avg_ms: %.3f, "
                    "min_ms: %.3f, max_ms: %.3f, gflop/s: %.1f\n",
                    ppwi, groupSize, valid ? "true" : "false", 100.0 * maxDiff,
                    mean, least, most, gflops);
    }
  }
  return allValid ? 0 : 1;
}
