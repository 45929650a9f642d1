#pragma once
// What a call through a std::function or a function pointer may run that
// the calling function does not see being made: the lambdas and function
// objects of the unit, and the buffers they reach (`App() { poke = [this]
// (int v) { b[2] += v; }; }`, called as `app.poke(100)` in a compute
// function). Such a call counts as reading and writing every buffer of
// those element types (HostWalker::visitCall); the lambdas the caller's own
// function makes, capturing by reference, it follows by name instead
// (HostWalker::lambdasMadeAround).

#include "clang/AST/ASTContext.h"

#include <vector>

namespace ferry {

struct CallableReach {
  /// The function a lambda is made in (the outermost around it that is no
  /// lambda); null for a function object's class.
  const clang::FunctionDecl *MadeIn = nullptr;
  /// Each capture that reaches buffers is a variable captured by reference
  /// that holds them by value or is a buffer (or a pointer to one): a call
  /// in MadeIn follows them by name.
  bool FollowedByName = false;
  /// The element types of the buffers it reaches (null: of any type).
  std::vector<clang::QualType> Elements;
};

/// The lambdas of the unit (but those handed to `acc.compute`) and its
/// classes with a call operator that reach buffers.
std::vector<CallableReach> callablesReachingBuffers(clang::ASTContext &Ctx);

/// The function a lambda's code belongs to: the outermost function around
/// F that is no lambda's call operator (F itself for any other function).
const clang::FunctionDecl *enclosingNonLambda(const clang::FunctionDecl *F);

} // namespace ferry
