// Structs the device cannot share with the host: a pointer member, a
// bit-field, a base class.
#include <ferry/ferry.hpp>

struct Node {
  float value;
  Node* next;
};

struct Flags {
  unsigned ready : 1;
  unsigned count : 7;
};

struct Base {
  int id;
};
struct Derived : Base {
  float weight;
};

FERRY_KERNEL void k(ferry::KernelContext kc, const Node* nodes,
                    const Flags* flags, const Derived* items, float* out) {
  out[kc.x] = nodes[kc.x].value + flags[kc.x].count + items[kc.x].weight;
}

// CHECK: 7:9: error: struct members that are pointers or references cannot be shared with the device
// CHECK: 11:12: error: bit-fields cannot be translated to OpenCL C
// CHECK: 12:12: error: bit-fields cannot be translated to OpenCL C
// CHECK: 23:56: error: Ferry cannot translate struct 'Derived' to OpenCL C: it has base classes or virtual functions
