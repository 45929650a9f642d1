#pragma once
// Whether a declaration makes its buffers anew, from nothing of another
// buffer (KeptBetweenComputes: such a buffer starts new, with no device copy
// a compute could keep, so host writes before its first compute leave
// nothing stale).

#include "clang/AST/DeclCXX.h"

#include <functional>

namespace ferry {

/// `Buffer<T> b(n)`, `b(n, v)`, `b{1, 2}`: not a copy or a move, and no
/// argument holding a buffer.
bool bufferMadeFresh(const clang::VarDecl *V);

/// For a constructor without a body here, defined in another Ferry source:
/// whether its summary says it makes its buffers anew (`makes_fresh`).
using FreshElsewhere = std::function<bool(const clang::CXXConstructorDecl *)>;

/// A local object each of whose buffers its declaration makes anew: an
/// aggregate of fresh buffers (at any depth, through casts spelling inner
/// aggregates), or a constructor of the user's that makes each buffer member
/// anew and calls nothing but the runtime (with a body here, or one another
/// file's summary vouches for: `Elsewhere`).
bool objectMadeFresh(const clang::VarDecl *V,
                     const FreshElsewhere &Elsewhere = nullptr);

/// A constructor with a body that makes each buffer member of its object
/// anew and calls nothing but the runtime (plan/FileSummary.h records it).
bool constructorMakesFresh(const clang::CXXConstructorDecl *Def);

} // namespace ferry
