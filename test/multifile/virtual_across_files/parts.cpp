#include "part.h"

FERRY_KERNEL void drift(ferry::KernelContext kc, float *pos, int k) {
  pos[kc.x] += 0.5f * static_cast<float>(k + kc.x % 7);
}

struct Spot {
  float x, y;
};

FERRY_KERNEL void count(ferry::KernelContext kc, int *n, Spot *spots, int k) {
  n[kc.x] += k + kc.x % 3;
  spots[kc.x].x += static_cast<float>(n[kc.x]);
}

class Body : public Part {
public:
  explicit Body(float start) : pos_(64, start) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int k) override {
    cc.dispatch(drift, ferry::Range(pos_.size()), pos_, k);
  }
  // Two steps, called directly: settle leaves pos_ to its caller between.
  FERRY_COMPUTE void settle(ferry::ComputeContext &cc) override {
    step(cc, 1);
    step(cc, 2);
  }
  void poke(int v) override { pos_[3] += static_cast<float>(v); }
  double sum() const override {
    double s = 0;
    for (float p : pos_)
      s += p;
    return s;
  }

private:
  ferry::Buffer<float> pos_;
};

class Mesh : public Part {
public:
  explicit Mesh(int start) : cells_{ferry::Buffer<int>(32, start)}, spots_(32) {}
  FERRY_COMPUTE void step(ferry::ComputeContext &cc, int k) override {
    cc.dispatch(count, ferry::Range(32), cells_.n, spots_, k);
  }
  FERRY_COMPUTE void settle(ferry::ComputeContext &cc) override { step(cc, 4); }
  void poke(int v) override { cells_.n[5] += v; }
  double sum() const override {
    double s = 0;
    for (int i = 0; i < 32; i++)
      s += cells_.n[i] + spots_[i].x;
    return s;
  }

private:
  struct Cells {
    ferry::Buffer<int> n;
  } cells_;
  ferry::Buffer<Spot> spots_;
};

Part *makeBody(float start) { return new Body(start); }
Part *makeMesh(int start) { return new Mesh(start); }
