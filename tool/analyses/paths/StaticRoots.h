#pragma once
// Static roots of access paths (AccessPath.h): buffers, and objects
// holding buffers, that outlive every call.
//
// Buffers with static storage: `ferry::Buffer<T>` objects at namespace scope
// or as static members, pointers to buffers held there (PolyBench keeps its
// cl_mem objects in globals), and static local buffers.
//
// A compute function's table holds each global buffer it or a function it
// calls names, as an object its caller can see (synced at the compute's
// exit like a parameter). A call reaches the global buffers its callee's
// bodies name; a call Ferry cannot see into may reach any of them.

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"

#include <functional>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// A namespace-scope or static member variable of type Buffer<T>,
/// Buffer<T>& or Buffer<T>*.
bool isGlobalBufferVariable(const clang::VarDecl *V);
/// A namespace-scope or static member variable whose type reaches buffers
/// another way: a struct with buffer members (`model.w`), an array of
/// buffers, a container of them.
bool isGlobalBufferHolder(const clang::VarDecl *V);

/// How code in F spells the global V: its name where that finds V from F,
/// else qualified from the global namespace (`::ns::data`).
std::string globalSpelling(const clang::VarDecl *V, const clang::FunctionDecl *F);

/// The global buffer variables a call to F may touch, following the bodies
/// Ferry sees.
struct GlobalReach {
  std::set<const clang::VarDecl *> Named;
  /// F, or something it calls, calls a function Ferry cannot see (declared
  /// only, or through a pointer): any global buffer may be touched.
  bool Unseen = false;
  /// F, or something it calls, calls a compute function another Ferry
  /// source plans (GlobalReachCache::setPlannedElsewhere), which may reach
  /// the global buffers of its own file under their names.
  bool PlannedElsewhere = false;
};

/// The buffer fields of a global holder that Ferry names as objects of
/// their own (`model.w`: direct Buffer<T> or Buffer<T>& members of a
/// struct); false in `All` when the holder reaches buffers another way too
/// (an array of buffers, a container, a nested struct).
std::vector<const clang::FieldDecl *> namedBufferFields(const clang::VarDecl *V,
                                                        bool &All);

class GlobalReachCache {
public:
  const GlobalReach &of(const clang::FunctionDecl *F);
  /// Whether the translation unit has a global buffer or holder at all: a
  /// function Ferry cannot see may then touch one of them, under any name.
  bool anyGlobalBuffers(clang::ASTContext &Ctx);
  /// The global buffers a planned function's table holds: those a call to
  /// it reaches by name, and, when it may run a compute function another
  /// Ferry source plans (which may name that file's globals), every global
  /// buffer and holder declared before it at namespace scope or as a static
  /// member (not a pointer, which may be null), so that it brings home,
  /// guarded, whatever of them the device may hold newer.
  std::set<const clang::VarDecl *> tableGlobals(const clang::FunctionDecl *F);
  /// The declarations of functions other Ferry sources define and plan;
  /// set before the first query.
  void setPlannedElsewhere(std::set<const clang::FunctionDecl *> Functions) {
    Elsewhere = std::move(Functions);
  }
  /// Whether another Ferry source's summary says a call to F (without a
  /// body here) may run code no summary describes, or name a global buffer
  /// (TargetSummaries::runsHidden); unset: any such call may.
  std::function<bool(const clang::FunctionDecl *)> ElsewhereHidden;

private:
  const std::vector<const clang::VarDecl *> &declaredGlobals(clang::ASTContext &Ctx);
  /// M and every method of this unit that overrides it, at any depth: what
  /// a call of M that may run an override may run.
  std::vector<const clang::CXXMethodDecl *>
  mayRun(const clang::CXXMethodDecl *M);

  std::map<const clang::FunctionDecl *, GlobalReach> Cache;
  std::set<const clang::FunctionDecl *> InProgress;
  std::optional<std::vector<const clang::VarDecl *>> Declared;
  std::set<const clang::FunctionDecl *> Elsewhere;
  /// Overridden method (canonical) -> the methods overriding it.
  std::optional<std::map<const clang::CXXMethodDecl *,
                         std::vector<const clang::CXXMethodDecl *>>>
      Overriders;
};

} // namespace ferry
