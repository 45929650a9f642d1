#pragma once
#include <ferry/ferry.hpp>

struct Grid {
  explicit Grid(int n);
  /// Swaps its buffer with `b`.
  void swapBuf(ferry::Buffer<float> &b);
  ferry::Buffer<float> a;
};

/// Swaps the two buffers.
void swapBufs(ferry::Buffer<float> &x, ferry::Buffer<float> &y);

/// Keeps the address of `b`'s elements as an integer; poke() writes there.
void attach(ferry::Buffer<float> &b);
void poke();
