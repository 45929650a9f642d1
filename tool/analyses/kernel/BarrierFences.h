#pragma once
// Which memory each kc.barrier() must fence on the device (issue 31).
//
// The contract promises that past a barrier a work-item sees the others'
// writes to local memory and to buffers. OpenCL C's barrier(flags) makes
// that promise only for the address spaces its flags name, and fencing
// global memory costs a GPU a flush of its writes to buffers. Only memory
// that one work-item may write and another read across the barrier needs
// the fence, so a kernel whose buffers are each only read or only written
// (a reduction tree: `in` read, `out` written, the tree in local memory)
// needs CLK_LOCAL_MEM_FENCE alone.
//
// The analysis is conservative: the global fence stays wherever a buffer
// may be both read and written by the kernel (through any helper, by an
// atomic), wherever a written buffer parameter and a read one may be the
// same buffer at some dispatch, and wherever the kernel does something it
// does not classify (a lambda, a global variable that is not a constant, a
// parameter that is neither a buffer nor plain data). A kernel that uses no
// local memory keeps both fences (its barriers are rare and cheap to leave
// as they are). kc.barrier(ferry::globalFence) always fences both.
//
// The result is plain data: the emitter prints it (tool/emit).

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <string>

namespace ferry {

struct KernelFence {
  /// The kernel's barriers need CLK_GLOBAL_MEM_FENCE.
  bool Global = true;
  /// Why (for `ferry analyze` and tests): the buffer or construct that
  /// keeps the global fence, or what lets it go.
  std::string Why;
};

struct BarrierFences {
  /// Per kernel.
  std::map<const clang::FunctionDecl *, KernelFence> Kernels;
  /// Per function of some kernel's reachable graph (kernels and helpers, by
  /// canonical declaration):
  /// whether a barrier printed in it fences global memory. A helper is
  /// printed once for every kernel that calls it, so it keeps the global
  /// fence when any of them needs it.
  std::map<const clang::FunctionDecl *, bool> GlobalIn;

  /// Whether kc.barrier() in F fences global memory: true for a function
  /// the analysis did not see.
  bool globalFenceIn(const clang::FunctionDecl *F) const;
};

/// Decides the fences of `Kernels` (their reachable graphs) from their
/// bodies and from every dispatch of them in the translation unit: a
/// rewritten program launches a kernel only from the file whose dispatch
/// names it, so those dispatches are all there are. Reports nothing.
BarrierFences analyzeBarrierFences(clang::ASTContext &Ctx,
                                   llvm::ArrayRef<const clang::FunctionDecl *>
                                       Kernels);

} // namespace ferry
