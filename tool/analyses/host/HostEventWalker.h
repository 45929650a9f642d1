#pragma once
// The walker behind collectHostEvents (HostEvents.h), internal to
// analyses/host/: it lists, in evaluation order, what host code does to
// buffers. One class, its parts defined by subject:
//   HostEvents.cpp             statements and declarations, and recording
//                              an event
//   HostEventExpressions.cpp   values and lvalues: which are read, which
//                              written
//   HostEventPointers.cpp      pointers into buffers: kept, compared, or
//                              accessed through
//   HostEventCalls.cpp         calls: summaries of visible functions and
//                              members, globals they reach, lambdas
//   HostEventLibraryCalls.cpp  calls Ferry knows by name: standard
//                              algorithms, memcpy and its kin, MPI

#include "analyses/MpiCalls.h"
#include "analyses/host/CountedHostWrites.h"
#include "analyses/host/ElementRanges.h"
#include "analyses/host/HostEvents.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ferry {

class HostSummaryCache;

/// A pointer to const elements.
inline bool isPointerToConst(clang::QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// A constructor or member function of a standard library class taking an
/// iterator, a template parameter, by value (`std::vector<float> v(b.begin(),
/// b.end())`, `v.assign(…)`, `v.insert(pos, …)`): a range it reads. Not
/// `istream::read(char *, n)`, whose pointer is written through.
bool isStdIteratorParameter(const clang::FunctionDecl *F, unsigned Index);

/// memcpy, memmove, memset, memcmp: what they do through pointer `Index`.
bool memoryFunctionAccess(const clang::FunctionDecl *F, unsigned Index,
                          Access &Mode);

class HostWalker {
public:
  HostWalker(const ObjectTable &Table, PointsTo &Facts,
             HostSummaryCache &Summaries, const clang::Stmt *Root)
      : Table(Table), Facts(Facts), Summaries(Summaries), Counts(Table),
        Ranges(Table, Root) {}

  std::vector<HostEvent> Events;

  /// Statements, in evaluation order (HostEvents.cpp).
  void walkStmt(const clang::Stmt *S);

private:
  clang::ASTContext &Ctx() const { return Table.function()->getASTContext(); }

  void walkLoop(const clang::Stmt *S);

  // --- recording (HostEvents.cpp) -------------------------------------------
  void push(HostEvent E);

  void add(const clang::Expr *Site, const clang::Expr *Buffer, Access Mode,
           std::string What, bool Overwrites = false, bool Escapes = false);

  void addRaw(const clang::Expr *Site, const std::set<ObjectId> &Targets,
              Access Mode, std::string What, bool Escapes = false);

  void addKind(HostEventKind Kind, const clang::Expr *Buffer, std::string What);

  /// What a call may read, write and keep a pointer to: the buffers a
  /// capture, an override or a function Ferry cannot see may reach.
  void addEscaping(const clang::Expr *Site, ObjectRefs Targets,
                   std::string What, std::string Spelling = {});

  /// The elements touched by the one event added since Before, the element
  /// `Pointer[Index]` (or `b[Index]`) at Site.
  void elementRange(size_t Before, const clang::Expr *Site,
                    const clang::Expr *Pointer, const clang::Expr *Index,
                    Access Mode);

  /// Everything done inside is through something Ferry does not follow.
  struct EscapeScope {
    EscapeScope(HostWalker &W, bool On) : W(W), Saved(W.Escaping) {
      W.Escaping = W.Escaping || On;
    }
    ~EscapeScope() { W.Escaping = Saved; }
    HostWalker &W;
    bool Saved;
  };

  static const char *modeWord(Access Mode) {
    return Mode == Access::Read    ? "read"
           : Mode == Access::Write ? "written"
                                   : "read and written";
  }

  // --- declarations (HostEvents.cpp) ----------------------------------------
  void visitVarDecl(const clang::VarDecl *V);

  /// What a reference or pointer to a buffer is bound to: the buffers are
  /// not accessed, only named (conditions and indexes inside are).
  void visitAliasInit(const clang::Expr *E);

  // --- pointers into buffers (HostEventPointers.cpp) ------------------------
  enum class Use {
    Compare, ///< only the address matters (`p != b.end()`, `if (p)`)
    Store,   ///< the pointer is kept (a variable, an unknown consumer)
    Element, ///< elements are accessed through it (`*p`, `p[i]`, a callee)
  };

  /// A pointer-valued expression used as `U`; for Element, with `Mode`.
  /// Pointers from data()/begin()/end() kept around let the buffer escape
  /// (read-write), unless they point to const; pointers Ferry follows (local
  /// variables bound to a buffer's elements) produce events where they are
  /// dereferenced.
  void consumePointer(const clang::Expr *E, Use U, Access Mode = Access::None,
                      bool ToConst = false);

  /// A pointer variable's value used as `U` (Site is the use).
  void pointerVariable(const clang::Expr *Var, const clang::Expr *Site, Use U,
                       Access Mode);

  /// A pointer or reference a call returns: std algorithms return iterators
  /// into their ranges, helpers pointers into their arguments.
  void callResult(const clang::CallExpr *Call, Use U, Access Mode);

  /// `float *p = Init` or `p = Init`: the pointer kept; when every use of p
  /// is followed (FollowedPointers.h), only a binding.
  void bindPointer(const clang::VarDecl *P, const clang::Expr *Init);

  /// The escape just added at Site hands out the pointer being bound.
  void markBinding(const clang::Expr *Site);

  // --- calls to functions and members (HostEventCalls.cpp) -----------------
  void visitCall(const clang::CallExpr *Call);

  /// The range the callee's summary gives its parameter `Param`
  /// (HostSummaryCache::ranges), with each of the callee's parameters
  /// spelled as the call's argument means it before the root; none where a
  /// name in it is not a parameter (a global, which the call site may
  /// shadow) or an argument has no such spelling (a side effect, a
  /// narrowing conversion, a variable the root changes first). It covers
  /// only when the call runs whenever the root does.
  std::optional<ElementRange> calleeRange(const clang::CallExpr *Call,
                                          const clang::FunctionDecl *Callee,
                                          unsigned Param, unsigned ArgBase);

  /// A range in the callee's parameters, in the call's arguments.
  std::optional<ElementRange> atCall(ElementRange R,
                                     const clang::CallExpr *Call,
                                     const clang::FunctionDecl *Callee,
                                     unsigned ArgBase);

  /// The buffers a lambda's closure captures, read and written where it is
  /// made and again where it is called: named by the captured variable
  /// (an implicit capture has no text of its own to spell).
  void capturedBuffers(const clang::CXXRecordDecl *Closure,
                       const clang::Expr *Site, const char *What);

  void capturedObject(const clang::VarDecl *V, const clang::Expr *Site,
                      const char *What);
  /// A call Ferry cannot see into, handed the ComputeContext.
  bool opaqueComputeCall(const clang::CallExpr *Call) const;
  /// A call of a callable whose target only the run knows: through a
  /// function pointer, a std::function, std::invoke.
  static bool unseenCallable(const clang::CallExpr *Call);
  /// The lambdas the function around this code makes, but the computes'
  /// and this code's own: what such a callable may run.
  const std::vector<const clang::LambdaExpr *> &lambdasMadeAround();
  std::optional<std::vector<const clang::LambdaExpr *>> MadeAround;

  /// A method called on an object (`bump()` on `this`, `sim.step(cc)`):
  /// what it does to the object's buffer members, by the method's summary;
  /// on an object Ferry cannot name (`sims[i].step(cc)`), to any buffer of
  /// each member's type.
  void memberEffects(const clang::CallExpr *Call);
  /// An object holding buffers handed to a call by reference or pointer
  /// (`step(cc, grid)`, `Toucher t(grid)`): each buffer member, with Mode.
  /// False when Arg is no such object the table knows.
  bool objectArgument(const clang::Expr *Arg, Access Mode, bool Escapes,
                      const std::string &What);

  /// The global buffers the callee's bodies name, or every global buffer
  /// when it calls something Ferry cannot see: read and written there, as
  /// far as this function knows.
  void globalEffects(const clang::CallExpr *Call);

  // --- calls known by name (HostEventLibraryCalls.cpp) ----------------------
  /// memcpy, memmove, memset, memcmp: what they do through each pointer,
  /// over the bytes their count says. What they read is listed first:
  /// memmove reads its source before the destination, which may overlap it,
  /// is written.
  void visitMemoryCall(const clang::CallExpr *Call);

  /// An MPI call (MpiCalls.h): its counts, ranks and statuses are evaluated
  /// first; then what it sends is read and what it receives written, over
  /// [offset, offset + count) when the datatype is the buffer's element
  /// type (or MPI_BYTE), all of the buffer otherwise. Sends come before
  /// receives, so that one buffer both sent from and received into
  /// (`MPI_Sendrecv(p + N, …, p, …)`) is read before it is written.
  void visitMpiCall(const clang::CallExpr *Call, const MpiFunction &M);

  void visitStdAlgorithm(const clang::CallExpr *Call, llvm::StringRef Name);

  /// The elements an algorithm's iterator arguments span: [first, last)
  /// of one buffer, the destination of a copy over as many, a counted
  /// algorithm's n from its iterator. Covers for the writes that store
  /// every element of their span.
  struct AlgorithmSpan {
    RangeText First, Count;
    bool Covers = false;
  };
  std::map<unsigned, AlgorithmSpan> algorithmSpans(const clang::CallExpr *Call,
                                                   llvm::StringRef Name);

  /// Which buffer an iterator argument points into, to tell whether two
  /// point into the same one: its object when the name denotes one, or the
  /// pointer variable it is read from.
  const void *bufferKey(const clang::Expr *Arg) const;

  /// One argument of a standard algorithm: its events.
  void algorithmArgument(const clang::CallExpr *Call, llvm::StringRef Name,
                         unsigned I, unsigned CountedArg,
                         const clang::Expr *CountExpr,
                         const clang::Expr *CountOf, bool WholeRange,
                         const std::string &What);

  // --- expressions (HostEventExpressions.cpp) ------------------------------
  void visitChildren(const clang::Expr *E);

  void visitValue(const clang::Expr *E);

  void visitLValue(const clang::Expr *E, Access Mode);

  // --- state ---------------------------------------------------------------
  const ObjectTable &Table;
  PointsTo &Facts;
  HostSummaryCache &Summaries;
  bool Escaping = false;
  /// The followed pointer a value is being bound to (bindPointer).
  const clang::VarDecl *Binding = nullptr;
  std::set<const clang::ValueDecl *> LoopElements;
  /// Which stores of the loops being walked write a counted prefix.
  CountedHostWrites Counts;
  /// The elements each event touches, as texts before the walk's root.
  ElementRanges Ranges;
};

} // namespace ferry
