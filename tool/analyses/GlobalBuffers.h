#pragma once
// Buffers with static storage: `ferry::Buffer<T>` objects at namespace scope
// or as static members, pointers to buffers held there (PolyBench keeps its
// cl_mem objects in globals), and static local buffers.
//
// A compute function's table holds each global buffer it or a function it
// calls names, as an object its caller can see (synced at the compute's
// exit like a parameter). A call reaches the global buffers its callee's
// bodies name; a call Ferry cannot see into may reach any of them.

#include "clang/AST/Decl.h"

#include <map>
#include <set>

namespace ferry {

/// A namespace-scope or static member variable of type Buffer<T>,
/// Buffer<T>& or Buffer<T>*.
bool isGlobalBufferVariable(const clang::VarDecl *V);

/// The global buffer variables a call to F may touch, following the bodies
/// Ferry sees.
struct GlobalReach {
  std::set<const clang::VarDecl *> Named;
  /// F, or something it calls, calls a function Ferry cannot see (declared
  /// only, or through a pointer): any global buffer may be touched.
  bool Unseen = false;
};

class GlobalReachCache {
public:
  const GlobalReach &of(const clang::FunctionDecl *F);

private:
  std::map<const clang::FunctionDecl *, GlobalReach> Cache;
  std::set<const clang::FunctionDecl *> InProgress;
};

} // namespace ferry
