#include "../golden/address_spaces.cpp"
#include "Check.h"

FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &matrix,
                       ferry::Buffer<float> &sums, ferry::Buffer<int> &pairs,
                       int rowsCount, int width) {
  cc.dispatch(rows, ferry::Range(rowsCount), matrix, sums, pairs, width);
}

int main() {
  const int nrows = 40, width = 13;
  ferry::Buffer<float> matrix(nrows * width), sums(nrows);
  ferry::Buffer<int> pairs(2 * nrows);
  check::fill(matrix, -1.0f, 1.0f);
  check::fill(sums, -1.0f, 1.0f);
  check::fill(pairs, -100, 100);
  std::vector<float> rmatrix = check::copy(matrix), rsums = check::copy(sums);
  std::vector<int> rpairs = check::copy(pairs);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    run(cc, matrix, sums, pairs, nrows, width);
  });
  check::host(rows, nrows, 1, 1, rmatrix.data(), rsums.data(), rpairs.data(),
              width);
  check::values("sums", sums, rsums);
  check::values("pairs", pairs, rpairs);
  return check::report("address_spaces");
}
