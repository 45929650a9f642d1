// heat written by hand in raw OpenCL (see raw_common.hpp): the first grid
// written once, Jacobi steps ping-ponging two device grids, the 4 partial
// sums read every EVERY steps, the final grid read at the end; the same
// kernels and check line as samples/heat. Built as raw_heat (pageable) and
// raw_heat_pinned.
//
//   raw_heat [SIZE] [MAX_STEPS] [EVERY] [TOLERANCE]
#include "raw_common.hpp"

#include <utility>

static const char *Source = R"(
__kernel void jacobi(__global const float* from, __global float* to) {
  const int w = get_global_size(0), h = get_global_size(1);
  const int x = get_global_id(0), y = get_global_id(1);
  const int i = y * w + x;
  float t = from[i];
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
    t = 0.25f * (from[i - 1] + from[i + 1] + from[i - w] + from[i + w]);
  to[i] = t;
}
__kernel void residual(__global const float* a, __global const float* b,
                       __global float* partial, int width, int height,
                       int rows) {
  float sum = 0.0f;
  int p = get_global_id(0);
  for (int y = p * rows; y < (p + 1) * rows && y < height; ++y)
    for (int x = 0; x < width; ++x)
      sum += fabs(a[y * width + x] - b[y * width + x]);
  partial[p] = sum;
})";

int main(int argc, char **argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 16;
  const int maxSteps = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int every = argc > 3 ? std::atoi(argv[3]) : 50;
  const float tolerance = argc > 4 ? static_cast<float>(std::atof(argv[4])) : 0.05f;
  const int parts = 4, rows = (size + parts - 1) / parts;
  raw::Runtime rt;
  raw::HostArray<float> plate(rt, std::size_t(size) * size), partial(rt, parts);
  for (int x = 0; x < size; ++x)
    plate[x] = 100.0f;

  cl::Program program = rt.build(Source);
  cl::Kernel jacobi(program, "jacobi"), residual(program, "residual");
  cl::Buffer grids[2] = {cl::Buffer(rt.context, CL_MEM_READ_WRITE, plate.bytes()),
                         cl::Buffer(rt.context, CL_MEM_READ_WRITE, plate.bytes())};
  cl::Buffer dPartial(rt.context, CL_MEM_READ_WRITE, partial.bytes());
  residual.setArg(2, dPartial);
  residual.setArg(3, size);
  residual.setArg(4, size);
  residual.setArg(5, rows);
  jacobi.setArg(0, grids[1]); // warm up both kernels on the scratch grid
  jacobi.setArg(1, grids[1]);
  rt.queue.enqueueNDRangeKernel(jacobi, cl::NullRange, cl::NDRange(1, 1));
  residual.setArg(0, grids[1]);
  residual.setArg(1, grids[1]);
  rt.queue.enqueueNDRangeKernel(residual, cl::NullRange, cl::NDRange(1));

  rt.start();
  rt.write(grids[0], plate.data(), plate.bytes(), false);
  int from = 0, steps = 0;
  while (steps < maxSteps) {
    jacobi.setArg(0, grids[from]);
    jacobi.setArg(1, grids[1 - from]);
    rt.run(jacobi, cl::NDRange(size, size));
    from = 1 - from;
    ++steps;
    if (steps % every == 0) {
      residual.setArg(0, grids[from]);
      residual.setArg(1, grids[1 - from]);
      rt.run(residual, cl::NDRange(parts));
      rt.read(dPartial, partial.data(), partial.bytes());
      float change = 0.0f;
      for (int p = 0; p < parts; ++p)
        change += partial[p];
      if (change < tolerance)
        break;
    }
  }
  rt.read(grids[from], plate.data(), plate.bytes());
  rt.report();

  double total = 0.0;
  for (int i = 0; i < size * size; ++i)
    total += plate[i];
  std::printf("check: %dx%d steps=%d centre=%.3f total=%.6g\n", size, size, steps,
              plate[(size / 2) * size + size / 2], total);
  return 0;
}
