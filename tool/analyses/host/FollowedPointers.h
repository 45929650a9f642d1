#pragma once
// Followed pointers: a local pointer into a buffer's elements every use of
// which the host-event walker turns into an event of its own (`float *p =
// u->data();` then `p[i]`, `p + N` handed to MPI_Sendrecv or memcpy,
// comparisons, re-pointing). Binding such a pointer touches nothing, as
// binding a reference does: what happens through it happens where it is
// used. A pointer also stored in a struct, returned, captured by a lambda,
// converted to an integer, bound to a reference, or handed to a helper Ferry
// summarises (which could store it) is not followed: its binding stays an
// escape (HostEvent::OnlyBinds says which is which).

#include "clang/AST/Decl.h"

namespace ferry {

/// Whether every use of the local pointer P in F's body is one the event
/// walker follows.
bool everyUseFollowed(const clang::VarDecl *P, const clang::FunctionDecl *F);

} // namespace ferry
