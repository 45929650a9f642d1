#pragma once
// Which values in a kernel (or a helper it calls) may differ between the
// work-items of one dispatch: the divergence analysis behind the race lint.
// A value is Uniform when every work-item computes the same one, Group when
// it may differ only between work-groups (it depends on kc.groupX/Y/Z alone),
// and Item when it may differ between two work-items of one group. Anything
// Ferry cannot follow is Item: the lint warns only about Uniform and Group
// indices, so "may differ" is the safe answer.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <vector>

namespace ferry {

enum class Variance { Uniform = 0, Group = 1, Item = 2 };

inline Variance join(Variance A, Variance B) { return A < B ? B : A; }

/// What a caller knows about one parameter of the function analysed.
struct ParamFact {
  Variance Value = Variance::Uniform;
  /// For a pointer parameter: the kernel buffer parameter it points into
  /// (null when it points elsewhere or Ferry cannot tell).
  const clang::ParmVarDecl *Buffer = nullptr;
};

/// The facts a call site hands a helper: one per parameter, and how
/// divergent the control that reaches the call is.
struct CallContext {
  std::vector<ParamFact> Params;
  Variance Control = Variance::Uniform;
};

class WorkItemVariance {
public:
  /// Analyses F. For a kernel, `Context` may be empty: every scalar
  /// parameter is uniform and each pointer parameter points into itself.
  /// `ReadOnly` names the kernel's buffer parameters nothing writes: a load
  /// from one at a uniform index is uniform.
  WorkItemVariance(const clang::FunctionDecl *F, CallContext Context,
                   const std::set<const clang::ParmVarDecl *> &ReadOnly);

  Variance of(const clang::Expr *E) const;
  /// How divergent the control is when S runs: the join of every condition
  /// that decides whether it runs (enclosing branches, loops whose trip
  /// count may differ, earlier exits a work-item may take alone).
  Variance control(const clang::Stmt *S) const;
  /// The kernel buffer parameter a pointer expression points into, or null.
  const clang::ParmVarDecl *bufferOf(const clang::Expr *Pointer) const;
  /// The function had a construct the analysis gives up on (goto): nothing
  /// it says is worth a warning.
  bool gaveUp() const { return GaveUp; }

  const clang::FunctionDecl *function() const { return F; }
  const CallContext &context() const { return Context; }

private:
  void walk(const clang::Stmt *S, Variance Control);
  void walkChildren(const clang::Stmt *S, Variance Control);
  void assign(const clang::ValueDecl *V, Variance Value);
  void visitAssignments(const clang::Expr *E, Variance Control);
  /// The variance of the conditions under which a jump (return, break,
  /// continue) inside S may be taken by some work-items only; Uniform when
  /// every jump in S is taken by all or none.
  Variance divergentJumps(const clang::Stmt *S, Variance Control,
                          bool Loop) const;
  /// The value a local variable or parameter holds (as far as found yet).
  Variance valueOf(const clang::ValueDecl *V) const;
  /// What an earlier round found for S (Uniform before it was reached).
  Variance seen(const clang::Stmt *S) const;
  Variance loadOf(const clang::Expr *Pointer, const clang::Expr *Index) const;
  Variance callOf(const clang::CallExpr *Call) const;
  const clang::ParmVarDecl *bufferRoot(const clang::Expr *Pointer,
                                       int Depth) const;

  const clang::FunctionDecl *F;
  CallContext Context;
  const std::set<const clang::ParmVarDecl *> &ReadOnly;
  std::map<const clang::ValueDecl *, Variance> Vars;
  /// Pointer locals and the buffers their assignments point into; a null
  /// member: one of them points elsewhere.
  std::map<const clang::ValueDecl *, std::set<const clang::ParmVarDecl *>>
      PointerRoots;
  std::map<const clang::Stmt *, Variance> Control;
  bool Changed = false;
  bool GaveUp = false;
};

/// `kc.x` and the like: the variance of a KernelContext field (Item for the
/// global and local ids, Group for the group ids, Uniform for the sizes).
Variance contextFieldVariance(llvm::StringRef Field);

} // namespace ferry
