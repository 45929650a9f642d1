#pragma once
// Host helpers that call each other across two Ferry sources, recursively:
// even(b, k) in main.cpp calls odd(b, k - 1) in walk.cpp, which calls
// even(b, k - 1) back. Only odd() writes, and only b's first element; the
// composed summaries say so (a fixpoint over both files).
#include <ferry/ferry.hpp>

FERRY_KERNEL inline void addOne(ferry::KernelContext kc, int *b) {
  if (kc.x < kc.maxX)
    b[kc.x] += 1;
}

long long even(ferry::Buffer<int> &b, int k); // main.cpp: reads b
long long odd(ferry::Buffer<int> &b, int k);  // walk.cpp: reads and writes b
long long peek(ferry::Buffer<int> &b, int k); // walk.cpp: reads b only
long long look(ferry::Buffer<int> &b, int k); // main.cpp: reads b only
