#pragma once
// The emitter's internals, shared by its files (tool/emit/Emit*.cpp): the
// Emitter class, the state of the function being printed, and small helpers.
// Where each part is printed:
//   EmitTypes.cpp          types, structs with the host's layout, enums,
//                          constant globals
//   EmitLiterals.cpp       literals and constants
//   EmitExpressions.cpp    operators, casts, names, members, initialisers
//   EmitCalls.cpp          calls of helpers and library functions
//   EmitBuiltins.cpp       OpenCL C built-ins: math, work-item functions,
//                          barrier, atomics, printf, assert
//   EmitLocalMemory.cpp    ferry::Local and LocalSpan: __local arrays, hoisted
//                          to kernel scope
//   EmitBarrierCheck.cpp   the error for a barrier under a divergent condition
//   EmitStatements.cpp     statements and local declarations
//   EmitFunctions.cpp      kernels, helpers and their address-space versions
//   EmitVectors.cpp        ferry::float4 and kin: OpenCL C's vectors, their
//                          operators infix, their functions as built-ins
//   EmitReductions.cpp     kernels with ferry::Sum/Min/Max parameters: the
//                          item, the stride loop, the group and final folds
//   EmitAddressSpaces.cpp  where pointers point and objects live
//   EmitLayout.cpp         lines, #line markers, comments, line breaks
//   EmitDiagnostics.cpp    errors and the notes that locate them
//   OpenCLEmitter.cpp      the program: order of sections, the entry point

#include "emit/MathBuiltins.h"
#include "emit/OpenCLEmitter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ferry {
namespace emit {

using namespace clang;

enum class Space { Private, Global, Constant, Local };

/// "__global " and friends, as they prefix a pointee type.
const char *spaceQualifier(Space S);
/// "global" and friends, as they name a version of a helper.
const char *spaceWord(Space S);
/// The OpenCL C text of a floating atomic helper named as
/// Emitter::floatAtomicCall names it (`ferry_atomic_add_float_global`).
std::string floatAtomicDefinition(llvm::StringRef Name);

/// Concatenates in order: the parts are evaluated left to right, which
/// keeps the order of emitted helpers and of diagnostics deterministic.
inline std::string cat(std::initializer_list<std::string> Parts) {
  std::string Out;
  for (const std::string &P : Parts)
    Out += P;
  return Out;
}

enum class Prec { Primary, Cast, Other };

bool isTransparentCast(CastKind K);
bool isToBoolean(CastKind K);
/// E without the implicit nodes that print as nothing.
const Expr *skipTransparent(const Expr *E);
/// The sub-expression an explicit cast converts, and whether the cast is
/// printed at all: casts that only add const or keep the type vanish.
const Expr *castOperand(const ExplicitCastExpr *C);
bool castIsPrinted(const ExplicitCastExpr *C);
/// How tightly an expression as printed binds. `IsRefPointer` tells a use of
/// a C++ reference printed as `*name`.
Prec precOf(const Expr *E,
            llvm::function_ref<bool(const DeclRefExpr *)> IsRefPointer);
/// The fields of ferry::KernelContext, in the order of the struct
/// `ferry_KernelContext` that a kernel passing its context on whole builds.
llvm::ArrayRef<const char *> kernelContextFields();
/// A field of ferry_KernelContext that is `long` (kc.x64 and its kin).
bool isWideContextField(llvm::StringRef Field);

/// Does the kernel take a ferry::Sum, Min or Max?
bool hasReducerParam(const FunctionDecl *F);

/// Is D declared in namespace std (library types are refused on the device)?
bool inStdNamespace(const Decl *D);

struct VarInfo {
  /// For a pointer variable: where it points. For a reference emitted as a
  /// pointer: where the referenced object lives.
  Space Where = Space::Private;
  /// A C++ reference emitted as a pointer: uses print as `(*name)`.
  bool RefPointer = false;
  std::string Name;
  /// A ferry::Local or ferry::LocalSpan: an array in __local memory (or a
  /// pointer to one), indexed as `name[i]`.
  bool LocalMemory = false;
  /// A ferry::LocalSpan: the uint parameter holding its element count.
  std::string SizeName;
  /// A reducer parameter (ferry::Sum and friends) of a reduction's item: a
  /// pointer to the work-item's private value, named only to combine.
  bool Reducer = false;
};

struct Version {
  std::string Name;
  /// Its entry in Emitter::Funcs.
  unsigned Index = 0;
  Space ReturnSpace = Space::Private;
  /// The ferry::Local arrays this helper, or a helper it calls, declares:
  /// OpenCL C 1.2 declares __local variables only at kernel scope, so each
  /// calling kernel declares them and passes them down as hidden trailing
  /// `__local T*` parameters, in this order.
  std::vector<const VarDecl *> HiddenLocals;
};

/// The function being printed.
struct FunctionState {
  const FunctionDecl *F = nullptr;
  bool IsKernel = false;
  const ParmVarDecl *KernelContextParam = nullptr;
  std::map<const ValueDecl *, VarInfo> Vars;
  /// The variables the printed body names: a parameter missing here gets
  /// `__attribute__((unused))`, since OpenCL C requires parameter names and
  /// the body may not name one (an expanded pack only counted by
  /// `sizeof...`, an unnamed C++ parameter) while the host still passes it.
  std::set<const ValueDecl *> Used;
  std::string Out;
  unsigned Indent = 1;
  /// The source line the next output line corresponds to; 0: unknown.
  unsigned CurLine = 0;
  std::string CurFile;
  bool ReturnSpaceKnown = false;
  Space ReturnSpace = Space::Private;
  /// Variables whose declaration was already diagnosed: uses stay quiet.
  std::set<const ValueDecl *> Poisoned;
  /// The start of the statement being printed (for continuation lines).
  SourceLocation StmtStart;
  /// The versions (Emitter::Funcs indices) this function calls.
  std::set<unsigned> Callees;
  /// A member function's object: `self`, by value (const member functions)
  /// or through a pointer into ThisSpace.
  enum class ThisMode { None, Value, Pointer } This = ThisMode::None;
  Space ThisSpace = Space::Private;
  /// Every name the function's C++ declares (parameters and variables), so
  /// that names Ferry adds (hoisted local arrays, LocalSpan sizes) avoid them.
  std::map<std::string, unsigned> DeclaredNames; // name: how many
  /// ferry::Local arrays this function cannot declare where the user did,
  /// by their name here: in a kernel, declared at the top of its body
  /// (HoistedText); in a helper, its hidden parameters (Version::HiddenLocals).
  std::vector<std::pair<const VarDecl *, std::string>> LocalSlots;
  std::string HoistedText;
  /// The LocalSpan size parameters the printed body names.
  std::set<std::string> UsedSizes;
};

class Emitter {
public:
  Emitter(ASTContext &Ctx, const BarrierFences &Fences,
          const RestrictParams &Restrict)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Policy(Ctx.getLangOpts()),
        Fences(Fences), Restrict(Restrict) {
    Policy.SuppressTagKeyword = true;
  }

  std::optional<EmittedProgram>
  run(llvm::ArrayRef<const FunctionDecl *> Kernels);

private:
  ASTContext &Ctx;
  SourceManager &SM;
  PrintingPolicy Policy;
  /// Which barriers fence global memory (the analysis decides; printed here).
  const BarrierFences &Fences;
  /// Which kernel parameters are `restrict` (the analysis decides).
  const RestrictParams &Restrict;
  unsigned IndentWidth = 4;
  bool HadError = false;
  bool UsesDouble = false;
  bool NeedsKernelContext = false;
  /// Some kernel names kc.x64 or its kin: ferry_KernelContext carries the
  /// 64-bit fields too (only then, so that other programs print as before).
  bool WideContext = false;
  /// The fields of ferry_KernelContext in this program, in order.
  std::vector<const char *> contextFields() const;
  bool NeedsOffsetof = false;
  /// The compare-and-swap helpers floating atomics need, by name
  /// (`ferry_atomic_add_float_global`), each printed once before the kernels.
  std::set<std::string> FloatAtomics;
  /// The min/max folds reductions use (`ferry_minimum_int`), each printed
  /// once before the functions.
  std::set<std::pair<std::string, std::string>> ReducerOps;
  /// The kernel whose reduction item is being printed (EmitReductions.cpp).
  const FunctionDecl *ReductionItem = nullptr;
  /// Nesting of range-based for loops (their index names).
  unsigned RangeDepth = 0;

  std::string Types, Constants, HostChecks;
  /// Every emitted function, in the order its emission started. The program
  /// lists them callees first, otherwise in source order.
  struct EmittedFunction {
    std::string Text;
    SourceLocation Loc;
    std::set<unsigned> Callees;
  };
  std::vector<EmittedFunction> Funcs;
  std::set<std::pair<unsigned, std::string>> Reported;

  std::map<const RecordDecl *, std::string> RecordNames;
  std::set<const RecordDecl *> RecordsInProgress;
  std::map<const EnumDecl *, std::string> EnumNames;
  std::map<const VarDecl *, std::string> GlobalNames;
  std::map<std::pair<const FunctionDecl *, std::string>, Version> Versions;
  std::map<const FunctionDecl *, unsigned> VersionCount;
  std::set<std::string> UsedNames;
  std::map<const CallExpr *, Space> CallReturnSpaces;

  struct Frame {
    const FunctionDecl *F;
    const Expr *Site; // the call in the previous frame; null for the kernel
  };
  std::vector<Frame> Stack;
  FunctionState *Cur = nullptr;


  // ---- diagnostics (EmitDiagnostics.cpp) ------------------------------
  void error(SourceLocation Loc, const llvm::Twine &Msg,
             SourceRange Range = {});
  /// The generic error for a construct with no translation; returns the
  /// placeholder printed in its place.
  std::string cannot(const Stmt *S);

  // ---- lines (EmitLayout.cpp) ------------------------------------------
  std::string fileOf(SourceLocation Loc);
  unsigned lineOf(SourceLocation Loc);
  static std::string quoted(llvm::StringRef S);
  /// Writes one line of the current function, preceded by a #line marker
  /// (or blank lines, for a small gap) when it does not follow on.
  void line(SourceLocation Loc, const std::string &Text, int ExtraIndent = 0);
  /// Are lines [From, To) of Loc's file blank? (Skipped lines that held
  /// code, a `using` say, get a #line marker rather than blank lines.)
  bool blankLines(SourceLocation Loc, unsigned From, unsigned To);
  /// The user's comments on whole lines between `From` and `To` (two points
  /// of one file, outside macros), printed at the current indentation.
  void comments(SourceLocation From, SourceLocation To);
  /// Where a token's text ends.
  SourceLocation endOf(SourceLocation Loc);
  /// " " between two parts of an expression, or a line break where the user
  /// broke the line, keeping the continuation's indentation relative to the
  /// statement.
  std::string gap(SourceLocation Before, SourceLocation Next);
  /// The text between two operands around operator `Op`, breaking the line
  /// before or after the operator where the user did.
  std::string around(const Expr *LHS, SourceLocation OpLoc, const Expr *RHS,
                     llvm::StringRef Op);

  // ---- types (EmitTypes.cpp) --------------------------------------------
  std::string builtinName(const BuiltinType *BT, SourceLocation Loc,
                          bool AsStorage);
  std::string typeName(QualType T, SourceLocation Loc, bool AsStorage = false);
  std::string declare(QualType T, const std::string &Name, SourceLocation Loc,
                      Space PointerSpace = Space::Private,
                      bool AsStorage = false);
  std::string recordName(const RecordDecl *RD, SourceLocation Loc);
  std::string enumName(const EnumDecl *ED, SourceLocation Loc);
  std::string globalName(const VarDecl *VD, SourceLocation Loc);
  bool checkDeviceType(QualType T, SourceLocation Loc);
  std::string hostTypeName(const RecordDecl *RD);

  // ---- local memory (EmitLocalMemory.cpp) -----------------------------
  /// A ferry::Local declaration: in place at a kernel's outermost scope,
  /// else hoisted (see Version::HiddenLocals). Prints nothing if hoisted.
  void localDecl(const VarDecl *VD);
  /// The name, in the function being printed, of the ferry::Local `VD`
  /// (declared here or in a helper this function calls), making it a
  /// hoisted declaration or a hidden parameter on first use.
  std::string localSlot(const VarDecl *VD);
  /// A name for something Ferry adds to the current function: Base, or Base
  /// with a suffix, clear of every name the function declares.
  /// `Own`: Base is the name of one declaration of the function itself.
  std::string freshName(const std::string &Base, bool Own = false);
  /// `tile[i]`, `tile.data()`, `tile.size()` on a ferry::Local or LocalSpan;
  /// "" when CE is not such a call.
  std::optional<std::string> localMemoryCall(const CallExpr *CE);
  /// Is E (a call on a ferry::Local or LocalSpan) an element or pointer in
  /// __local memory?
  bool isLocalMemoryAccess(const Expr *E);

  // ---- barrier check (EmitBarrierCheck.cpp) ----------------------------
  /// Reports each kc.barrier() that some work-items of a group may skip
  /// (under a condition on their ids), in the kernel or a helper it calls.
  void checkBarriers(const FunctionDecl *Kernel);

  // ---- functions (EmitFunctions.cpp) -----------------------------------
  const Version &requestVersion(const FunctionDecl *F,
                                const std::vector<Space> &Spaces,
                                const Expr *Site);
  /// ferry::Vec<T, N> as OpenCL C names it (`float4`).
  std::string vectorTypeName(QualType T, SourceLocation Loc);
  /// A vector's constructor as a vector literal; none for other types.
  std::optional<std::string> vectorConstruct(const CXXConstructExpr *CE);
  /// An operator or function of <ferry/vectors.hpp>; none for other calls.
  std::optional<std::string> vectorCall(const CallExpr *CE);
  /// A kernel with reducer parameters (EmitReductions.cpp).
  void emitReductionKernel(const FunctionDecl *K);
  /// `r += v` or `r.combine(v)` on a reducer; none for other calls.
  std::optional<std::string> reducerCall(const CallExpr *CE);
  /// `A op B` for a reduction over `Element` (an OpenCL C type).
  std::string reducerFold(const std::string &Operation,
                          const std::string &Element, const std::string &A,
                          const std::string &B);
  void emitFunction(const FunctionDecl *F, const std::vector<Space> &Spaces,
                    const std::string &Name, bool IsKernel, Version &V);
  std::string functionName(const FunctionDecl *F);

  // ---- statements (EmitStatements.cpp) ---------------------------------
  void stmt(const Stmt *S);
  void compoundBody(const CompoundStmt *CS, bool SwitchBody);
  void subStmt(const Stmt *S); // body of if/for/while
  /// `Head {` body `}` for a block, else `Head` and the indented statement.
  void headedBody(SourceLocation Loc, const std::string &Head, const Stmt *Body);
  void varDecl(const VarDecl *VD, SourceLocation Loc);
  std::string varDeclInline(const VarDecl *VD);
  std::string forInit(const Stmt *S);

  // ---- expressions (EmitExpressions.cpp) -------------------------------
  std::string expr(const Expr *E);
  std::string cond(const Expr *E);
  Prec prec(const Expr *E);
  std::string operand(const Expr *E); // as the operand of a cast/unary op
  std::string postfixBase(const Expr *E);
  std::string converted(const Expr *E, QualType Target);
  std::string castTo(QualType T, const Expr *Sub, SourceLocation Loc);
  std::string initList(const InitListExpr *IL);
  std::string construct(const CXXConstructExpr *CE);
  std::string declRef(const DeclRefExpr *DRE);
  std::string member(const MemberExpr *ME);

  // ---- calls (EmitCalls.cpp) and built-ins (EmitBuiltins.cpp) ----------
  std::string call(const CallExpr *CE);
  std::string mathCall(const CallExpr *CE, const FunctionDecl *Callee,
                       const MathBuiltin &B);
  /// `kc.x` and the other KernelContext fields as work-item functions.
  std::optional<std::string> workItemField(llvm::StringRef Field);
  /// The ferry:: and C library calls with an OpenCL C built-in of their own:
  /// kc.barrier(), the atomics, printf, a failed assert. std::nullopt when
  /// CE is none of them.
  std::optional<std::string> builtinCall(const CallExpr *CE,
                                         const FunctionDecl *Callee);
  std::string atomicCall(const CallExpr *CE, llvm::StringRef Builtin);
  std::string floatAtomicCall(const CallExpr *CE, bool Subtract, bool Double);
  std::string nativeMathCall(const CallExpr *CE, const FunctionDecl *Callee);
  std::string printfCall(const CallExpr *CE);
  std::string assertFailCall(const CallExpr *CE);
  /// A string literal as OpenCL C source.
  static std::string stringLiteral(llvm::StringRef Bytes);

  // ---- literals (EmitLiterals.cpp) -------------------------------------
  std::string intLiteral(const IntegerLiteral *IL);
  std::string floatLiteral(const FloatingLiteral *FL);
  std::string apValue(const APValue &V, QualType T, SourceLocation Loc);
  /// E's value as a literal, if it is a constant; "" otherwise.
  std::string constant(const Expr *E);
  std::string floatText(const llvm::APFloat &F, bool IsFloat);
  std::string sourceText(SourceRange R);
  /// A literal operand of an overloaded built-in, written in Target's type.
  std::string literalAs(const Expr *E, QualType Target);

  // ---- address spaces (EmitAddressSpaces.cpp) --------------------------
  Space pointerSpace(const Expr *E);
  const Expr *firstAssignment(const VarDecl *VD);
  Space objectSpace(const Expr *E);
  const VarInfo *varInfo(const Expr *E);
  bool isKernelContextParamRef(const Expr *E);
};

} // namespace emit
} // namespace ferry
