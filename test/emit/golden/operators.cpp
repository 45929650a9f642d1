// Every operator, the three kinds of cast, ?:, compound assignment, ++/--.
#include <ferry/ferry.hpp>

FERRY_KERNEL void ops(ferry::KernelContext kc, const int* a, const int* b,
                      int* out, const float* f, float* fout) {
  int i = kc.x;
  int x = a[i], y = b[i] | 1;
  int r = 0;
  r += x + y;
  r -= x - y;
  r ^= x * y;
  r += x / y + x % y;
  r += (x << 2) + (x >> 1) + (x & y) + (x | y) + (x ^ y) + ~x + -y + +x;
  r += (x < y) + (x > y) + (x <= y) + (x >= y) + (x == y) + (x != y);
  r += (x && y) + (x || !y);
  r += x > y ? x : y;
  int c = x;
  c++;
  ++c;
  c--;
  --c;
  c *= 3;
  c /= 2;
  c %= 1000;
  c <<= 1;
  c >>= 1;
  c &= 0xffff;
  c |= 0x10;
  r += c;
  r += (c = 5, c + 1);
  float g = f[i];
  r += static_cast<int>(g) + (int)g + int(g * 2.0f);
  unsigned u = static_cast<unsigned>(x);
  r += (int)(u >> 3);
  out[i] = r;
  float h = static_cast<float>(x) / 3.0f + float(y);
  h *= g;
  h -= 1.0f;
  fout[i] = h > 0 ? h : -h;
}
