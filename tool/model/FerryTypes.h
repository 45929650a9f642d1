#pragma once
// Recognising Ferry's runtime types (ferry::Buffer<T>, ferry::ComputeContext,
// ferry::KernelContext, ferry::Range) and its dispatch call in the Clang AST.

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"

#include <string>
#include <utility>
#include <vector>

namespace ferry {

/// True for ferry::Buffer<T> (any cv, not through references or pointers).
bool isBufferType(clang::QualType T);
/// T for ferry::Buffer<T>; null type otherwise.
clang::QualType bufferElementType(clang::QualType T);
/// True for Buffer<T>, Buffer<T>&, const Buffer<T>&, Buffer<T>* and so on.
bool refersToBuffer(clang::QualType T);
/// T reaches buffers: a buffer, or a reference, pointer, array, struct or
/// template (a container) whose type mentions one, a few levels deep.
bool holdsBuffers(clang::QualType T);
/// The element type of every buffer T holds (as holdsBuffers reaches
/// them) when they share one; null when they are of several types or T
/// holds none.
clang::QualType heldBufferElement(clang::QualType T);
/// The element types of the buffers T holds, each once.
std::vector<clang::QualType> heldBufferElements(clang::QualType T);
/// A namespace `ferry` at the top level: the runtime's own types and
/// functions, which never write a buffer behind the plan's back.
bool inFerryRuntime(const clang::Decl *D);
/// How a summary spells an element type, the same in every file that knows
/// it (`float`, `struct Vec3`): canonical, unqualified.
std::string elementSpelling(clang::QualType Elem);
/// The element type a summary spells, where this unit can name it (an
/// arithmetic type, or the element type of a buffer this unit has); null
/// otherwise.
clang::QualType elementNamed(clang::ASTContext &Ctx, llvm::StringRef Spelling);
bool isComputeContextType(clang::QualType T);
bool isKernelContextType(clang::QualType T);
/// ferry::Local<T, N> and ferry::LocalSpan<T> (through references): local
/// memory, never a buffer.
bool isLocalArrayType(clang::QualType T);
bool isLocalSpanType(clang::QualType T);
/// ferry::Vec<T, N> (spelt ferry::float4 and so on; through references):
/// OpenCL C's vector type of that name on the device.
bool isVectorType(clang::QualType T);
/// T and N of ferry::Vec<T, N>; a null type and 0 otherwise.
std::pair<clang::QualType, unsigned> vectorShape(clang::QualType T);
/// ferry::Reducer<T, Op> (spelt ferry::Sum<T>, Min<T>, Max<T>; through
/// references): a kernel parameter that work-items combine values into.
bool isReducerType(clang::QualType T);
/// What a reducer combines: its element type, and its operation's name as
/// <ferry/reduction.hpp> spells it ("plus", "minimum", "maximum"; empty for
/// another).
struct ReducerKind {
  clang::QualType Element;
  std::string Operation;
};
ReducerKind reducerKind(clang::QualType T);

/// A ferry::KernelContext field as the analyses reason about it: the
/// 64-bit ids and sizes (`x64`, `maxX64`) are the ids and sizes they widen
/// (`x`, `maxX`), which they equal wherever those do not overflow.
llvm::StringRef contextFieldMeaning(llvm::StringRef Field);

/// `cc.dispatch(kernel, range, args...)` on a ferry::ComputeContext.
bool isDispatchCall(const clang::CallExpr *Call);
/// `acc.compute(f)` on a ferry::Accelerator.
bool isAcceleratorCompute(const clang::CallExpr *Call);
/// The kernel a dispatch names (through `&`, casts and parentheses); null when
/// it is not a plain function name, or it chooses among several.
const clang::FunctionDecl *dispatchedKernel(const clang::CallExpr *Dispatch);
/// The kernels a dispatch may run, each once: the one it names, or those a
/// choice made at run time picks from (an extension): the branches of `?:`,
/// the elements of a const array of kernels it indexes, the initialiser of
/// a const variable it names, nested. Empty when it is none of these.
std::vector<const clang::FunctionDecl *>
dispatchedKernels(const clang::CallExpr *Dispatch);

} // namespace ferry
