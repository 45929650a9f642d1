// This test checks the message of a failed assertion on the device, which
// a build type defining NDEBUG (Release) now drops on the device as on the
// host: the rewrite sees the build type's definitions. Asserts stay on here.
#undef NDEBUG
#include "../golden/debugging.cpp"
#include "Check.h"

#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

// The device's printf writes to this process's standard output: catch it in
// a file while the kernels run, then look for what they must have printed.
FERRY_COMPUTE void run(ferry::ComputeContext &cc, ferry::Buffer<float> &v,
                       ferry::Buffer<int> &in, ferry::Buffer<int> &out) {
  cc.dispatch(show, ferry::Range(2), v, 3L);
  cc.dispatch(checked, ferry::Range(in.size()), in, out);
}

static void expect(const std::string &printed, const std::string &line) {
  ++check::compared;
  if (printed.find(line) == std::string::npos) {
    std::printf("the device did not print \"%s\"\n", line.c_str());
    ++check::failures;
  }
}

int main() {
  ferry::Buffer<float> v(1);
  ferry::Buffer<int> in(4), out(4);
  v[0] = 1.5f;
  for (int i = 0; i < 4; ++i)
    in[i] = i == 2 ? -1 : i; // item 2 fails its assertion
  std::fflush(stdout);
  const int saved = dup(1);
  std::FILE *capture = std::tmpfile();
  dup2(fileno(capture), 1);
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { run(cc, v, in, out); });
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::rewind(capture);
  std::string printed;
  for (int c; (c = std::fgetc(capture)) != EOF;)
    printed += static_cast<char>(c);
  std::fclose(capture);
  expect(printed, "n = 3, first = 1.500000, size 4, 100%\n");
  expect(printed, "0: item\tx\n");
  expect(printed, "1: item\tx\n");
  expect(printed, "debugging.cpp:17: checked: Assertion `in[kc.x] >= 0 && "
                  "\"inputs are counts\"' failed.\n");
  // The kernel goes on after a failed assertion.
  check::values("out", out, std::vector<int>{0, 2, -2, 6});
  return check::report("debugging");
}
