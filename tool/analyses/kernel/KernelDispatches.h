#pragma once
// Which buffers each kernel's dispatches pass (issue 31): whether two buffer
// parameters of a kernel are two different buffers at every dispatch of it.
//
// A rewritten program launches a kernel only from the file whose dispatch
// names it (the kernel is in that file's OpenCL program), so the dispatches
// in the translation unit are all there are. Two arguments are different
// buffers when they are two variables of their own, two different members
// (at any depth) of one object, a buffer a function made beside one that
// existed before it was entered, or buffers of two element types. A
// reference, a pointer, an element of a container is anything.
//
// Read by the barrier fences (a written and a read buffer that are never
// one buffer do not meet across a barrier) and by `restrict` on kernel
// parameters (RestrictParams.h).

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <memory>
#include <string>

namespace ferry {

class DispatchFinder;

class KernelDispatches {
public:
  explicit KernelDispatches(clang::ASTContext &Ctx);
  ~KernelDispatches();
  /// Why parameters A and B of kernel K may be one buffer at some
  /// dispatch, or "" when every dispatch passes two different buffers.
  std::string mayBeOneBuffer(const clang::FunctionDecl *K,
                             const clang::ParmVarDecl *A,
                             const clang::ParmVarDecl *B) const;

private:
  std::unique_ptr<DispatchFinder> Finder;
};

} // namespace ferry
