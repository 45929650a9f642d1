#pragma once
// Emits the kernels of a translation unit, and every function they reach, as
// one OpenCL C 1.2 program.

#include "analyses/kernel/BarrierFences.h"
#include "analyses/kernel/RestrictParams.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace ferry {

struct EmittedProgram {
  /// The OpenCL C program text, with #line markers into the user's source.
  std::string OpenCL;
  /// C++ static_asserts, appended to the rewritten host file, that check every
  /// struct used on the device has the size and member offsets the OpenCL C
  /// side asserts too.
  std::string HostLayoutChecks;
};

/// Translates `Kernels` and their kernel-reachable graph, each kc.barrier()
/// with the fences `Fences` (analyzeBarrierFences) gives its function, each
/// kernel parameter `Restrict` lists declared `restrict`.
/// Reports every construct OpenCL C cannot express as an error through
/// Ctx's diagnostics engine and returns std::nullopt if any was reported.
std::optional<EmittedProgram>
emitOpenCL(clang::ASTContext &Ctx,
           llvm::ArrayRef<const clang::FunctionDecl *> Kernels,
           const BarrierFences &Fences, const RestrictParams &Restrict);

} // namespace ferry
