// The one-file form of main.cpp, parts.cpp and part.h: the same bytes.
// ferry-test: golden
// ferry-test: to_device 7 to_device_bytes 1536 fills 2 fill_bytes 384
// ferry-test: from_device 7 from_device_bytes 1536
// ferry-test: unnamed_from_device 4 unnamed_from_device_bytes 896
// ferry-test: dispatches 6
#include <ferry/ferry.hpp>

// The parts of a model, which main steps through their base.
struct Part {
  virtual ~Part() = default;
  FERRY_COMPUTE virtual void step(ferry::ComputeContext &cc, int k) = 0;
  FERRY_COMPUTE virtual void settle(ferry::ComputeContext &cc) = 0;
  virtual void poke(int v) = 0;
  virtual double sum() const = 0;
};

Part *makeBody(float start);
Part *makeMesh(int start);

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

#include <cstdio>
#include <memory>
#include <vector>

int main() {
  std::vector<std::unique_ptr<Part>> parts;
  parts.emplace_back(makeBody(1.f));
  parts.emplace_back(makeMesh(2));
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) {
    for (auto &p : parts)
      p->step(cc, 3);
  });
  std::printf("after 1: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
  Part &body = *parts[0];
  acc.compute([&](ferry::ComputeContext &cc) {
    body.settle(cc);
    body.poke(100);
    body.step(cc, 5);
  });
  std::printf("after 2: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
  acc.compute([&](ferry::ComputeContext &cc) { parts[1]->settle(cc); });
  std::printf("after 3: %.1f %.1f\n", parts[0]->sum(), parts[1]->sum());
}
