// MPI calls (see MpiCalls.h): the table of the functions Ferry understands,
// and the predefined datatypes it matches with a buffer's element type.

#include "analyses/MpiCalls.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace ferry {

namespace {

const llvm::StringMap<MpiFunction> &mpiTable() {
  using R = MpiRole;
  auto One = [](unsigned B, unsigned C, unsigned T, R Role) {
    MpiFunction F;
    F.Buffers.push_back({B, C, T, Role, false, false});
    return F;
  };
  auto Two = [](MpiBuffer A, MpiBuffer B) {
    MpiFunction F;
    F.Buffers.push_back(A);
    F.Buffers.push_back(B);
    return F;
  };
  static const llvm::StringMap<MpiFunction> Table = [&] {
    llvm::StringMap<MpiFunction> T;
    // (buf, count, datatype, …)
    for (const char *N : {"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend",
                          "MPI_Isend", "MPI_Issend", "MPI_Ibsend", "MPI_Irsend"})
      T[N] = One(0, 1, 2, R::Send);
    for (const char *N : {"MPI_Recv", "MPI_Irecv"})
      T[N] = One(0, 1, 2, R::Receive);
    // (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
    // recvtype, …)
    T["MPI_Sendrecv"] = Two({0, 1, 2, R::Send, false, false},
                            {5, 6, 7, R::Receive, false, false});
    T["MPI_Sendrecv_replace"] = One(0, 1, 2, R::SendReceive);
    // (buf, count, datatype, root, comm): the root reads, the others write.
    for (const char *N : {"MPI_Bcast", "MPI_Ibcast"})
      T[N] = One(0, 1, 2, R::SendReceive);
    // (sendbuf, recvbuf, count, datatype, op, root, comm)
    for (const char *N : {"MPI_Reduce", "MPI_Ireduce"})
      T[N] = Two({0, 2, 3, R::Send, false, true},
                 {1, 2, 3, R::ReceiveAtRoot, false, false});
    // (sendbuf, recvbuf, count, datatype, op, comm)
    for (const char *N : {"MPI_Allreduce", "MPI_Iallreduce"})
      T[N] = Two({0, 2, 3, R::Send, false, true},
                 {1, 2, 3, R::ReceiveAll, false, false});
    // (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, [root,]
    // comm): a gather receives recvcount from each rank.
    for (const char *N : {"MPI_Gather", "MPI_Igather"})
      T[N] = Two({0, 1, 2, R::Send, false, true},
                 {3, 4, 5, R::ReceiveAtRoot, true, false});
    for (const char *N : {"MPI_Allgather", "MPI_Iallgather"})
      T[N] = Two({0, 1, 2, R::Send, false, true},
                 {3, 4, 5, R::ReceiveAll, true, false});
    for (const char *N : {"MPI_Scatter", "MPI_Iscatter"})
      T[N] = Two({0, 1, 2, R::Send, true, false},
                 {3, 4, 5, R::ReceiveAll, false, false});
    return T;
  }();
  return Table;
}

/// The text of the macro an argument is written as (`MPI_FLOAT`), or "".
std::string macroArgument(const Expr *Arg, ASTContext &Ctx) {
  const Expr *E = Arg->IgnoreImpCasts();
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  if (!B.isMacroID() || !End.isMacroID())
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(SourceRange(B, End));
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

} // namespace

const MpiFunction *mpiFunction(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || !F->getName().starts_with("MPI_") ||
      !F->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  const SourceManager &SM = F->getASTContext().getSourceManager();
  SourceLocation Where = SM.getExpansionLoc(F->getFirstDecl()->getLocation());
  if (llvm::sys::path::filename(SM.getFilename(Where)) != "mpi.h")
    return nullptr;
  const llvm::StringMap<MpiFunction> &T = mpiTable();
  auto It = T.find(F->getName());
  return It == T.end() ? nullptr : &It->second;
}

MpiDatatype mpiDatatype(const Expr *Arg, ASTContext &Ctx) {
  MpiDatatype D;
  std::string Name = macroArgument(Arg, Ctx);
  if (Name.empty())
    return D;
  if (Name == "MPI_BYTE") {
    D.Known = D.Bytes = true;
    return D;
  }
  static const llvm::StringMap<int> Fixed = {
      {"MPI_INT8_T", 8},    {"MPI_INT16_T", 16},  {"MPI_INT32_T", 32},
      {"MPI_INT64_T", 64},  {"MPI_UINT8_T", -8},  {"MPI_UINT16_T", -16},
      {"MPI_UINT32_T", -32}, {"MPI_UINT64_T", -64}};
  if (auto It = Fixed.find(Name); It != Fixed.end()) {
    int Bits = It->second;
    D.Element = Ctx.getIntTypeForBitwidth(Bits < 0 ? -Bits : Bits, Bits > 0);
    D.Known = !D.Element.isNull();
    return D;
  }
  const llvm::StringMap<CanQualType> Named = {
      {"MPI_CHAR", Ctx.CharTy},
      {"MPI_SIGNED_CHAR", Ctx.SignedCharTy},
      {"MPI_UNSIGNED_CHAR", Ctx.UnsignedCharTy},
      {"MPI_WCHAR", Ctx.WCharTy},
      {"MPI_SHORT", Ctx.ShortTy},
      {"MPI_UNSIGNED_SHORT", Ctx.UnsignedShortTy},
      {"MPI_INT", Ctx.IntTy},
      {"MPI_UNSIGNED", Ctx.UnsignedIntTy},
      {"MPI_LONG", Ctx.LongTy},
      {"MPI_UNSIGNED_LONG", Ctx.UnsignedLongTy},
      {"MPI_LONG_LONG", Ctx.LongLongTy},
      {"MPI_LONG_LONG_INT", Ctx.LongLongTy},
      {"MPI_UNSIGNED_LONG_LONG", Ctx.UnsignedLongLongTy},
      {"MPI_FLOAT", Ctx.FloatTy},
      {"MPI_DOUBLE", Ctx.DoubleTy},
      {"MPI_LONG_DOUBLE", Ctx.LongDoubleTy},
      {"MPI_C_BOOL", Ctx.BoolTy},
      {"MPI_CXX_BOOL", Ctx.BoolTy}};
  if (auto It = Named.find(Name); It != Named.end()) {
    D.Known = true;
    D.Element = It->second;
  }
  return D;
}

bool isMpiInPlace(const Expr *Arg, ASTContext &Ctx) {
  return macroArgument(Arg, Ctx) == "MPI_IN_PLACE";
}

} // namespace ferry
