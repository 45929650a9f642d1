#pragma once
// The reachable graphs, as HAT names them: from a kernel, every function it
// calls (transitively) and so must be translated with it; from a compute
// function, every function with a body it calls and every kernel it dispatches.

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

#include <utility>
#include <vector>

namespace ferry {

struct CallEdge {
  const clang::FunctionDecl *Caller;
  const clang::FunctionDecl *Callee;
  const clang::CallExpr *Site;
};

struct ReachableGraph {
  const clang::FunctionDecl *Root = nullptr;
  /// Root first, then every reachable function with a body, each once.
  std::vector<const clang::FunctionDecl *> Functions;
  std::vector<CallEdge> Calls;
  /// For a compute graph: the dispatches, in source order per function.
  std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>
      Dispatches;
};

ReachableGraph kernelReachableGraph(const clang::FunctionDecl *Kernel);
ReachableGraph computeReachableGraph(const clang::FunctionDecl *Compute);

/// Calls made directly in F's body (not through lambdas), with callees that
/// have a body in the translation unit (template instantiations included).
std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>
directCalls(const clang::FunctionDecl *F);

/// Ferry's own runtime (ferry::Buffer's members and the like).
bool isRuntimeFunction(const clang::FunctionDecl *F);
/// ferry::atomicAdd and its kin: each reads and writes what its first
/// argument points to.
bool isAtomicFunction(const clang::FunctionDecl *F);

/// True when F's body dispatches a kernel itself.
bool dispatchesDirectly(const clang::FunctionDecl *F);

/// One of the call's arguments is the ComputeContext: the callee may
/// dispatch.
bool handsComputeContext(const clang::CallExpr *Call);

/// A call of M on Object (`Qualified`: spelt `s.Base::run()`) that an
/// override Ferry does not follow may answer: M is virtual, neither it nor
/// its class is final, and Object's dynamic type does not show that M
/// itself runs (a local `D d;` calls D's own method).
bool mayRunOverride(const clang::CXXMethodDecl *M, const clang::Expr *Object,
                    bool Qualified);

/// What a member call, or a member operator's (`op(cc, v)`, `grid += x`),
/// runs: the method, the object it runs on, and whether it is spelt
/// qualified (`s.Base::run()` calls that very function). Method is null for
/// any other call, a lambda's included (its captures are its business).
struct MethodCall {
  const clang::CXXMethodDecl *Method = nullptr;
  const clang::Expr *Object = nullptr;
  bool Qualified = false;
};
MethodCall methodCallOf(const clang::CallExpr *Call);

/// A member call, or a member operator's, that an override Ferry does not
/// follow may answer (mayRunOverride).
bool isVirtualCall(const clang::CallExpr *Call);

/// A call handed the ComputeContext that Ferry cannot see into: through a
/// function pointer, a std::function or another library callable, or a
/// virtual call (`static_cast<Base &>(body).step(cc)`). It may run compute
/// code (a compute function whose address was taken, an override).
bool isUnseenCallWithContext(const clang::CallExpr *Call);
/// True when F's body (its lambdas aside) makes such a call: it is host
/// code between compute code, and so planned.
bool callsUnseenWithContext(const clang::FunctionDecl *F);

} // namespace ferry
