// LeakSanitizer's built-in suppressions for programs that link ferry::runtime
// in a FERRY_SANITIZE build (compiled into each such program, see
// runtime/CMakeLists.txt; the sanitizer runtime calls this at start-up).
//
// PoCL compiles OpenCL C in the program's own process with its own LLVM, and
// keeps that compiler's state (and what each build made) until exit without
// freeing it: every first build of a program (an empty PoCL cache, as the
// end-to-end tests use) leaves thousands of such blocks. Their stacks stop at
// the first PoCL frame (PoCL is built without frame pointers), so they cannot
// be narrowed to the compiler: allocations made inside libpocl or PoCL's
// libLLVM are not reported. A run on a warm PoCL cache, which builds
// nothing, reports no leak at all, so Ferry releases every OpenCL object it
// makes; Ferry's own allocations (runtime, programs) are still checked.
extern "C" const char *__lsan_default_suppressions() {
  return "leak:libpocl.so\n"
         "leak:libLLVM\n";
}

// Without this, every run that suppressed a leak prints the suppressions'
// counts on standard error, which the end-to-end tests require to be empty.
extern "C" const char *__lsan_default_options() {
  return "print_suppressions=0";
}
