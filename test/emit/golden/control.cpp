// if, for, while, do, switch, break, continue and early return.
#include <ferry/ferry.hpp>

FERRY_KERNEL void collatz(ferry::KernelContext kc, const int* in, int* steps,
                          int* kinds) {
  int i = kc.x;
  int v = in[i];
  if (v <= 0) {
    steps[i] = -1;
    kinds[i] = -1;
    return;
  }
  int n = 0;
  while (v != 1) {
    if (v % 2 == 0)
      v /= 2;
    else
      v = 3 * v + 1;
    ++n;
    if (n > 1000)
      break;
  }
  steps[i] = n;

  int kind;
  switch (in[i] % 5) {
  case 0:
    kind = 10;
    break;
  case 1:
  case 2:
    kind = 20;
    break;
  case 3: {
    int t = in[i] / 5;
    kind = t % 3;
    break;
  }
  default:
    kind = 40;
  }

  int odd = 0;
  for (int k = 0; k < in[i] % 17; ++k) {
    if (k % 2 == 0)
      continue;
    odd += k;
  }
  int d = 0;
  do {
    d += 3;
  } while (d < in[i] % 11);

  if (kind == 10)
    kinds[i] = kind;
  else if (kind == 20)
    kinds[i] = kind + odd;
  else
    kinds[i] = kind + d;
}
