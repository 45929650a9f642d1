// mandelbrot: a zoom into the Mandelbrot set's seahorse valley. A host loop
// re-dispatches the escape-time kernel for a few frames, each 4x deeper,
// and reads every frame back for its statistics; after the loop a second
// kernel colours the last frame through a palette of structs, and main
// writes it as a binary PPM. The escape-time arithmetic is 24-bit fixed
// point in 64-bit integers, so the host and the device count exactly the
// same iterations.
//
//   mandelbrot [WIDTH] [HEIGHT] [FRAMES] [OUT.ppm]     (no file by default)
//
// Transfers, by hand, for the default 64x48 image, 3 frames (`iters` is
// 64*48 ints = 12288 B, `image` 64*48 3-byte pixels = 9216 B, `palette` 16
// pixels = 48 B):
//   each frame: `escape` stores iters[kc.y * kc.maxX + kc.x] on every
//           work-item: no copy in; the host then reads `iters`, stale on the
//           host: out (3, one a frame).
//   `colorize`: reads `iters`, still valid on the device (the host only
//           read it): nothing; reads `palette`, stale on the device: in (1);
//           stores image[kc.y * kc.maxX + kc.x] on every work-item: no copy.
//   exit: `image` is stale on the host and the caller reads it: out (1);
//           `iters` and `palette` are valid on the host: nothing.
// In 1 (48 B), out 4 (3*12288 + 9216 = 46080 B), 4 dispatches.
// ferry-test: golden
// ferry-test: to_device 1 to_device_bytes 48 from_device 4 from_device_bytes 46080
// ferry-test: dispatches 4
#include <ferry/ferry.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Pixel {
  unsigned char r, g, b;
};

// Iterations before z -> z^2 + c escapes |z| > 2, for the pixel (kc.x, kc.y)
// of a frame whose top-left pixel is c = (x0, y0) and whose pixels are
// `step` apart, all in fixed point with 24 fraction bits.
FERRY_KERNEL void escape(ferry::KernelContext kc, int *iters, long long x0,
                         long long y0, long long step, int maxIter) {
  const long long one = 16777216; // 1 << 24
  const long long cr = x0 + kc.x * step, ci = y0 + kc.y * step;
  long long zr = 0, zi = 0;
  int it = 0;
  while (it < maxIter) {
    const long long zr2 = zr * zr / one, zi2 = zi * zi / one;
    if (zr2 + zi2 > 4 * one)
      break;
    zi = 2 * zr * zi / one + ci;
    zr = zr2 - zi2 + cr;
    ++it;
  }
  iters[kc.y * kc.maxX + kc.x] = it;
}

FERRY_KERNEL void colorize(ferry::KernelContext kc, const int *iters,
                           const Pixel *palette, Pixel *image, int maxIter,
                           int colors) {
  const int it = iters[kc.y * kc.maxX + kc.x];
  Pixel black = {0, 0, 0};
  image[kc.y * kc.maxX + kc.x] = it >= maxIter ? black : palette[it % colors];
}

FERRY_COMPUTE void render(ferry::ComputeContext &cc, ferry::Buffer<int> &iters,
                          ferry::Buffer<Pixel> &palette,
                          ferry::Buffer<Pixel> &image, int width, int height,
                          int frames, int maxIter) {
  const double one = 16777216.0;
  const long long centreX = static_cast<long long>(-0.743643887 * one);
  const long long centreY = static_cast<long long>(0.131825904 * one);
  long long step = static_cast<long long>(3.0 * one) / width;
  for (int frame = 0; frame < frames; ++frame) {
    cc.dispatch(escape, ferry::Range(width, height), iters,
                centreX - step * (width / 2), centreY - step * (height / 2), step,
                maxIter);
    long long inside = 0, total = 0;
    for (int it : iters) {
      inside += it >= maxIter;
      total += it;
    }
    std::printf("frame %d: zoom %lldx, %lld inside, %lld iterations\n", frame,
                1LL << (2 * frame), inside, total);
    step = step / 4 > 0 ? step / 4 : 1;
  }
  cc.dispatch(colorize, ferry::Range(width, height), iters, palette, image,
              maxIter, static_cast<int>(palette.size()));
}

// The command line, checked: a size out of range would otherwise make an
// impossible buffer (std::bad_array_new_length) or overflow an index.
const char kUsage[] =
    "usage: mandelbrot [WIDTH] [HEIGHT] [FRAMES] [OUT.ppm]\n"
    "  WIDTH    pixels across, 1 to 8192 (default 64)\n"
    "  HEIGHT   pixels down, 1 to 8192 (default 48)\n"
    "  FRAMES   frames, each zoomed 4x further, 1 to 30 (default 3)\n"
    "  OUT.ppm  also write the last frame there, as a binary PPM\n";

[[noreturn]] void usage(int status) {
  std::fputs(kUsage, status == 0 ? stdout : stderr);
  std::exit(status);
}

// argv[index] as a whole number from `low` to `high`; `fallback` if absent.
int intArgument(int argc, char **argv, int index, const char *name, int low,
                int high, int fallback) {
  if (index >= argc)
    return fallback;
  char *end = nullptr;
  errno = 0;
  const long value = std::strtol(argv[index], &end, 10);
  if (end == argv[index] || *end != '\0' || errno != 0 || value < low ||
      value > high) {
    std::fprintf(stderr, "mandelbrot: %s must be a whole number from %d to %d, "
                         "not '%s'\n",
                 name, low, high, argv[index]);
    usage(1);
  }
  return static_cast<int>(value);
}

int main(int argc, char **argv) {
  if (argc > 1 &&
      (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0))
    usage(0);
  if (argc > 5) {
    std::fprintf(stderr, "mandelbrot: too many arguments\n");
    usage(1);
  }
  const int width = intArgument(argc, argv, 1, "WIDTH", 1, 8192, 64);
  const int height = intArgument(argc, argv, 2, "HEIGHT", 1, 8192, 48);
  const int frames = intArgument(argc, argv, 3, "FRAMES", 1, 30, 3);
  const char *out = argc > 4 ? argv[4] : nullptr;
  const int maxIter = 256;

  ferry::Buffer<int> iters(width * height);
  ferry::Buffer<Pixel> image(width * height);
  ferry::Buffer<Pixel> palette(16);
  for (int i = 0; i < 16; ++i) {
    const int t = i < 8 ? i : 15 - i; // a ramp up and back down
    palette[i] = Pixel{static_cast<unsigned char>(32 * t),
                       static_cast<unsigned char>(64 + 24 * t),
                       static_cast<unsigned char>(255 - 16 * t)};
  }

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    render(cc, iters, palette, image, width, height, frames, maxIter);
  });

  // FNV-1a over the image's bytes, and the PPM when a file is named.
  unsigned hash = 2166136261u;
  for (const Pixel &p : image)
    for (unsigned char c : {p.r, p.g, p.b})
      hash = (hash ^ c) * 16777619u;
  if (out) {
    if (std::FILE *f = std::fopen(out, "wb")) {
      std::fprintf(f, "P6\n%d %d\n255\n", width, height);
      std::fwrite(image.data(), sizeof(Pixel), image.size(), f);
      std::fclose(f);
      std::printf("wrote %s\n", out);
    } else {
      std::fprintf(stderr, "mandelbrot: cannot write %s\n", out);
      return 1;
    }
  }
  std::printf("check: %dx%d frames=%d image fnv1a=%08x\n", width, height, frames,
              hash);
  return 0;
}
