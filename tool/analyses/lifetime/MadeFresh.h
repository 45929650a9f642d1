#pragma once
// Whether a declaration makes its buffers anew, from nothing of another
// buffer (KeptBetweenComputes: such a buffer starts new, with no device copy
// a compute could keep, so host writes before its first compute leave
// nothing stale).

#include "clang/AST/Decl.h"

namespace ferry {

/// `Buffer<T> b(n)`, `b(n, v)`, `b{1, 2}`: not a copy or a move, and no
/// argument holding a buffer.
bool bufferMadeFresh(const clang::VarDecl *V);

/// A local object each of whose buffers its declaration makes anew: an
/// aggregate of fresh buffers (at any depth, through casts spelling inner
/// aggregates), or a constructor of the user's that makes each buffer member
/// anew and calls nothing but the runtime.
bool objectMadeFresh(const clang::VarDecl *V);

} // namespace ferry
