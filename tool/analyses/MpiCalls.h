#pragma once
// MPI calls: the functions of <mpi.h> whose buffer arguments Ferry
// understands, so that a halo exchange is a read of what it sends and a
// write of what it receives, over exactly the count given, instead of a
// call Ferry cannot see (an escape of every buffer it is handed). A
// function counts as MPI's when it is declared in the global namespace in a
// file named mpi.h (a user's own MPI_Send elsewhere is an ordinary
// function). docs/analyze.md lists the functions.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace ferry {

/// What an MPI function does with one of its buffers.
enum class MpiRole {
  Send,          ///< reads [0, count)
  Receive,       ///< point-to-point: writes [0, count) when the message fills it
  ReceiveAll,    ///< a collective's receive: writes exactly [0, count)
  ReceiveAtRoot, ///< writes [0, count), at the root only
  SendReceive,   ///< reads and writes [0, count) (Sendrecv_replace, Bcast)
};

struct MpiBuffer {
  unsigned Buffer = 0; ///< the argument that points to the buffer
  unsigned Count = 0;  ///< its count, in elements of the datatype
  unsigned Type = 0;   ///< its datatype
  MpiRole Role = MpiRole::Send;
  /// The count is per rank (a gather's receive, a scatter's send): how many
  /// elements that is, only the run knows.
  bool PerRank = false;
  /// This send buffer may be MPI_IN_PLACE: the receive buffers are then
  /// also read (MPI_Allreduce(MPI_IN_PLACE, b, …)).
  bool MayBeInPlace = false;
};

struct MpiFunction {
  llvm::SmallVector<MpiBuffer, 2> Buffers;
};

/// F's buffers when F is one of the MPI functions Ferry understands, or
/// null.
const MpiFunction *mpiFunction(const clang::FunctionDecl *F);

/// What a datatype argument says of the elements it counts: a predefined
/// datatype written by its name (`MPI_FLOAT`: float), or MPI_BYTE (bytes).
struct MpiDatatype {
  bool Known = false;
  bool Bytes = false;
  clang::QualType Element;
};
MpiDatatype mpiDatatype(const clang::Expr *Arg, clang::ASTContext &Ctx);

/// `MPI_IN_PLACE` as an argument.
bool isMpiInPlace(const clang::Expr *Arg, clang::ASTContext &Ctx);

} // namespace ferry
