#include "grid.h"

FERRY_KERNEL void inc(ferry::KernelContext kc, float *a) { a[kc.x] += 1.0f; }
FERRY_KERNEL void addTo(ferry::KernelContext kc, float *to, const float *from) {
  to[kc.x] += from[kc.x];
}

void relax(ferry::ComputeContext &cc, Grid &g) {
  cc.dispatch(inc, ferry::Range(g.cur.size()), g.cur);
  cc.dispatch(addTo, ferry::Range(g.next.size()), g.next, g.cur);
}

void advance(ferry::ComputeContext &cc, Model &m) {
  relax(cc, m.grid);
  cc.dispatch(addTo, ferry::Range(m.aux.size()), m.aux, m.grid.next);
}

void settle(ferry::ComputeContext &cc, Model &m) { relaxTwice(cc, m.grid); }
