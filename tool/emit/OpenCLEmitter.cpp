// The OpenCL C emitter: prints every kernel, and every function it reaches,
// from the Clang AST as OpenCL C 1.2, with its own printer (so the output
// follows OpenCL C's rules, not C++'s) and #line markers into the user's
// source. Whatever OpenCL C cannot express is reported at the construct.
//
// Shape of the translation:
//  * a function is emitted once per "version": the address spaces of its
//    pointer and reference parameters, taken from the arguments at each call;
//  * functions are emitted depth-first from the kernels, so every helper
//    precedes its callers; a call back into a function being emitted is
//    recursion and is reported;
//  * types (structs, enums) and constants are emitted on first use into
//    prelude sections that precede all functions.

#include "emit/OpenCLEmitter.h"

#include "emit/MathBuiltins.h"
#include "model/Diagnostics.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"
#include "parse/Annotations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace clang;

namespace ferry {

namespace {

enum class Space { Private, Global, Constant };

const char *spaceQualifier(Space S) {
  switch (S) {
  case Space::Global:
    return "__global ";
  case Space::Constant:
    return "__constant ";
  case Space::Private:
    return "";
  }
  return "";
}

const char *spaceWord(Space S) {
  switch (S) {
  case Space::Global:
    return "global";
  case Space::Constant:
    return "constant";
  case Space::Private:
    return "private";
  }
  return "";
}

/// Concatenates in order: the parts are evaluated left to right, which
/// keeps the order of emitted helpers and of diagnostics deterministic.
std::string cat(std::initializer_list<std::string> Parts) {
  std::string Out;
  for (const std::string &P : Parts)
    Out += P;
  return Out;
}

const char *operatorWord(OverloadedOperatorKind K) {
  switch (K) {
  case OO_Plus: return "plus";
  case OO_Minus: return "minus";
  case OO_Star: return "times";
  case OO_Slash: return "divide";
  case OO_Percent: return "modulo";
  case OO_Caret: return "xor";
  case OO_Amp: return "and";
  case OO_Pipe: return "or";
  case OO_Tilde: return "complement";
  case OO_Exclaim: return "not";
  case OO_Less: return "less";
  case OO_Greater: return "greater";
  case OO_LessEqual: return "less_equal";
  case OO_GreaterEqual: return "greater_equal";
  case OO_EqualEqual: return "equal";
  case OO_ExclaimEqual: return "not_equal";
  case OO_LessLess: return "shift_left";
  case OO_GreaterGreater: return "shift_right";
  case OO_AmpAmp: return "logical_and";
  case OO_PipePipe: return "logical_or";
  case OO_Call: return "call";
  case OO_Subscript: return "subscript";
  case OO_PlusEqual: return "plus_assign";
  case OO_MinusEqual: return "minus_assign";
  case OO_StarEqual: return "times_assign";
  case OO_SlashEqual: return "divide_assign";
  default: return "op";
  }
}

enum class Prec { Primary, Cast, Other };

bool isTransparentCast(CastKind K) {
  switch (K) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ArrayToPointerDecay:
  case CK_IntegralCast:
  case CK_FloatingCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_ConstructorConversion:
    return true;
  default:
    return false;
  }
}

bool isToBoolean(CastKind K) {
  return K == CK_IntegralToBoolean || K == CK_FloatingToBoolean ||
         K == CK_PointerToBoolean;
}

const Expr *skipTransparent(const Expr *E) {
  for (;;) {
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
        ICE && isTransparentCast(ICE->getCastKind()))
      E = ICE->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      E = CE->getSubExpr();
    else if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      E = S->getReplacement();
    else if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      E = D->getExpr();
    else if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      E = D->getExpr();
    else
      return E;
  }
}

/// The sub-expression an explicit cast converts, and whether the cast is
/// printed at all: casts that only add const or keep the type vanish.
const Expr *castOperand(const ExplicitCastExpr *C) {
  return C->getSubExprAsWritten();
}

bool castIsPrinted(const ExplicitCastExpr *C) {
  CastKind K = C->getCastKind();
  if (K == CK_ToVoid)
    return true;
  if (K == CK_ConstructorConversion || C->getType()->isRecordType() ||
      C->getType()->isArrayType() || C->getType()->isReferenceType())
    return false;
  QualType To = C->getType().getUnqualifiedType().getCanonicalType();
  QualType From = castOperand(C)
                      ->getType()
                      .getNonReferenceType()
                      .getUnqualifiedType()
                      .getCanonicalType();
  if (To->isPointerType() && From->isPointerType())
    return To->getPointeeType().getCanonicalType() !=
           From->getPointeeType().getCanonicalType();
  return To != From;
}

/// How tightly an expression as printed binds. `IsRefPointer` tells a use of
/// a C++ reference printed as `*name`.
Prec precOf(const Expr *E,
            llvm::function_ref<bool(const DeclRefExpr *)> IsRefPointer) {
  E = skipTransparent(E);
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_NullToPointer)
      return Prec::Primary;
    if (isToBoolean(ICE->getCastKind()))
      return Prec::Cast;
    return Prec::Other;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return IsRefPointer(DRE) ? Prec::Cast : Prec::Primary;
  if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<CXXBoolLiteralExpr>(E) || isa<CharacterLiteral>(E) ||
      isa<ParenExpr>(E) || isa<ArraySubscriptExpr>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
      isa<CXXThisExpr>(E))
    return Prec::Primary;
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!ME->isArrow() && isKernelContextType(ME->getBase()->getType()))
      return Prec::Cast; // possibly (int)get_global_id(0)
    return Prec::Primary;
  }
  if (isa<CallExpr>(E))
    return Prec::Cast; // (int)abs(x) at worst
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E)) {
    if (!castIsPrinted(C))
      return precOf(castOperand(C), IsRefPointer);
    return Prec::Cast;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return Prec::Cast;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Extension)
      return precOf(U->getSubExpr(), IsRefPointer);
    if (U->isPostfix())
      return Prec::Primary;
  }
  return Prec::Other;
}

struct VarInfo {
  /// For a pointer variable: where it points. For a reference emitted as a
  /// pointer: where the referenced object lives.
  Space Where = Space::Private;
  /// A C++ reference emitted as a pointer: uses print as `(*name)`.
  bool RefPointer = false;
  std::string Name;
};

struct Version {
  std::string Name;
  /// Its entry in Emitter::Funcs.
  unsigned Index = 0;
  Space ReturnSpace = Space::Private;
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
};

class Emitter {
public:
  explicit Emitter(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Policy(Ctx.getLangOpts()) {
    Policy.SuppressTagKeyword = true;
  }

  std::optional<EmittedProgram>
  run(llvm::ArrayRef<const FunctionDecl *> Kernels);

private:
  ASTContext &Ctx;
  SourceManager &SM;
  PrintingPolicy Policy;
  unsigned IndentWidth = 4;
  bool HadError = false;
  bool UsesDouble = false;
  bool NeedsKernelContext = false;
  bool NeedsOffsetof = false;
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

  // ---- diagnostics ---------------------------------------------------
  void error(SourceLocation Loc, const llvm::Twine &Msg,
             SourceRange Range = {}) {
    HadError = true;
    std::string Text = Msg.str();
    if (!Reported.insert({Loc.getRawEncoding(), Text}).second)
      return;
    reportError(Ctx, Loc, Text, Range);
    for (size_t I = Stack.size(); I-- > 1;) {
      const FunctionDecl *Callee = Stack[I].F;
      const FunctionDecl *Caller = Stack[I - 1].F;
      unsigned Line =
          SM.getPresumedLineNumber(SM.getExpansionLoc(Stack[I].Site->getBeginLoc()));
      reportNote(Ctx, Stack[I].Site->getBeginLoc(),
                 "in helper '" + Callee->getQualifiedNameAsString() +
                     "', called from " + (I - 1 == 0 ? "kernel" : "helper") +
                     " '" + Caller->getQualifiedNameAsString() +
                     "' at line " + std::to_string(Line));
    }
  }
  std::string cannot(const Stmt *S) {
    error(S->getBeginLoc(),
          std::string("Ferry cannot translate ") + S->getStmtClassName() +
              " to OpenCL C",
          S->getSourceRange());
    return "/*error*/0";
  }

  // ---- lines -----------------------------------------------------------
  std::string fileOf(SourceLocation Loc) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    return P.isValid() ? P.getFilename() : "";
  }
  unsigned lineOf(SourceLocation Loc) {
    return SM.getPresumedLineNumber(SM.getExpansionLoc(Loc));
  }
  static std::string quoted(llvm::StringRef S) {
    std::string Out = "\"";
    for (char C : S) {
      if (C == '"' || C == '\\')
        Out += '\\';
      Out += C;
    }
    return Out + "\"";
  }
  /// Writes one line of the current function, preceded by a #line marker
  /// (or blank lines, for a small gap) when it does not follow on.
  void line(SourceLocation Loc, const std::string &Text, int ExtraIndent = 0) {
    FunctionState &S = *Cur;
    if (Loc.isValid()) {
      unsigned L = lineOf(Loc);
      std::string File = fileOf(Loc);
      if (File == S.CurFile && L > S.CurLine && L - S.CurLine <= 2 &&
          S.CurLine != 0 && blankLines(Loc, S.CurLine, L)) {
        while (S.CurLine < L) {
          S.Out += "\n";
          ++S.CurLine;
        }
      } else if (File != S.CurFile || L != S.CurLine) {
        S.Out += "#line " + std::to_string(L) + " " + quoted(File) + "\n";
        S.CurLine = L;
        S.CurFile = File;
      }
    }
    S.Out += std::string((S.Indent + ExtraIndent) * IndentWidth, ' ') + Text +
             "\n";
    if (S.CurLine)
      S.CurLine += 1 + std::count(Text.begin(), Text.end(), '\n');
  }

  /// Are lines [From, To) of Loc's file blank? (Skipped lines that held
  /// code, a `using` say, get a #line marker rather than blank lines.)
  bool blankLines(SourceLocation Loc, unsigned From, unsigned To) {
    SourceLocation E = SM.getExpansionLoc(Loc);
    FileID FID = SM.getFileID(E);
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    if (Invalid)
      return false;
    for (unsigned L = From; L < To; ++L) {
      SourceLocation A = SM.translateLineCol(FID, L, 1);
      if (A.isInvalid())
        return false;
      unsigned Off = SM.getFileOffset(A);
      size_t End = Buf.find('\n', Off);
      if (!Buf.slice(Off, End).trim().empty())
        return false;
    }
    return true;
  }

  /// The user's comments on whole lines between `From` and `To` (two points
  /// of one file, outside macros), printed at the current indentation.
  void comments(SourceLocation From, SourceLocation To) {
    if (From.isInvalid() || To.isInvalid() || From.isMacroID() ||
        To.isMacroID())
      return;
    FileID FID = SM.getFileID(From);
    if (FID != SM.getFileID(To))
      return;
    unsigned A = SM.getFileOffset(From), B = SM.getFileOffset(To);
    if (A >= B)
      return;
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    if (Invalid)
      return;
    llvm::StringRef Text = Buf.slice(A, B);
    // Skip the rest of From's line: a comment there trails code.
    size_t NL = Text.find('\n');
    if (NL == llvm::StringRef::npos)
      return;
    unsigned Off = A + NL + 1;
    bool InBlock = false;
    while (Off < B) {
      size_t End = Buf.find('\n', Off);
      if (End == llvm::StringRef::npos || End > B)
        End = B;
      llvm::StringRef L = Buf.slice(Off, End).rtrim();
      llvm::StringRef T = L.ltrim();
      SourceLocation Loc = SM.getComposedLoc(FID, Off + (L.size() - T.size()));
      if (InBlock) {
        line(Loc, T.str());
        InBlock = !T.contains("*/");
      } else if (T.starts_with("//")) {
        line(Loc, T.str());
      } else if (T.starts_with("/*")) {
        line(Loc, T.str());
        InBlock = !T.drop_front(2).contains("*/");
      }
      Off = End + 1;
    }
  }

  /// Where a token's text ends.
  SourceLocation endOf(SourceLocation Loc) {
    if (Loc.isInvalid() || Loc.isMacroID())
      return {};
    return Lexer::getLocForEndOfToken(Loc, 0, SM, Ctx.getLangOpts());
  }

  /// " " between two parts of an expression, or a line break where the user
  /// broke the line, keeping the continuation's indentation relative to the
  /// statement.
  std::string gap(SourceLocation Before, SourceLocation Next) {
    if (!Cur || Cur->StmtStart.isInvalid() || Before.isInvalid() ||
        Next.isInvalid() || Before.isMacroID() || Next.isMacroID() ||
        SM.getFileID(Before) != SM.getFileID(Next))
      return " ";
    unsigned L0 = SM.getSpellingLineNumber(Before);
    unsigned L1 = SM.getSpellingLineNumber(Next);
    if (L1 <= L0)
      return " ";
    unsigned C0 = SM.getSpellingColumnNumber(Cur->StmtStart);
    unsigned C1 = SM.getSpellingColumnNumber(Next);
    unsigned Base = Cur->Indent * IndentWidth;
    unsigned Col = C1 > C0 ? Base + (C1 - C0) : Base + 2 * IndentWidth;
    return "\n" + std::string(Col, ' ');
  }

  /// The text between two operands around operator `Op`, breaking the line
  /// before or after the operator where the user did.
  std::string around(const Expr *LHS, SourceLocation OpLoc, const Expr *RHS,
                     llvm::StringRef Op) {
    std::string Before = gap(LHS->getEndLoc(), OpLoc);
    if (Before != " ")
      return Before + Op.str() + " ";
    return (Op == "," ? "" : " ") + Op.str() + gap(OpLoc, RHS->getBeginLoc());
  }

  // ---- types -----------------------------------------------------------
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

  // ---- functions -------------------------------------------------------
  const Version &requestVersion(const FunctionDecl *F,
                                const std::vector<Space> &Spaces,
                                const Expr *Site);
  void emitFunction(const FunctionDecl *F, const std::vector<Space> &Spaces,
                    const std::string &Name, bool IsKernel, Version &V);
  std::string functionName(const FunctionDecl *F);

  // ---- statements ------------------------------------------------------
  void stmt(const Stmt *S);
  void compoundBody(const CompoundStmt *CS, bool SwitchBody);
  void subStmt(const Stmt *S); // body of if/for/while
  /// `Head {` body `}` for a block, else `Head` and the indented statement.
  void headedBody(SourceLocation Loc, const std::string &Head, const Stmt *Body);
  void varDecl(const VarDecl *VD, SourceLocation Loc);
  std::string varDeclInline(const VarDecl *VD);
  std::string forInit(const Stmt *S);

  // ---- expressions -----------------------------------------------------
  std::string expr(const Expr *E);
  std::string cond(const Expr *E);
  Prec prec(const Expr *E);
  std::string operand(const Expr *E); // as the operand of a cast/unary op
  std::string postfixBase(const Expr *E);
  std::string converted(const Expr *E, QualType Target);
  std::string literalAs(const Expr *E, QualType Target);
  std::string call(const CallExpr *CE);
  std::string mathCall(const CallExpr *CE, const FunctionDecl *Callee,
                       const MathBuiltin &B);
  std::string castTo(QualType T, const Expr *Sub, SourceLocation Loc);
  std::string initList(const InitListExpr *IL);
  std::string construct(const CXXConstructExpr *CE);
  std::string declRef(const DeclRefExpr *DRE);
  std::string member(const MemberExpr *ME);
  std::string intLiteral(const IntegerLiteral *IL);
  std::string floatLiteral(const FloatingLiteral *FL);
  std::string apValue(const APValue &V, QualType T, SourceLocation Loc);
  /// E's value as a literal, if it is a constant; "" otherwise.
  std::string constant(const Expr *E);
  std::string floatText(const llvm::APFloat &F, bool IsFloat);
  std::string sourceText(SourceRange R);

  Space pointerSpace(const Expr *E);
  const Expr *firstAssignment(const VarDecl *VD);
  Space objectSpace(const Expr *E);
  const VarInfo *varInfo(const Expr *E);
  bool isKernelContextParamRef(const Expr *E);
};

// ======================================================================
// Types
// ======================================================================

std::string Emitter::builtinName(const BuiltinType *BT, SourceLocation Loc,
                                 bool AsStorage) {
  switch (BT->getKind()) {
  case BuiltinType::Void:
    return "void";
  case BuiltinType::Bool:
    // OpenCL's bool has no defined size: in memory shared with the host
    // (kernel arguments, struct members) it is the host's one byte.
    return AsStorage ? "uchar" : "bool";
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
    return "char";
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
  case BuiltinType::Char8:
    return "uchar";
  case BuiltinType::Short:
    return "short";
  case BuiltinType::UShort:
  case BuiltinType::Char16:
    return "ushort";
  case BuiltinType::Int:
    return "int";
  case BuiltinType::UInt:
  case BuiltinType::Char32:
    return "uint";
  case BuiltinType::WChar_S:
  case BuiltinType::WChar_U: {
    unsigned W = Ctx.getTypeSize(BT);
    bool S = BT->isSignedInteger();
    return W == 16 ? (S ? "short" : "ushort") : (S ? "int" : "uint");
  }
  case BuiltinType::Long:
  case BuiltinType::LongLong:
    return Ctx.getTypeSize(BT) == 64 ? "long" : "int";
  case BuiltinType::ULong:
  case BuiltinType::ULongLong:
    return Ctx.getTypeSize(BT) == 64 ? "ulong" : "uint";
  case BuiltinType::Float:
    return "float";
  case BuiltinType::Double:
    UsesDouble = true;
    return "double";
  case BuiltinType::LongDouble:
    error(Loc, "'long double' has no OpenCL C equivalent; use 'double'");
    return "double";
  case BuiltinType::NullPtr:
    error(Loc, "Ferry cannot translate 'std::nullptr_t' to OpenCL C");
    return "void*";
  default:
    error(Loc, "Ferry cannot translate type '" +
                   QualType(BT, 0).getAsString(Policy) + "' to OpenCL C");
    return "int";
  }
}

static bool inStdNamespace(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "std" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

std::string Emitter::typeName(QualType T, SourceLocation Loc, bool AsStorage) {
  std::string Prefix;
  if (T.isConstQualified())
    Prefix = "const ";
  if (T.isVolatileQualified())
    Prefix += "volatile ";
  QualType C = T.getCanonicalType();
  if (const auto *BT = dyn_cast<BuiltinType>(C))
    return Prefix + builtinName(BT, Loc, AsStorage);
  if (const auto *ET = C->getAs<EnumType>())
    return Prefix + enumName(ET->getDecl(), Loc);
  if (const auto *RT = C->getAs<RecordType>())
    return Prefix + recordName(RT->getDecl(), Loc);
  if (C->isPointerType() || C->isArrayType() || C->isReferenceType())
    return Prefix + declare(T, "", Loc);
  if (C->isFunctionType() || C->isFunctionPointerType()) {
    error(Loc, "function pointers cannot be translated to OpenCL C");
    return "void*";
  }
  error(Loc, "Ferry cannot translate type '" + T.getAsString(Policy) +
                 "' to OpenCL C");
  return "int";
}

std::string Emitter::declare(QualType T, const std::string &Name,
                             SourceLocation Loc, Space PointerSpace,
                             bool AsStorage) {
  QualType C = T.getCanonicalType();
  std::string Sep = Name.empty() ? "" : " ";
  if (const auto *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      return declare(CAT->getElementType(),
                     Name + "[" + std::to_string(CAT->getSize().getZExtValue()) +
                         "]",
                     Loc, PointerSpace, AsStorage);
    if (isa<VariableArrayType>(AT))
      error(Loc, "variable-length arrays cannot be translated to OpenCL C; "
                 "use a fixed size");
    else
      error(Loc, "Ferry cannot translate array type '" +
                     T.getAsString(Policy) + "' to OpenCL C");
    return "int" + Sep + Name;
  }
  if (const auto *PT = C->getAs<PointerType>()) {
    QualType P = PT->getPointeeType();
    if (P->isFunctionType()) {
      error(Loc, "function pointers cannot be translated to OpenCL C");
      return "void*" + Sep + Name;
    }
    if (P->isPointerType() || P->isArrayType()) {
      error(Loc, "pointers to pointers or arrays cannot be translated to "
                 "OpenCL C");
      return "void*" + Sep + Name;
    }
    std::string Q = T.isConstQualified() ? " const" : "";
    // bool in memory the host shares is the host's byte.
    return spaceQualifier(PointerSpace) +
           typeName(P, Loc, PointerSpace != Space::Private) + "*" + Q + Sep +
           Name;
  }
  if (C->isReferenceType()) {
    error(Loc, "Ferry cannot translate reference type '" +
                   T.getAsString(Policy) + "' here");
    return "int" + Sep + Name;
  }
  return typeName(T, Loc, AsStorage) + Sep + Name;
}

std::string Emitter::hostTypeName(const RecordDecl *RD) {
  QualType T = Ctx.getRecordType(RD);
  std::string Name = TypeName::getFullyQualifiedName(
      T, Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  // An anonymous namespace's members are named from the enclosing scope.
  for (size_t At; (At = Name.find("(anonymous namespace)::")) !=
                  std::string::npos;)
    Name.erase(At, strlen("(anonymous namespace)::"));
  return Name;
}

std::string Emitter::recordName(const RecordDecl *RD, SourceLocation Loc) {
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  auto It = RecordNames.find(RD);
  if (It != RecordNames.end())
    return It->second;
  if (isKernelContextType(Ctx.getRecordType(RD))) {
    NeedsKernelContext = true;
    return "ferry_KernelContext";
  }
  std::string Name = flatName(RD);
  if (inStdNamespace(RD) ||
      (isa<NamespaceDecl>(RD->getDeclContext()) &&
       cast<NamespaceDecl>(RD->getDeclContext())->getName() == "ferry")) {
    std::string Shown = RD->getQualifiedNameAsString();
    if (Shown == "std::basic_string" || Shown == "std::__cxx11::basic_string")
      Shown = "std::string";
    error(Loc, "'" + Shown +
                   "' cannot be used in OpenCL C (no std:: containers, "
                   "strings or library types on the device)");
    RecordNames[RD] = Name;
    return Name;
  }
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD); CXX && CXX->isLambda()) {
    error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
               "function");
    RecordNames[RD] = Name;
    return Name;
  }
  RecordNames[RD] = Name; // also guards against self-reference
  const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
  if (!RD->isCompleteDefinition()) {
    error(Loc, "struct '" + RD->getNameAsString() + "' is incomplete");
    return Name;
  }
  if (CXX && (CXX->getNumBases() || CXX->isPolymorphic())) {
    error(Loc, "Ferry cannot translate struct '" + RD->getNameAsString() +
                   "' to OpenCL C: it has base classes or virtual functions");
    return Name;
  }
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  UsedNames.insert(Name);
  RecordNames[RD] = Name;

  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  std::string Body;
  std::vector<std::pair<std::string, uint64_t>> Offsets;
  uint64_t Off = 0, MaxAlign = 1;
  unsigned Pad = 0;
  bool Ok = true;
  for (const FieldDecl *FD : RD->fields()) {
    SourceLocation FLoc = FD->getLocation();
    if (FD->isBitField()) {
      error(FLoc, "bit-fields cannot be translated to OpenCL C");
      Ok = false;
      continue;
    }
    if (FD->getName().empty()) {
      error(FLoc, "anonymous struct or union members cannot be translated "
                  "to OpenCL C; give the member a name");
      Ok = false;
      continue;
    }
    QualType FT = FD->getType();
    if (FT->isPointerType() || FT->isReferenceType()) {
      error(FLoc, "struct members that are pointers or references cannot be "
                  "shared with the device");
      Ok = false;
      continue;
    }
    std::string FName = FD->getName().str();
    if (isReservedInOpenCL(FName))
      FName += "_";
    std::string Decl = declare(FT.getUnqualifiedType(), FName, FLoc,
                               Space::Private, /*AsStorage=*/true);
    uint64_t At = L.getFieldOffset(FD->getFieldIndex()) / 8;
    TypeInfoChars TI = Ctx.getTypeInfoInChars(FT);
    uint64_t Align =
        Ctx.getTypeAlignInChars(FT->isArrayType()
                                    ? QualType(Ctx.getBaseElementType(FT))
                                    : FT)
            .getQuantity();
    if (FD->hasAttr<AlignedAttr>())
      Align = std::max<uint64_t>(Align, 1); // host layout decides below
    if (RD->isUnion()) { // every member at 0
      MaxAlign = std::max(MaxAlign, Align);
      Body += std::string(IndentWidth, ' ') + Decl + ";\n";
      Offsets.push_back({FName, 0});
      Off = std::max<uint64_t>(Off, TI.Width.getQuantity());
      continue;
    }
    uint64_t Natural = llvm::alignTo(Off, Align);
    if (At > Natural) {
      uint64_t Gap = At - Off;
      // Pad up to the host offset; if alignment would still move the member,
      // the member alignment is what differs and the checks will catch it.
      Body += std::string(IndentWidth, ' ') + "uchar ferry_pad" +
              std::to_string(Pad++) + "[" + std::to_string(Gap) + "];\n";
      Off = At;
    } else if (At < Natural) {
      error(FLoc, "the host layout of '" + RD->getNameAsString() +
                      "' (packed or under-aligned member '" +
                      FD->getNameAsString() +
                      "') cannot be reproduced in OpenCL C");
      Ok = false;
    }
    MaxAlign = std::max(MaxAlign, Align);
    Body += std::string(IndentWidth, ' ') + Decl + ";\n";
    Offsets.push_back({FName, At});
    Off = At + TI.Width.getQuantity();
  }
  uint64_t Size = L.getSize().getQuantity();
  uint64_t HostAlign = L.getAlignment().getQuantity();
  std::string Attr;
  if (HostAlign > MaxAlign) {
    Attr = " __attribute__((aligned(" + std::to_string(HostAlign) + ")))";
    MaxAlign = HostAlign;
  }
  if (llvm::alignTo(Off, MaxAlign) < Size)
    Body += std::string(IndentWidth, ' ') + "uchar ferry_pad" +
            std::to_string(Pad++) + "[" + std::to_string(Size - Off) + "];\n";
  if (RD->field_empty()) {
    error(RD->getLocation(), "empty structs cannot be translated to OpenCL C");
    Ok = false;
  }
  if (!Ok)
    return Name;

  const char *Kw = RD->isUnion() ? "union" : "struct";
  std::string Text;
  Text += "#line " + std::to_string(lineOf(RD->getBeginLoc())) + " " +
          quoted(fileOf(RD->getBeginLoc())) + "\n";
  Text += "typedef " + std::string(Kw) + Attr + " " + Name + " {\n" + Body +
          "} " + Name + ";\n";
  NeedsOffsetof = true;
  // The terms are joined with `&`, not `&&`: clang 15 (PoCL 3.1's) warns
  // "use of logical '&&' with constant operand" on every OpenCL C build.
  std::string Check = "(sizeof(" + Name + ") == " + std::to_string(Size) + ")";
  // offsetof is a macro: a template's name (`Vec<float, 3>`) goes through
  // an alias so its comma does not split the argument.
  std::string HostName = hostTypeName(RD);
  std::string HostAlias;
  if (HostName.find(',') != std::string::npos) {
    HostAlias = "using ferry_layout_" + Name + " = " + HostName + ";\n";
    HostName = "ferry_layout_" + Name;
  }
  std::string HostCheck =
      "sizeof(" + HostName + ") == " + std::to_string(Size);
  for (size_t I = 0; I < Offsets.size(); ++I) {
    Check += " & (FERRY_OFFSETOF(" + Name + ", " + Offsets[I].first +
             ") == " + std::to_string(Offsets[I].second) + ")";
  }
  unsigned I = 0;
  for (const FieldDecl *FD : RD->fields())
    HostCheck += " && offsetof(" + HostName + ", " +
                 FD->getNameAsString() + ") == " +
                 std::to_string(Offsets[I++].second);
  Text += "typedef char ferry_check_" + Name + "[(" + Check + ") ? 1 : -1];\n\n";
  Types += Text;
  // A struct local to a function cannot be named at namespace scope, where
  // the host checks go: the OpenCL C check alone compares it with the host.
  if (!RD->getDeclContext()->isFunctionOrMethod() &&
      !RD->getParentFunctionOrMethod()) {
    std::string ShownName = hostTypeName(RD);
    llvm::StringRef Shown = ShownName;
    Shown.consume_front("::");
    HostChecks += HostAlias + "static_assert(" + HostCheck +
                  ", \"ferry: the layout of '" + Shown.str() +
                  "' differs from the OpenCL C struct\");\n";
  }
  return Name;
}

std::string Emitter::enumName(const EnumDecl *ED, SourceLocation Loc) {
  ED = ED->getDefinition() ? ED->getDefinition() : ED;
  auto It = EnumNames.find(ED);
  if (It != EnumNames.end())
    return It->second;
  std::string Name = flatName(ED);
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  UsedNames.insert(Name);
  EnumNames[ED] = Name;
  QualType Under = ED->getIntegerType();
  if (Under.isNull())
    Under = Ctx.IntTy;
  std::string Text = "#line " + std::to_string(lineOf(ED->getBeginLoc())) +
                     " " + quoted(fileOf(ED->getBeginLoc())) + "\n";
  Text += "typedef " + typeName(Under, Loc) + " " + Name + ";\n";
  Text += "enum {";
  bool First = true;
  for (const EnumConstantDecl *EC : ED->enumerators()) {
    const llvm::APSInt &V = EC->getInitVal();
    std::string CName = flatName(EC);
    if (ED->isScoped())
      CName = Name + "__" + EC->getName().str();
    if (V.getSignificantBits() > 32 && !(V.isUnsigned() && V.getActiveBits() <= 31)) {
      error(EC->getLocation(), "enumerator value does not fit OpenCL C's "
                               "'int' enumeration constants");
    }
    Text += First ? " " : ", ";
    First = false;
    Text += CName + " = " + llvm::toString(V, 10);
  }
  Text += " };\n\n";
  Types += Text;
  return Name;
}

std::string Emitter::globalName(const VarDecl *VD, SourceLocation Loc) {
  auto It = GlobalNames.find(VD);
  if (It != GlobalNames.end())
    return It->second;
  std::string Name = flatName(VD);
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  GlobalNames[VD] = Name;
  UsedNames.insert(Name);
  QualType T = VD->getType();
  const VarDecl *Def = VD->getDefinition() ? VD->getDefinition() : VD;
  const APValue *V = Def->evaluateValue();
  QualType Elem = Ctx.getBaseElementType(T);
  if (!V || !(Elem->isArithmeticType() || Elem->isEnumeralType())) {
    error(Loc, "the global '" + VD->getQualifiedNameAsString() +
                   "' cannot be used on the device: only constant globals of "
                   "arithmetic or enum type (or arrays of them) can");
    return Name;
  }
  std::string Text = "#line " + std::to_string(lineOf(VD->getBeginLoc())) +
                     " " + quoted(fileOf(VD->getBeginLoc())) + "\n";
  Text += "__constant " + declare(T.getUnqualifiedType(), Name, Loc) + " = " +
          apValue(*V, T, Loc) + ";\n";
  Constants += Text;
  return Name;
}

// ======================================================================
// Literals
// ======================================================================

std::string Emitter::floatText(const llvm::APFloat &F, bool IsFloat) {
  if (F.isNaN())
    return IsFloat ? "NAN" : "(double)NAN";
  if (F.isInfinity())
    return std::string(F.isNegative() ? "-" : "") +
           (IsFloat ? "INFINITY" : "(double)INFINITY");
  llvm::SmallString<32> S;
  F.toString(S);
  std::string Text(S.str());
  if (Text.find_first_of(".eE") == std::string::npos)
    Text += ".0";
  if (!IsFloat)
    UsesDouble = true;
  return Text + (IsFloat ? "f" : "");
}

std::string Emitter::sourceText(SourceRange R) {
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                              Ctx.getLangOpts())
      .str();
}

std::string Emitter::intLiteral(const IntegerLiteral *IL) {
  QualType T = IL->getType().getCanonicalType();
  llvm::APInt V = IL->getValue();
  // The user's digits (decimal, octal or hex, as written), without the
  // suffix: OpenCL C's is worked out from the type below.
  std::string SpellingText = sourceText(IL->getSourceRange());
  llvm::StringRef Spelling = SpellingText;
  llvm::StringRef Digits = Spelling.rtrim("uUlLzZ");
  bool Plain = !Digits.empty() && !Digits.starts_with_insensitive("0b") &&
               llvm::all_of(Digits, [](char C) {
                 return isxdigit(static_cast<unsigned char>(C)) || C == 'x' ||
                        C == 'X';
               });
  std::string Text = Plain ? Digits.str() : llvm::toString(V, 10, false);
  std::string Suffix;
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::UInt:
      Suffix = "u";
      break;
    case BuiltinType::Long:
    case BuiltinType::LongLong:
      Suffix = "L";
      break;
    case BuiltinType::ULong:
    case BuiltinType::ULongLong:
      Suffix = "UL";
      break;
    default:
      break;
    }
  }
  return Text + Suffix;
}

std::string Emitter::floatLiteral(const FloatingLiteral *FL) {
  QualType T = FL->getType().getCanonicalType();
  bool IsFloat = T->isSpecificBuiltinType(BuiltinType::Float);
  if (!IsFloat && !T->isSpecificBuiltinType(BuiltinType::Double)) {
    typeName(T, FL->getBeginLoc()); // reports long double
    return "0";
  }
  if (!IsFloat)
    UsesDouble = true;
  std::string S = sourceText(FL->getSourceRange());
  if (!S.empty() && S.find('\'') == std::string::npos &&
      llvm::all_of(S, [](char C) {
        return isalnum(static_cast<unsigned char>(C)) || C == '.' ||
               C == '+' || C == '-';
      })) {
    char Last = S.back();
    bool HasF = Last == 'f' || Last == 'F';
    bool Hex = llvm::StringRef(S).starts_with_insensitive("0x");
    if (HasF == IsFloat && (Hex || !llvm::StringRef(S).ends_with_insensitive("l")))
      return S;
  }
  return floatText(FL->getValue(), IsFloat);
}

std::string Emitter::apValue(const APValue &V, QualType T,
                             SourceLocation Loc) {
  QualType C = T.getCanonicalType();
  if (V.isInt()) {
    if (C->isBooleanType())
      return V.getInt().getBoolValue() ? "true" : "false";
    std::string S = llvm::toString(V.getInt(), 10);
    if (C->isUnsignedIntegerType())
      S += Ctx.getTypeSize(C) == 64 ? "UL" : "u";
    else if (Ctx.getTypeSize(C) == 64)
      S += "L";
    return S;
  }
  if (V.isFloat())
    return floatText(V.getFloat(),
                     C->isSpecificBuiltinType(BuiltinType::Float));
  if (V.isArray()) {
    const auto *AT = Ctx.getAsConstantArrayType(T);
    if (!AT)
      return "{0}";
    std::string S = "{";
    unsigned N = AT->getSize().getZExtValue();
    for (unsigned I = 0; I < N; ++I) {
      const APValue &E = I < V.getArrayInitializedElts()
                             ? V.getArrayInitializedElt(I)
                             : V.getArrayFiller();
      S += (I ? ", " : "") + apValue(E, AT->getElementType(), Loc);
    }
    return S + "}";
  }
  error(Loc, "Ferry cannot translate this constant value to OpenCL C");
  return "0";
}

// ======================================================================
// Functions
// ======================================================================

std::string Emitter::functionName(const FunctionDecl *F) {
  std::string Name = openclName(F);
  if (F->isOverloadedOperator()) {
    std::string Prefix = Name.substr(0, Name.rfind("operator"));
    Name = Prefix + "operator_" + operatorWord(F->getOverloadedOperator());
  }
  return Name;
}

const Version &Emitter::requestVersion(const FunctionDecl *F,
                                       const std::vector<Space> &Spaces,
                                       const Expr *Site) {
  std::string Key;
  for (Space S : Spaces)
    Key += spaceWord(S)[0];
  auto It = Versions.find({F, Key});
  if (It != Versions.end())
    return It->second;
  // openclName() (through functionName) already avoids OpenCL C's names.
  std::string Name = functionName(F);
  if (VersionCount[F]++ > 0) {
    for (Space S : Spaces)
      Name += std::string("_") + spaceWord(S);
  }
  while (UsedNames.count(Name))
    Name += "_";
  UsedNames.insert(Name);
  Version &V = Versions[{F, Key}];
  V.Name = Name;
  Stack.push_back({F, Site});
  emitFunction(F, Spaces, Name, /*IsKernel=*/false, V);
  Stack.pop_back();
  return V;
}

namespace {
/// Does the kernel use its KernelContext parameter other than as `kc.field`?
class ContextUse : public RecursiveASTVisitor<ContextUse> {
public:
  const ParmVarDecl *P;
  unsigned Refs = 0, Members = 0, Writes = 0;
  explicit ContextUse(const ParmVarDecl *P) : P(P) {}
  bool isField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParens());
    const auto *D =
        ME ? dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts())
           : nullptr;
    return D && D->getDecl() == P;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    Writes += B->isAssignmentOp() && isField(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    Writes += (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
              isField(U->getSubExpr());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Refs += E->getDecl() == P;
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *D =
            dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts()))
      Members += D->getDecl() == P;
    return true;
  }
};
} // namespace

void Emitter::emitFunction(const FunctionDecl *F,
                           const std::vector<Space> &Spaces,
                           const std::string &Name, bool IsKernel,
                           Version &V) {
  FunctionState State;
  State.F = F;
  State.IsKernel = IsKernel;
  FunctionState *Saved = Cur;
  Cur = &State;
  V.Index = Funcs.size();
  Funcs.push_back({"", SM.getExpansionLoc(F->getBeginLoc()), {}});

  std::vector<std::string> Params;
  std::vector<const ParmVarDecl *> ParamDecls; // the C++ parameter of each
  std::vector<std::string> Prologue;
  // Prologue lines declaring a parameter's local copy (a bool kernel
  // parameter's).
  struct PrologueLocal {
    const ParmVarDecl *P;
    size_t Line;    // index in Prologue
    size_t NameEnd; // where the declarator's name ends in that line
  };
  std::vector<PrologueLocal> PrologueLocals;
  unsigned SpaceIndex = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && !M->isStatic() && !IsKernel) {
    std::string Record = recordName(M->getParent(), M->getLocation());
    if (M->isConst()) {
      State.This = FunctionState::ThisMode::Value;
      Params.push_back(Record + " self");
    } else {
      State.This = FunctionState::ThisMode::Pointer;
      State.ThisSpace = Spaces.empty() ? Space::Private : Spaces[0];
      SpaceIndex = 1;
      Params.push_back(spaceQualifier(State.ThisSpace) + Record + "* self");
    }
    ParamDecls.push_back(nullptr);
  }
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    QualType T = P->getType();
    SourceLocation Loc = P->getLocation();
    std::string PName = P->getName().empty() ? "unnamed" + std::to_string(I)
                                             : P->getName().str();
    if (isReservedInOpenCL(PName))
      PName += "_";
    // The parameters of an expanded pack share one name.
    for (unsigned J = 0; J < I; ++J)
      if (F->getParamDecl(J)->getName() == P->getName()) {
        PName += "_" + std::to_string(I);
        break;
      }
    VarInfo Info;
    Info.Name = PName;
    if (IsKernel && I == 0 && isKernelContextType(T)) {
      State.KernelContextParam = P;
      ContextUse U(P);
      U.TraverseStmt(F->getBody());
      if (U.Refs != U.Members || U.Writes) {
        // Passed on whole or written: a local copy, used as written.
        State.KernelContextParam = nullptr;
        NeedsKernelContext = true;
        Prologue.push_back(
            "ferry_KernelContext " + PName +
            " = {(int)get_global_id(0), (int)get_global_id(1), "
            "(int)get_global_id(2), (int)get_global_size(0), "
            "(int)get_global_size(1), (int)get_global_size(2)};");
      }
      State.Vars[P] = Info;
      continue;
    }
    if (IsKernel) {
      if (T->isReferenceType()) {
        error(Loc, "kernel parameters cannot be references; pass buffers as "
                   "pointers and scalars by value");
        State.Poisoned.insert(P);
        continue;
      }
      if (const auto *PT = T->getAs<PointerType>()) {
        QualType Pointee = PT->getPointeeType();
        if (Pointee->isPointerType()) {
          error(Loc, "buffer parameter '" + P->getNameAsString() +
                         "' is a pointer to a pointer; buffers must be 'T*' "
                         "or 'const T*' with T arithmetic or a struct");
          State.Poisoned.insert(P);
          continue;
        }
        Info.Where = Space::Global;
        ParamDecls.push_back(P), Params.push_back(declare(T.getUnqualifiedType(), PName, Loc,
                                 Space::Global));
        State.Vars[P] = Info;
        continue;
      }
      if (T->isBooleanType()) {
        // OpenCL forbids bool kernel arguments: the host passes the byte.
        // The byte is read by the local copy; that copy is what may go
        // unused.
        ParamDecls.push_back(nullptr), Params.push_back("uchar ferry_" + PName);
        std::string Local = "bool " + PName;
        PrologueLocals.push_back(
            {P, Prologue.size(), IndentWidth + Local.size()});
        Prologue.push_back(Local + " = ferry_" + PName + ";");
        State.Vars[P] = Info;
        continue;
      }
      ParamDecls.push_back(P), Params.push_back(declare(T.getUnqualifiedType(), PName, Loc));
      State.Vars[P] = Info;
      continue;
    }
    // Helpers.
    if (T->isPointerType()) {
      Info.Where = SpaceIndex < Spaces.size() ? Spaces[SpaceIndex] : Space::Private;
      ++SpaceIndex;
      ParamDecls.push_back(P), Params.push_back(declare(T, PName, Loc, Info.Where));
    } else if (T->isLValueReferenceType() &&
               !T.getNonReferenceType().isConstQualified()) {
      Info.Where = SpaceIndex < Spaces.size() ? Spaces[SpaceIndex] : Space::Private;
      ++SpaceIndex;
      Info.RefPointer = true;
      QualType Pointee = T.getNonReferenceType();
      if (Pointee->isArrayType()) {
        error(Loc, "references to arrays cannot be translated to OpenCL C");
        State.Poisoned.insert(P);
      }
      ParamDecls.push_back(P), Params.push_back(spaceQualifier(Info.Where) +
                       typeName(Pointee, Loc, Info.Where != Space::Private) +
                       "* " + PName);
    } else if (T->isReferenceType()) {
      // const T& and T&&: by value.
      ParamDecls.push_back(P), Params.push_back(
          declare(T.getNonReferenceType().getUnqualifiedType(), PName, Loc));
    } else {
      ParamDecls.push_back(P), Params.push_back(declare(T, PName, Loc));
    }
    State.Vars[P] = Info;
  }

  // The body.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  // The signature maps to the line of the body's `{`, so that a body on the
  // next lines follows on without a marker.
  unsigned SigLine =
      lineOf(Body ? Body->getLBracLoc() : F->getBeginLoc());
  std::string File = fileOf(F->getBeginLoc());
  State.CurFile = File;
  State.CurLine = Prologue.empty() ? SigLine + 1 : 0;
  std::vector<size_t> PrologueAt; // each Prologue line's offset in State.Out
  for (const std::string &P : Prologue) {
    PrologueAt.push_back(State.Out.size());
    State.Out += std::string(IndentWidth, ' ') + P + "\n";
  }
  if (Body)
    compoundBody(Body, false);
  else
    error(F->getLocation(), "function '" + F->getNameAsString() +
                                "' has no body Ferry can translate");
  // Parameters (and parameters' local copies) the body never names, so that
  // the device compiler's -Wunused-parameter / -Wunused-variable stay quiet.
  const std::string Unused = " __attribute__((unused))";
  for (size_t I = 0; I < Params.size(); ++I)
    if (ParamDecls[I] && !State.Used.count(ParamDecls[I]))
      Params[I] += Unused;
  for (auto It = PrologueLocals.rbegin(); It != PrologueLocals.rend(); ++It)
    if (!State.Used.count(It->P))
      State.Out.insert(PrologueAt[It->Line] + It->NameEnd, Unused);

  // The signature (after the body: a pointer return takes its space from
  // the returned expressions).
  QualType RT = F->getReturnType();
  std::string Ret;
  if (RT->isReferenceType()) {
    error(F->getLocation(), "functions returning references cannot be "
                            "translated to OpenCL C; return by value");
    Ret = "void";
  } else {
    Ret = declare(RT.getUnqualifiedType(), "", F->getLocation(),
                  State.ReturnSpace);
  }
  V.ReturnSpace = State.ReturnSpace;
  // Parameters fill lines of 80 columns, continued after the `(`.
  std::string Sig = (IsKernel ? "__kernel " : "") + Ret + " " + Name + "(";
  std::string Align(Sig.size(), ' ');
  unsigned SigLines = 1;
  size_t LineStart = 0;
  if (Params.empty())
    Sig += "void";
  for (size_t I = 0; I < Params.size(); ++I) {
    bool Last = I + 1 == Params.size();
    size_t Width = Sig.size() - LineStart + (I ? 2 : 0) + Params[I].size() +
                   (Last ? 3 : 1); // ", " before; ") {" or "," after
    if (I && Width > 80) {
      Sig += ",\n";
      LineStart = Sig.size();
      Sig += Align;
      ++SigLines;
    } else if (I) {
      Sig += ", ";
    }
    Sig += Params[I];
  }
  Sig += ") {";

  // A one-line function in the source stays on one line.
  std::string Text;
  llvm::StringRef Single = State.Out;
  if (Single.starts_with("#line ")) {
    size_t NL = Single.find('\n');
    Single = Single.drop_front(NL + 1);
  }
  Single = Single.trim();
  bool OneLine = Body && SigLines == 1 && !Single.empty() &&
                 !Single.contains('\n') && Prologue.empty() &&
                 lineOf(Body->getRBracLoc()) == SigLine &&
                 Sig.size() + Single.size() + 3 <= 100;
  if (OneLine)
    Text = "#line " + std::to_string(SigLine) + " " + quoted(File) + "\n" +
           Sig + " " + Single.str() + " }\n\n";
  else
    Text = "#line " + std::to_string(SigLine + 1 - SigLines) + " " +
           quoted(File) + "\n" + Sig + "\n" + State.Out + "}\n\n";
  Funcs[V.Index].Text = std::move(Text);
  Funcs[V.Index].Callees = std::move(State.Callees);
  Cur = Saved;
}

// ======================================================================
// Statements
// ======================================================================

void Emitter::compoundBody(const CompoundStmt *CS, bool SwitchBody) {
  SourceLocation Prev = CS->getLBracLoc();
  for (const Stmt *S : CS->body()) {
    comments(Prev, S->getBeginLoc());
    Prev = endOf(S->getEndLoc());
    if (SwitchBody) {
      // Labels one level out, their statements at the body's level.
      while (isa<SwitchCase>(S)) {
        const auto *SC = cast<SwitchCase>(S);
        std::string Label;
        if (const auto *C = dyn_cast<CaseStmt>(SC)) {
          if (C->getRHS()) {
            cannot(C);
            Label = "default:";
          } else {
            const Expr *LHS = C->getLHS()->IgnoreParenImpCasts();
            if (const auto *CE = dyn_cast<ConstantExpr>(LHS))
              LHS = CE->getSubExpr()->IgnoreParenImpCasts();
            std::string V;
            if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS);
                DRE && isa<EnumConstantDecl>(DRE->getDecl()))
              V = declRef(DRE);
            else if (isa<IntegerLiteral>(LHS) || isa<CharacterLiteral>(LHS))
              V = expr(LHS);
            else
              V = llvm::toString(C->getLHS()->EvaluateKnownConstInt(Ctx), 10);
            Label = "case " + V + ":";
          }
        } else {
          Label = "default:";
        }
        const Stmt *Sub = SC->getSubStmt();
        // `case 3: {` keeps its block on the label's line.
        if (const auto *Block = dyn_cast<CompoundStmt>(Sub);
            Block && !isa<SwitchCase>(Sub) &&
            lineOf(Block->getLBracLoc()) == lineOf(SC->getBeginLoc())) {
          line(SC->getBeginLoc(), Label + " {", -1);
          compoundBody(Block, false);
          line({}, "}", -1);
          S = nullptr;
          break;
        }
        line(SC->getBeginLoc(), Label, -1);
        S = Sub;
      }
      if (!S)
        continue;
    }
    stmt(S);
  }
  comments(Prev, CS->getRBracLoc());
}

void Emitter::subStmt(const Stmt *S) {
  ++Cur->Indent;
  stmt(S);
  --Cur->Indent;
}

void Emitter::headedBody(SourceLocation Loc, const std::string &Head,
                         const Stmt *Body) {
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    line(Loc, Head + " {");
    ++Cur->Indent;
    compoundBody(CS, false);
    --Cur->Indent;
    line({}, "}");
  } else {
    line(Loc, Head);
    subStmt(Body);
  }
}

std::string Emitter::forInit(const Stmt *S) {
  if (!S)
    return "";
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    std::string Out;
    std::string FirstType;
    SourceLocation LastEnd;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD) {
        cannot(S);
        return "";
      }
      std::string One = varDeclInline(VD);
      SourceLocation PrevEnd = LastEnd;
      LastEnd = VD->getEndLoc();
      if (Out.empty()) {
        Out = One;
        FirstType = typeName(VD->getType(), VD->getLocation());
      } else {
        // `int i = 0, j = n`: the declarator part after the type.
        std::string T = typeName(VD->getType(), VD->getLocation());
        if (One.compare(0, T.size() + 1, T + " ") != 0 || T != FirstType ||
            VD->getType()->isPointerType() || VD->getType()->isArrayType() ||
            VD->getType()->isReferenceType()) {
          error(VD->getLocation(), "declarations of different types in one "
                                   "for-init cannot be translated to OpenCL C");
          return Out;
        }
        Out += "," + gap(PrevEnd, VD->getLocation()) + One.substr(T.size() + 1);
      }
    }
    return Out;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    return expr(E);
  cannot(S);
  return "";
}

std::string Emitter::varDeclInline(const VarDecl *VD) {
  SourceLocation Loc = VD->getLocation();
  QualType T = VD->getType();
  std::string Name = VD->getName().str();
  if (isReservedInOpenCL(Name))
    Name += "_";
  VarInfo Info;
  Info.Name = Name;
  if (isa<DecompositionDecl>(VD)) {
    error(Loc, "structured bindings cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (VD->isStaticLocal() &&
      !(T.isConstQualified() && VD->hasConstantInitialization())) {
    error(Loc, "static local variables cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  if (VD->hasExternalStorage()) {
    error(Loc, "extern declarations cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    return "int " + Name;
  }
  const Expr *Init = VD->getInit();
  // A lambda or a function pointer is one error, at its declaration; its
  // uses stay quiet.
  QualType NR = T.getNonReferenceType();
  if (const auto *RD = NR->getAsCXXRecordDecl(); RD && RD->isLambda()) {
    error(Init ? Init->getBeginLoc() : Loc,
          "lambdas cannot be translated to OpenCL C; use a helper function");
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (NR->isFunctionPointerType() || NR->isFunctionReferenceType() ||
      NR->isMemberPointerType()) {
    error(Loc, "function pointers cannot be translated to OpenCL C");
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (T->isReferenceType()) {
    QualType Pointee = T.getNonReferenceType();
    bool Temporary =
        Init && (isa<MaterializeTemporaryExpr>(Init->IgnoreImpCasts()) ||
                 isa<ExprWithCleanups>(Init));
    if (!Init || Temporary || Pointee->isArrayType()) {
      if (Pointee->isArrayType()) {
        error(Loc, "references to arrays cannot be translated to OpenCL C");
        Cur->Poisoned.insert(VD);
      }
      Cur->Vars[VD] = Info;
      std::string D = declare(Pointee, Name, Loc);
      return Init ? D + " = " + expr(Init) : D;
    }
    Info.RefPointer = true;
    Info.Where = objectSpace(Init);
    Cur->Vars[VD] = Info;
    std::string Addr;
    if (const VarInfo *VI = varInfo(Init); VI && VI->RefPointer)
      Addr = VI->Name;
    else if (const auto *U = dyn_cast<UnaryOperator>(Init->IgnoreParens());
             U && U->getOpcode() == UO_Deref)
      Addr = expr(U->getSubExpr());
    else
      Addr = "&" + postfixBase(Init);
    return spaceQualifier(Info.Where) +
           typeName(Pointee, Loc, Info.Where != Space::Private) + "* " + Name +
           " = " + Addr;
  }
  if (!checkDeviceType(T, Loc)) {
    Cur->Poisoned.insert(VD);
    Cur->Vars[VD] = Info;
    return "int " + Name;
  }
  if (T->isPointerType()) {
    // A pointer declared null (or uninitialised) points where it is first
    // assigned to point.
    const Expr *From = Init;
    if (!From || From->isNullPointerConstant(
                     Ctx, Expr::NPC_ValueDependentIsNotNull))
      From = firstAssignment(VD);
    Info.Where = From ? pointerSpace(From) : Space::Private;
  }
  Cur->Vars[VD] = Info;
  std::string D = declare(T, Name, Loc, Info.Where);
  if (!Init)
    return D;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit())) {
    if (CE->getNumArgs() == 0 && CE->getConstructor()->isTrivial() &&
        !CE->requiresZeroInitialization())
      return D;
    if (CE->getNumArgs() == 0)
      return D + " = {0}";
  }
  if (isa<ImplicitValueInitExpr>(Init))
    return D + " = {0}";
  if (const auto *IL = dyn_cast<InitListExpr>(skipTransparent(Init));
      IL && (T->isArrayType() || T->isRecordType()))
    return D + " = " + initList(IL);
  if (const auto *IL = dyn_cast<InitListExpr>(Init);
      IL && !T->isArrayType() && !T->isRecordType()) {
    if (IL->getNumInits() == 0)
      return D + " = 0";
    return D + " = " + expr(IL->getInit(0));
  }
  return D + " = " + expr(Init);
}

bool Emitter::checkDeviceType(QualType T, SourceLocation Loc) {
  QualType C = Ctx.getBaseElementType(T.getNonReferenceType()).getCanonicalType();
  if (const auto *RT = C->getAs<RecordType>())
    if (inStdNamespace(RT->getDecl())) {
      recordName(RT->getDecl(), Loc);
      return false;
    }
  return true;
}

void Emitter::varDecl(const VarDecl *VD, SourceLocation Loc) {
  line(Loc, varDeclInline(VD) + ";");
}

void Emitter::stmt(const Stmt *S) {
  if (!S)
    return;
  SourceLocation Loc = S->getBeginLoc();
  Cur->StmtStart = Loc;
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass: {
    line(Loc, "{");
    ++Cur->Indent;
    compoundBody(cast<CompoundStmt>(S), false);
    --Cur->Indent;
    line({}, "}");
    return;
  }
  case Stmt::NullStmtClass:
    line(Loc, ";");
    return;
  case Stmt::DeclStmtClass: {
    // `int x = 1, y = 2;` stays one line when the declarators share a type.
    const auto *DS = cast<DeclStmt>(S);
    if (!DS->isSingleDecl()) {
      bool Joinable = true;
      QualType First;
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD) {
          Joinable = false;
          break;
        }
        QualType T = VD->getType().getCanonicalType();
        if (T->isPointerType() || T->isArrayType() || T->isReferenceType() ||
            isa<DecompositionDecl>(VD) || (!First.isNull() && T != First)) {
          Joinable = false;
          break;
        }
        First = T;
      }
      if (Joinable) {
        line(Loc, forInit(S) + ";");
        return;
      }
    }
    for (const Decl *D : DS->decls()) {
      if (const auto *VD = dyn_cast<VarDecl>(D))
        varDecl(VD, D->getLocation());
      else if (isa<TypedefNameDecl>(D) || isa<UsingDecl>(D) ||
               isa<UsingDirectiveDecl>(D) || isa<StaticAssertDecl>(D) ||
               isa<TagDecl>(D) || isa<NamespaceAliasDecl>(D) ||
               isa<UsingShadowDecl>(D))
        continue; // types print canonically, names fully
      else
        error(D->getLocation(), std::string("Ferry cannot translate ") +
                                    D->getDeclKindName() +
                                    " declarations to OpenCL C");
    }
    return;
  }
  case Stmt::ReturnStmtClass: {
    const Expr *E = cast<ReturnStmt>(S)->getRetValue();
    if (!E) {
      line(Loc, "return;");
      return;
    }
    if (Cur->F->getReturnType()->isPointerType()) {
      Space Sp = pointerSpace(E);
      if (Cur->ReturnSpaceKnown && Sp != Cur->ReturnSpace)
        error(E->getBeginLoc(), "this function returns pointers into "
                                "different address spaces");
      Cur->ReturnSpaceKnown = true;
      Cur->ReturnSpace = Sp;
    }
    line(Loc, "return " + expr(E) + ";");
    return;
  }
  case Stmt::IfStmtClass: {
    const auto *If = cast<IfStmt>(S);
    if (If->getInit() || If->getConditionVariable()) {
      cannot(If->getInit() ? If->getInit() : S);
      return;
    }
    if (If->isConstexpr()) {
      bool Taken = If->getCond()->EvaluateKnownConstInt(Ctx).getBoolValue();
      const Stmt *Branch = Taken ? If->getThen() : If->getElse();
      if (Branch)
        stmt(Branch);
      return;
    }
    std::string Prefix = "if (" + cond(If->getCond()) + ")";
    for (;;) {
      const Stmt *Then = If->getThen();
      const Stmt *Else = If->getElse();
      // A braced branch closes on the line of the next `else`: `} else {`.
      const auto *ThenBlock = dyn_cast<CompoundStmt>(Then);
      const std::string Join = ThenBlock ? "} " : "";
      if (ThenBlock) {
        line(Loc, Prefix + " {");
        ++Cur->Indent;
        compoundBody(ThenBlock, false);
        --Cur->Indent;
      } else {
        line(Loc, Prefix);
        subStmt(Then);
      }
      if (!Else) {
        if (ThenBlock)
          line({}, "}");
        return;
      }
      if (const auto *ElseIf = dyn_cast<IfStmt>(Else);
          ElseIf && !ElseIf->getInit() && !ElseIf->getConditionVariable() &&
          !ElseIf->isConstexpr()) {
        Cur->StmtStart = ElseIf->getBeginLoc();
        Prefix = Join + "else if (" + cond(ElseIf->getCond()) + ")";
        Loc = {};
        If = ElseIf;
        continue;
      }
      if (const auto *ElseBlock = dyn_cast<CompoundStmt>(Else)) {
        line({}, Join + "else {");
        ++Cur->Indent;
        compoundBody(ElseBlock, false);
        --Cur->Indent;
        line({}, "}");
        return;
      }
      line({}, Join + "else");
      subStmt(Else);
      return;
    }
  }
  case Stmt::ForStmtClass: {
    const auto *For = cast<ForStmt>(S);
    if (For->getConditionVariable()) {
      cannot(S);
      return;
    }
    std::string Head = "for (" + forInit(For->getInit()) + ";";
    if (For->getCond())
      Head += " " + cond(For->getCond());
    Head += ";";
    if (For->getInc())
      Head += " " + expr(For->getInc());
    Head += ")";
    headedBody(Loc, Head, For->getBody());
    return;
  }
  case Stmt::WhileStmtClass: {
    const auto *W = cast<WhileStmt>(S);
    if (W->getConditionVariable()) {
      cannot(S);
      return;
    }
    std::string Head = "while (" + cond(W->getCond()) + ")";
    headedBody(Loc, Head, W->getBody());
    return;
  }
  case Stmt::DoStmtClass: {
    const auto *D = cast<DoStmt>(S);
    if (const auto *CS = dyn_cast<CompoundStmt>(D->getBody())) {
      line(Loc, "do {");
      ++Cur->Indent;
      compoundBody(CS, false);
      --Cur->Indent;
      Cur->StmtStart = D->getWhileLoc();
      line({}, "} while (" + cond(D->getCond()) + ");");
    } else {
      line(Loc, "do");
      subStmt(D->getBody());
      Cur->StmtStart = D->getWhileLoc();
      line({}, "while (" + cond(D->getCond()) + ");");
    }
    return;
  }
  case Stmt::SwitchStmtClass: {
    const auto *Sw = cast<SwitchStmt>(S);
    if (Sw->getInit() || Sw->getConditionVariable()) {
      cannot(S);
      return;
    }
    const auto *CS = dyn_cast<CompoundStmt>(Sw->getBody());
    if (!CS) {
      cannot(Sw->getBody());
      return;
    }
    line(Loc, "switch (" + expr(Sw->getCond()) + ") {");
    // Labels indented under the switch, or level with it, as the user has
    // them; statements one level deeper than the labels.
    unsigned Step = 2;
    if (!CS->body_empty() && isa<SwitchCase>(CS->body_front())) {
      SourceLocation L0 = SM.getExpansionLoc(Loc);
      SourceLocation L1 = SM.getExpansionLoc(CS->body_front()->getBeginLoc());
      if (SM.getExpansionColumnNumber(L1) <= SM.getExpansionColumnNumber(L0))
        Step = 1;
    }
    Cur->Indent += Step;
    compoundBody(CS, true);
    Cur->Indent -= Step;
    line({}, "}");
    return;
  }
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    cannot(S); // only directly in a switch body
    return;
  case Stmt::BreakStmtClass:
    line(Loc, "break;");
    return;
  case Stmt::ContinueStmtClass:
    line(Loc, "continue;");
    return;
  case Stmt::AttributedStmtClass:
    stmt(cast<AttributedStmt>(S)->getSubStmt());
    return;
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
  case Stmt::LabelStmtClass:
    error(Loc, "'goto' and labels cannot be translated to OpenCL C");
    return;
  case Stmt::CXXTryStmtClass:
    error(Loc, "exceptions (try/catch) cannot be translated to OpenCL C");
    return;
  case Stmt::CXXForRangeStmtClass: {
    // Over a fixed-size array: an index loop, the element by value (or, for
    // a non-const reference, through a pointer).
    const auto *FR = cast<CXXForRangeStmt>(S);
    const Expr *Range = FR->getRangeInit();
    const auto *AT =
        Range ? Ctx.getAsConstantArrayType(Range->getType()) : nullptr;
    if (!AT || FR->getInit()) {
      if (const auto *RD = Range ? Range->getType()->getAsCXXRecordDecl()
                                 : nullptr;
          RD && inStdNamespace(RD)) {
        recordName(RD, Range->getBeginLoc());
        return;
      }
      error(Loc, "range-based for loops can be translated to OpenCL C only "
                 "over fixed-size arrays");
      return;
    }
    std::string Index =
        "ferry_i" + (RangeDepth ? std::to_string(RangeDepth) : std::string());
    std::string R = postfixBase(Range);
    line(Loc, "for (int " + Index + " = 0; " + Index + " < " +
                  std::to_string(AT->getSize().getZExtValue()) + "; ++" +
                  Index + ") {");
    ++RangeDepth;
    ++Cur->Indent;
    const VarDecl *LV = FR->getLoopVariable();
    QualType T = LV->getType();
    VarInfo Info;
    Info.Name = LV->getName().str();
    if (isReservedInOpenCL(Info.Name))
      Info.Name += "_";
    std::string Element = R + "[" + Index + "]";
    if (T->isLValueReferenceType() &&
        !T.getNonReferenceType().isConstQualified()) {
      Info.RefPointer = true;
      Info.Where = objectSpace(Range);
      line(LV->getLocation(),
           spaceQualifier(Info.Where) +
               typeName(T.getNonReferenceType(), LV->getLocation(),
                        Info.Where != Space::Private) +
               "* " + Info.Name + " = &" + Element + ";");
    } else {
      line(LV->getLocation(),
           declare(T.getNonReferenceType(), Info.Name, LV->getLocation()) +
               " = " + Element + ";");
    }
    Cur->Vars[LV] = Info;
    if (const auto *CS = dyn_cast<CompoundStmt>(FR->getBody()))
      compoundBody(CS, false);
    else
      stmt(FR->getBody());
    --Cur->Indent;
    --RangeDepth;
    line({}, "}");
    return;
  }
  default:
    if (const auto *E = dyn_cast<Expr>(S)) {
      std::string Text = expr(E);
      line(Loc, Text + ";");
      return;
    }
    cannot(S);
    return;
  }
}

// ======================================================================
// Address spaces
// ======================================================================

const VarInfo *Emitter::varInfo(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() != CK_NoOp && ICE->getCastKind() != CK_LValueToRValue)
      break;
    E = ICE->getSubExpr()->IgnoreParens();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Cur->Vars.find(DRE->getDecl());
    if (It != Cur->Vars.end()) {
      Cur->Used.insert(DRE->getDecl());
      return &It->second;
    }
  }
  return nullptr;
}

Space Emitter::pointerSpace(const Expr *E) {
  E = E->IgnoreParens();
  if (isa<CXXThisExpr>(E))
    return Cur->This == FunctionState::ThisMode::Pointer ? Cur->ThisSpace
                                                         : Space::Private;
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return objectSpace(C->getSubExpr());
    case CK_NullToPointer:
      return Space::Private;
    default:
      return pointerSpace(C->getSubExpr());
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const VarInfo *VI = varInfo(DRE))
      return VI->Where;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      return Space::Constant;
    return Space::Private;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf)
      return objectSpace(U->getSubExpr());
    return pointerSpace(U->getSubExpr());
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return pointerSpace(B->getRHS());
    if (B->isAssignmentOp())
      return pointerSpace(B->getLHS());
    if (B->getLHS()->getType()->isPointerType())
      return pointerSpace(B->getLHS());
    return pointerSpace(B->getRHS());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Space A = pointerSpace(CO->getTrueExpr());
    Space B = pointerSpace(CO->getFalseExpr());
    if (A != B)
      error(CO->getBeginLoc(), "the two pointers of this '?:' point into "
                               "different address spaces");
    return A;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // The version this call resolved to recorded its return space.
    auto It = CallReturnSpaces.find(CE);
    if (It != CallReturnSpaces.end())
      return It->second;
  }
  return Space::Private;
}

Space Emitter::objectSpace(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
    if (C->getCastKind() == CK_NoOp || C->getCastKind() == CK_LValueToRValue)
      return objectSpace(C->getSubExpr());
  if (isa<MaterializeTemporaryExpr>(E))
    return Space::Private;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const VarInfo *VI = varInfo(DRE))
      return VI->RefPointer ? VI->Where : Space::Private;
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasGlobalStorage())
      return Space::Constant;
    return Space::Private;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointerSpace(AS->getBase());
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return pointerSpace(U->getSubExpr());
    if (U->isIncrementDecrementOp())
      return objectSpace(U->getSubExpr());
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? pointerSpace(ME->getBase())
                         : objectSpace(ME->getBase());
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return objectSpace(B->getLHS());
    if (B->getOpcode() == BO_Comma)
      return objectSpace(B->getRHS());
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Space A = objectSpace(CO->getTrueExpr());
    Space B = objectSpace(CO->getFalseExpr());
    if (A != B)
      error(CO->getBeginLoc(), "the two objects of this '?:' live in "
                               "different address spaces");
    return A;
  }
  return Space::Private;
}


namespace {
/// The first non-null value assigned to a variable, in source order.
class FirstAssignment : public RecursiveASTVisitor<FirstAssignment> {
public:
  const VarDecl *VD;
  ASTContext &Ctx;
  const Expr *Found = nullptr;
  FirstAssignment(const VarDecl *VD, ASTContext &Ctx) : VD(VD), Ctx(Ctx) {}
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (Found || B->getOpcode() != BO_Assign)
      return true;
    const auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens());
    if (DRE && DRE->getDecl() == VD &&
        !B->getRHS()->isNullPointerConstant(
            Ctx, Expr::NPC_ValueDependentIsNotNull))
      Found = B->getRHS();
    return true;
  }
};
} // namespace

const Expr *Emitter::firstAssignment(const VarDecl *VD) {
  FirstAssignment V(VD, Ctx);
  V.TraverseStmt(const_cast<Stmt *>(Cur->F->getBody()));
  return V.Found;
}

bool Emitter::isKernelContextParamRef(const Expr *E) {
  if (!Cur->KernelContextParam)
    return false;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == Cur->KernelContextParam;
}

// ======================================================================
// Expressions
// ======================================================================


Prec Emitter::prec(const Expr *E) {
  return precOf(E, [&](const DeclRefExpr *DRE) {
    auto It = Cur->Vars.find(DRE->getDecl());
    return It != Cur->Vars.end() && It->second.RefPointer &&
           !Cur->Poisoned.count(DRE->getDecl());
  });
}

std::string Emitter::operand(const Expr *E) {
  std::string S = expr(E);
  return prec(E) == Prec::Other ? "(" + S + ")" : S;
}

std::string Emitter::postfixBase(const Expr *E) {
  std::string S = expr(E);
  return prec(E) == Prec::Primary ? S : "(" + S + ")";
}

std::string Emitter::cond(const Expr *E) {
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      ICE && isToBoolean(ICE->getCastKind()))
    return expr(ICE->getSubExpr());
  return expr(E);
}

std::string Emitter::literalAs(const Expr *E, QualType Target) {
  const llvm::fltSemantics &Sem = Ctx.getFloatTypeSemantics(Target);
  llvm::APFloat V(Sem);
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    V.convertFromAPInt(IL->getValue(),
                       IL->getType()->isSignedIntegerType(),
                       llvm::APFloat::rmNearestTiesToEven);
  } else {
    V = cast<FloatingLiteral>(E)->getValue();
    bool Lost;
    V.convert(Sem, llvm::APFloat::rmNearestTiesToEven, &Lost);
  }
  return floatText(V, Target->isSpecificBuiltinType(BuiltinType::Float));
}

std::string Emitter::converted(const Expr *E, QualType Target) {
  Target = Target.getNonReferenceType().getUnqualifiedType().getCanonicalType();
  const Expr *S = skipTransparent(E);
  QualType ST = S->getType().getUnqualifiedType().getCanonicalType();
  if (ST == Target)
    return expr(S);
  if ((isa<IntegerLiteral>(S) || isa<FloatingLiteral>(S)) &&
      Target->isRealFloatingType() &&
      !Target->isSpecificBuiltinType(BuiltinType::LongDouble))
    return literalAs(S, Target);
  return cat({"(", typeName(Target, E->getBeginLoc()), ")", operand(S)});
}

std::string Emitter::castTo(QualType T, const Expr *Sub, SourceLocation Loc) {
  QualType C = T.getCanonicalType();
  if (C->isVoidType())
    return "(void)" + operand(Sub);
  if (C->isPointerType())
    return cat({"(", declare(T, "", Loc, pointerSpace(Sub)), ")", operand(Sub)});
  if (C->isRecordType() || C->isArrayType()) {
    error(Loc, "Ferry cannot translate a conversion to '" +
                   T.getAsString(Policy) + "' to OpenCL C");
    return "0";
  }
  return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", operand(Sub)});
}

std::string Emitter::declRef(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  SourceLocation Loc = DRE->getLocation();
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    const auto *ED = cast<EnumDecl>(EC->getDeclContext());
    std::string EName = enumName(ED, Loc);
    return ED->isScoped() ? EName + "__" + EC->getName().str() : flatName(EC);
  }
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (Cur->Poisoned.count(VD))
      return "0";
    auto It = Cur->Vars.find(VD);
    if (It != Cur->Vars.end()) {
      Cur->Used.insert(VD);
      return It->second.RefPointer ? "*" + It->second.Name
                                   : It->second.Name;
    }
    if (VD->hasGlobalStorage() && !VD->isStaticLocal()) {
      QualType T = VD->getType();
      if (!T.isConstQualified() && !VD->isConstexpr()) {
        error(Loc, "the mutable global '" + VD->getQualifiedNameAsString() +
                       "' cannot be used on the device; make it const or "
                       "constexpr, or pass it to the kernel as an argument",
              DRE->getSourceRange());
        Cur->Poisoned.insert(VD);
        return "0";
      }
      if (T->isReferenceType()) {
        error(Loc, "global references cannot be translated to OpenCL C");
        return "0";
      }
      return globalName(VD, Loc);
    }
    error(Loc, "Ferry cannot translate this use of '" + VD->getNameAsString() +
                   "' to OpenCL C");
    return "0";
  }
  if (isa<FunctionDecl>(D)) {
    error(Loc, "function pointers cannot be translated to OpenCL C",
          DRE->getSourceRange());
    return "0";
  }
  return cannot(DRE);
}

std::string Emitter::member(const MemberExpr *ME) {
  const Expr *Base = ME->getBase();
  const ValueDecl *D = ME->getMemberDecl();
  if (const auto *VD = dyn_cast<VarDecl>(D)) { // static data member
    if (!VD->getType().isConstQualified() && !VD->isConstexpr()) {
      error(ME->getMemberLoc(), "the mutable global '" +
                                    VD->getQualifiedNameAsString() +
                                    "' cannot be used on the device");
      return "0";
    }
    return globalName(VD, ME->getMemberLoc());
  }
  const auto *FD = dyn_cast<FieldDecl>(D);
  if (!FD)
    return cannot(ME);
  std::string Field = FD->getName().str();
  if (isReservedInOpenCL(Field))
    Field += "_";
  if (isa<CXXThisExpr>(Base->IgnoreParenImpCasts()))
    return std::string(Cur->This == FunctionState::ThisMode::Value ? "self."
                                                                    : "self->") +
           Field;
  if (!ME->isArrow() && isKernelContextParamRef(Base)) {
    static const std::pair<const char *, const char *> Map[] = {
        {"x", "(int)get_global_id(0)"},     {"y", "(int)get_global_id(1)"},
        {"z", "(int)get_global_id(2)"},     {"maxX", "(int)get_global_size(0)"},
        {"maxY", "(int)get_global_size(1)"}, {"maxZ", "(int)get_global_size(2)"}};
    for (const auto &[From, To] : Map)
      if (FD->getName() == From)
        return To;
    return cannot(ME);
  }
  if (ME->isArrow())
    return postfixBase(Base) + "->" + Field;
  if (const VarInfo *VI = varInfo(Base); VI && VI->RefPointer)
    return VI->Name + "->" + Field;
  if (const auto *U = dyn_cast<UnaryOperator>(Base->IgnoreParens());
      U && U->getOpcode() == UO_Deref)
    return postfixBase(U->getSubExpr()) + "->" + Field;
  return postfixBase(Base) + "." + Field;
}

std::string Emitter::initList(const InitListExpr *IL) {
  if (IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  QualType T = IL->getType();
  if (!T->isRecordType() && !T->isArrayType()) {
    if (IL->getNumInits() == 0)
      return "0";
    return expr(IL->getInit(0));
  }
  unsigned N = IL->getNumInits();
  while (N > 0 && isa<ImplicitValueInitExpr>(IL->getInit(N - 1)))
    --N;
  if (N == 0)
    return "{0}";
  if (T->isUnionType()) {
    const FieldDecl *F = IL->getInitializedFieldInUnion();
    std::string V = expr(IL->getInit(0));
    if (F && F->getFieldIndex() != 0)
      return "{." + F->getName().str() + " = " + V + "}";
    return "{" + V + "}";
  }
  std::string S = "{";
  for (unsigned I = 0; I < N; ++I) {
    const Expr *E = IL->getInit(I);
    S += I ? ", " : "";
    if (const auto *Sub = dyn_cast<InitListExpr>(skipTransparent(E)))
      S += initList(Sub);
    else if (isa<ImplicitValueInitExpr>(E))
      S += E->getType()->isScalarType() ? "0" : "{0}";
    else if (const auto *SL = dyn_cast<StringLiteral>(skipTransparent(E)))
      S += cannot(SL);
    else
      S += expr(E);
  }
  return S + "}";
}

std::string Emitter::construct(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  QualType T = CE->getType();
  if (Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
      CE->getNumArgs() >= 1)
    return expr(CE->getArg(0));
  if (CE->getNumArgs() == 0 && Ctor->isTrivial())
    return "(" + typeName(T.getUnqualifiedType(), CE->getBeginLoc()) + "){0}";
  if (CE->getNumArgs() == 0 && Ctor->isDefaulted() &&
      CE->requiresZeroInitialization())
    return "(" + typeName(T.getUnqualifiedType(), CE->getBeginLoc()) + "){0}";
  if (const auto *RD = T->getAsCXXRecordDecl(); RD && inStdNamespace(RD)) {
    recordName(RD, CE->getBeginLoc());
    return "0";
  }
  error(CE->getBeginLoc(),
        "constructors cannot be translated to OpenCL C; use aggregate "
        "initialization ('" +
            T.getUnqualifiedType().getAsString(Policy) + " v{...}') instead",
        CE->getSourceRange());
  return "0";
}

std::string Emitter::mathCall(const CallExpr *CE, const FunctionDecl *Callee,
                              const MathBuiltin &B) {
  QualType R =
      CE->getType().getNonReferenceType().getUnqualifiedType().getCanonicalType();
  SourceLocation Loc = CE->getBeginLoc();
  if (CE->getNumArgs() != B.Arity)
    return cannot(CE);
  if (R->isSpecificBuiltinType(BuiltinType::LongDouble)) {
    typeName(R, Loc);
    return "0";
  }
  auto Args = [&](QualType T) {
    std::string S;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      S += (I ? ", " : "") + converted(CE->getArg(I), T);
    return S;
  };
  switch (B.Kind) {
  case MathKind::SameType:
    if (!R->isRealFloatingType())
      return cannot(CE);
    typeName(R, Loc); // marks double use
    return B.OpenCLName + "(" + Args(R) + ")";
  case MathKind::FloatInt:
    typeName(R, Loc);
    return cat({B.OpenCLName, "(", converted(CE->getArg(0), R), ", ",
                converted(CE->getArg(1), Ctx.IntTy), ")"});
  case MathKind::Classify: {
    QualType A = skipTransparent(CE->getArg(0))
                     ->getType()
                     .getUnqualifiedType()
                     .getCanonicalType();
    if (!A->isRealFloatingType())
      A = Ctx.DoubleTy;
    typeName(A, Loc);
    return B.OpenCLName + "(" + converted(CE->getArg(0), A) + ")";
  }
  case MathKind::Abs:
    if (R->isRealFloatingType()) {
      typeName(R, Loc);
      return "fabs(" + converted(CE->getArg(0), R) + ")";
    }
    return cat({"(", typeName(R, Loc), ")abs(", converted(CE->getArg(0), R), ")"});
  case MathKind::MinMax: {
    std::string Name = B.OpenCLName;
    if (R->isRealFloatingType() && Name != "clamp")
      Name = "f" + Name;
    typeName(R, Loc);
    return Name + "(" + Args(R) + ")";
  }
  }
  return cannot(CE);
}

std::string Emitter::call(const CallExpr *CE) {
  SourceLocation Loc = CE->getBeginLoc();
  const FunctionDecl *Callee = CE->getDirectCallee();
  // Calling a lambda or function pointer whose declaration was reported.
  auto Poisoned = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && Cur->Poisoned.count(DRE->getDecl());
  };
  if (Poisoned(CE->getCallee()))
    return "0";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE);
      Op && Op->getNumArgs() > 0 && Poisoned(Op->getArg(0)))
    return "0";
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && MC->getImplicitObjectArgument() &&
      Poisoned(MC->getImplicitObjectArgument()))
    return "0";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee)) {
      if ((M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()) &&
          M->isTrivial() && Op->getNumArgs() == 2)
        return cat({expr(Op->getArg(0)), " = ", expr(Op->getArg(1))});
      if (inStdNamespace(M->getParent())) {
        recordName(M->getParent(), Loc);
        return "0";
      }
    }
  }
  if (!Callee) {
    error(Loc, "calls through function pointers cannot be translated to "
               "OpenCL C",
          CE->getSourceRange());
    return "0";
  }
  // A member function's object, passed first: by value to a const member
  // function, by pointer to the others.
  const Expr *Object = nullptr;
  bool ObjectIsPointer = false;
  unsigned ArgOffset = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee); M && !M->isStatic()) {
    if (isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M))
      return cannot(CE);
    if (inStdNamespace(M->getParent())) {
      recordName(M->getParent(), Loc);
      return "0";
    }
    if (M->isVirtual()) {
      error(Loc, "virtual calls cannot be translated to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
    if (isa<LambdaExpr>(CE->getCallee()->IgnoreImplicit()) ||
        M->getParent()->isLambda()) {
      error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
                 "function",
            CE->getSourceRange());
      return "0";
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      Object = MC->getImplicitObjectArgument();
      if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        ObjectIsPointer = ME->isArrow();
    } else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0) {
      Object = CE->getArg(0);
      ArgOffset = 1;
    }
    if (!Object)
      return cannot(CE);
    if (!M->isConst() && !ObjectIsPointer && !Object->isLValue()) {
      error(Loc, "Ferry cannot translate a call of the non-const member "
                 "function '" + M->getQualifiedNameAsString() +
                     "' on a temporary to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
  }
  if (isAllocationFunction(Callee)) {
    error(Loc, "dynamic memory ('" + Callee->getNameAsString() +
                   "') cannot be used in OpenCL C",
          CE->getSourceRange());
    return "0";
  }
  const FunctionDecl *Def = Callee->getDefinition();
  bool System = SM.isInSystemHeader(Callee->getLocation());
  if (System || !Def || !Def->hasBody()) {
    if (auto B = lookupMathBuiltin(Callee))
      return mathCall(CE, Callee, *B);
    // std::numeric_limits<float>::max() and other constant library calls.
    if (std::string V = constant(CE); !V.empty())
      return V;
    if (System)
      error(Loc, "'" + Callee->getQualifiedNameAsString() +
                     "' is not available in OpenCL C (Ferry translates "
                     "functions defined in the program and the <cmath> "
                     "functions OpenCL C has)",
            CE->getSourceRange());
    else
      error(Loc, "'" + Callee->getQualifiedNameAsString() +
                     "' has no body in this translation unit; Ferry can only "
                     "translate functions it can see",
            CE->getSourceRange());
    return "0";
  }
  if (isKernel(Def)) {
    error(Loc, "kernels cannot be called from device code",
          CE->getSourceRange());
    return "0";
  }
  if (Def->isVariadic()) {
    error(Loc, "variadic functions cannot be translated to OpenCL C");
    return "0";
  }
  for (const Frame &Fr : Stack)
    if (Fr.F == Def) {
      error(Loc, "recursion ('" + Def->getQualifiedNameAsString() +
                     "' calls itself, directly or through other functions) "
                     "cannot be translated to OpenCL C",
            CE->getSourceRange());
      return "0";
    }
  std::vector<std::string> Args;
  std::vector<Space> Spaces;
  std::vector<std::string> Seps;
  // The address of an lvalue argument, for a pointer parameter.
  auto AddressOf = [&](const Expr *A) -> std::string {
    if (const VarInfo *VI = varInfo(A); VI && VI->RefPointer)
      return VI->Name;
    if (const auto *U = dyn_cast<UnaryOperator>(A->IgnoreParens());
        U && U->getOpcode() == UO_Deref)
      return expr(U->getSubExpr());
    return "&" + postfixBase(A);
  };
  if (Object) {
    bool ThisByValue = Cur->This == FunctionState::ThisMode::Value &&
                       isa<CXXThisExpr>(Object->IgnoreParenImpCasts());
    if (cast<CXXMethodDecl>(Def)->isConst()) {
      if (ThisByValue)
        Args.push_back("self");
      else
        Args.push_back(ObjectIsPointer ? "*" + operand(Object)
                                       : expr(Object->IgnoreParens()));
    } else if (ObjectIsPointer) {
      Args.push_back(expr(Object));
      Spaces.push_back(pointerSpace(Object));
    } else {
      Spaces.push_back(objectSpace(Object));
      Args.push_back(AddressOf(Object));
    }
    if (CE->getNumArgs() > ArgOffset)
      Seps.push_back(", ");
  }
  for (unsigned I = ArgOffset + 1; I < CE->getNumArgs(); ++I)
    Seps.push_back("," + gap(CE->getArg(I - 1)->getEndLoc(),
                             CE->getArg(I)->getBeginLoc()));
  for (unsigned I = 0;
       I + ArgOffset < CE->getNumArgs() && I < Def->getNumParams(); ++I) {
    QualType PT = Def->getParamDecl(I)->getType();
    const Expr *A = CE->getArg(I + ArgOffset);
    if (PT->isPointerType()) {
      Args.push_back(expr(A));
      Spaces.push_back(pointerSpace(A));
    } else if (PT->isLValueReferenceType() &&
               !PT.getNonReferenceType().isConstQualified()) {
      Spaces.push_back(objectSpace(A));
      Args.push_back(AddressOf(A));
    } else {
      Args.push_back(expr(A));
    }
  }
  const Version &V = requestVersion(Def, Spaces, CE);
  CallReturnSpaces[CE] = V.ReturnSpace;
  Cur->Callees.insert(V.Index);
  const std::string &Name = V.Name;
  std::string S = Name + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    S += (I ? Seps[I - 1] : "") + Args[I];
  return S + ")";
}

std::string Emitter::expr(const Expr *E) {
  if (!E)
    return "";
  SourceLocation Loc = E->getBeginLoc();
  switch (E->getStmtClass()) {
  case Stmt::ParenExprClass:
    return "(" + expr(cast<ParenExpr>(E)->getSubExpr()) + ")";
  case Stmt::IntegerLiteralClass:
    return intLiteral(cast<IntegerLiteral>(E));
  case Stmt::FloatingLiteralClass:
    return floatLiteral(cast<FloatingLiteral>(E));
  case Stmt::CXXBoolLiteralExprClass:
    return cast<CXXBoolLiteralExpr>(E)->getValue() ? "true" : "false";
  case Stmt::CharacterLiteralClass: {
    unsigned V = cast<CharacterLiteral>(E)->getValue();
    if (V >= 32 && V < 127 && V != '\'' && V != '\\')
      return std::string("'") + char(V) + "'";
    return std::to_string(V);
  }
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
    return "0";
  case Stmt::StringLiteralClass:
    error(Loc, "string literals cannot be used in OpenCL C kernels",
          E->getSourceRange());
    return "0";
  case Stmt::DeclRefExprClass:
    return declRef(cast<DeclRefExpr>(E));
  case Stmt::CXXThisExprClass:
    if (Cur->This == FunctionState::ThisMode::Pointer)
      return "self";
    if (Cur->This == FunctionState::ThisMode::Value)
      return "(&self)";
    return cannot(E);
  case Stmt::MemberExprClass:
    return member(cast<MemberExpr>(E));
  case Stmt::ArraySubscriptExprClass: {
    const auto *A = cast<ArraySubscriptExpr>(E);
    return cat({postfixBase(A->getBase()), "[", expr(A->getIdx()), "]"});
  }
  case Stmt::UnaryOperatorClass: {
    const auto *U = cast<UnaryOperator>(E);
    const Expr *Sub = U->getSubExpr();
    switch (U->getOpcode()) {
    case UO_PostInc:
      return postfixBase(Sub) + "++";
    case UO_PostDec:
      return postfixBase(Sub) + "--";
    case UO_PreInc:
      return "++" + operand(Sub);
    case UO_PreDec:
      return "--" + operand(Sub);
    case UO_AddrOf:
      if (const VarInfo *VI = varInfo(Sub); VI && VI->RefPointer)
        return VI->Name;
      return "&" + operand(Sub);
    case UO_Deref:
      if (isa<CXXThisExpr>(Sub->IgnoreParenImpCasts()) &&
          Cur->This == FunctionState::ThisMode::Value)
        return "self";
      return "*" + operand(Sub);
    case UO_Plus:
      return "+" + operand(Sub);
    case UO_Minus:
      return "-" + operand(Sub);
    case UO_Not:
      return "~" + operand(Sub);
    case UO_LNot: {
      const Expr *C = Sub;
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(C);
          ICE && isToBoolean(ICE->getCastKind()))
        C = ICE->getSubExpr();
      return "!" + operand(C);
    }
    case UO_Extension:
      return expr(Sub);
    default:
      return cannot(E);
    }
  }
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass: {
    const auto *B = cast<BinaryOperator>(E);
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_PtrMemD || Op == BO_PtrMemI || Op == BO_Cmp)
      return cannot(E);
    if (Op == BO_LAnd || Op == BO_LOr)
      return cat({cond(B->getLHS()),
                  around(B->getLHS(), B->getOperatorLoc(), B->getRHS(),
                         B->getOpcodeStr()),
                  cond(B->getRHS())});
    if (Op == BO_Assign && B->getLHS()->getType()->isPointerType())
      if (const VarInfo *VI = varInfo(B->getLHS());
          VI && !VI->RefPointer && !isa<CXXNullPtrLiteralExpr>(skipTransparent(B->getRHS())) &&
          pointerSpace(B->getRHS()) != VI->Where)
        error(B->getOperatorLoc(),
              "the pointer '" + VI->Name +
                  "' would point into different address spaces ('" +
                  spaceWord(VI->Where) + "' and '" +
                  spaceWord(pointerSpace(B->getRHS())) + "')");
    return cat({expr(B->getLHS()),
                around(B->getLHS(), B->getOperatorLoc(), B->getRHS(),
                       B->getOpcodeStr()),
                expr(B->getRHS())});
  }
  case Stmt::ConditionalOperatorClass: {
    const auto *C = cast<ConditionalOperator>(E);
    if (C->getType()->isPointerType())
      pointerSpace(C);
    return cat({cond(C->getCond()),
                around(C->getCond(), C->getQuestionLoc(), C->getTrueExpr(), "?"),
                expr(C->getTrueExpr()),
                around(C->getTrueExpr(), C->getColonLoc(), C->getFalseExpr(),
                       ":"),
                expr(C->getFalseExpr())});
  }
  case Stmt::ImplicitCastExprClass: {
    const auto *C = cast<ImplicitCastExpr>(E);
    CastKind K = C->getCastKind();
    if (isTransparentCast(K) || K == CK_ToVoid)
      return expr(C->getSubExpr());
    if (isToBoolean(K))
      return "(bool)" + operand(C->getSubExpr());
    if (K == CK_NullToPointer)
      return "0";
    if (K == CK_FunctionToPointerDecay) {
      error(Loc, "function pointers cannot be translated to OpenCL C",
            E->getSourceRange());
      return "0";
    }
    if (K == CK_BitCast || K == CK_IntegralToPointer ||
        K == CK_PointerToIntegral || K == CK_BooleanToSignedIntegral)
      return castTo(C->getType(), C->getSubExpr(), Loc);
    if (K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
        K == CK_BaseToDerived) {
      error(Loc, "class hierarchies cannot be translated to OpenCL C");
      return "0";
    }
    if (K == CK_UserDefinedConversion) {
      error(Loc, "user-defined conversions cannot be translated to OpenCL C",
            E->getSourceRange());
      return "0";
    }
    return cannot(E);
  }
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::CXXReinterpretCastExprClass: {
    const auto *C = cast<ExplicitCastExpr>(E);
    const Expr *Sub = castOperand(C);
    // The conversion the cast performs may sit in implicit casts beneath it
    // (static_cast<int>(f) is a NoOp over a FloatingToIntegral): look at
    // the whole chain.
    for (const Expr *X = C; X != Sub;) {
      const auto *CE = dyn_cast<CastExpr>(X);
      if (!CE)
        break;
      CastKind K = CE->getCastKind();
      if (K == CK_DerivedToBase || K == CK_UncheckedDerivedToBase ||
          K == CK_BaseToDerived || K == CK_Dynamic) {
        error(Loc, "class hierarchies cannot be translated to OpenCL C");
        return "0";
      }
      if (K == CK_UserDefinedConversion) {
        error(Loc, "user-defined conversions cannot be translated to OpenCL C",
              E->getSourceRange());
        return "0";
      }
      if (K == CK_FunctionToPointerDecay) {
        error(Loc, "function pointers cannot be translated to OpenCL C",
              E->getSourceRange());
        return "0";
      }
      X = CE->getSubExpr();
    }
    if (const auto *IL = dyn_cast<InitListExpr>(skipTransparent(Sub))) {
      QualType T = C->getType();
      if (T->isRecordType() || T->isArrayType())
        return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", initList(IL)});
      return castTo(T, IL, Loc);
    }
    if (C->getType()->isReferenceType() || C->getTypeAsWritten()->isReferenceType())
      return cannot(E);
    if (C->getType()->isRecordType() || C->getType()->isArrayType())
      return expr(C->getSubExpr());
    if (!castIsPrinted(C))
      return expr(Sub);
    if (C->getCastKind() == CK_ToVoid)
      return "(void)" + operand(Sub);
    return castTo(C->getType(), Sub, Loc);
  }
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    return call(cast<CallExpr>(E));
  case Stmt::InitListExprClass: {
    const auto *IL = cast<InitListExpr>(E);
    QualType T = IL->getType();
    if (T->isRecordType() || T->isArrayType())
      return cat({"(", typeName(T.getUnqualifiedType(), Loc), ")", initList(IL)});
    return initList(IL);
  }
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return construct(cast<CXXConstructExpr>(E));
  case Stmt::MaterializeTemporaryExprClass:
  case Stmt::CXXBindTemporaryExprClass:
  case Stmt::ExprWithCleanupsClass:
  case Stmt::ConstantExprClass:
  case Stmt::SubstNonTypeTemplateParmExprClass:
  case Stmt::CXXDefaultArgExprClass:
  case Stmt::CXXDefaultInitExprClass:
    return expr(skipTransparent(E));
  case Stmt::ImplicitValueInitExprClass:
    return E->getType()->isScalarType() ? "0" : "{0}";
  case Stmt::CXXScalarValueInitExprClass:
    return E->getType()->isPointerType() ? "0" : converted(E, E->getType()) ;
  case Stmt::UnaryExprOrTypeTraitExprClass: {
    const auto *U = cast<UnaryExprOrTypeTraitExpr>(E);
    QualType Arg = U->getTypeOfArgument();
    if (U->getKind() == UETT_SizeOf && !Arg->isReferenceType())
      return "(" + typeName(E->getType(), Loc) + ")sizeof(" +
             declare(Arg.getUnqualifiedType(), "", Loc, Space::Private, true) +
             ")";
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return llvm::toString(R.Val.getInt(), 10) + "UL";
    return cannot(E);
  }
  case Stmt::CXXNewExprClass:
    error(Loc, "dynamic memory ('new') cannot be used in OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::CXXDeleteExprClass:
    error(Loc, "dynamic memory ('delete') cannot be used in OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::CXXThrowExprClass:
    error(Loc, "exceptions ('throw') cannot be translated to OpenCL C",
          E->getSourceRange());
    return "0";
  case Stmt::LambdaExprClass:
    error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
               "function",
          E->getSourceRange());
    return "0";
  case Stmt::CXXTypeidExprClass:
  case Stmt::CXXDynamicCastExprClass:
    error(Loc, "run-time type information cannot be used in OpenCL C");
    return "0";
  default:
    if (std::string V = constant(E); !V.empty())
      return V; // sizeof...(ts) and other constants
    return cannot(E);
  }
}

std::string Emitter::constant(const Expr *E) {
  if (E->isValueDependent() || E->isTypeDependent())
    return "";
  QualType T = E->getType().getCanonicalType();
  if (!T->isIntegralOrEnumerationType() && !T->isRealFloatingType())
    return "";
  if (T->isSpecificBuiltinType(BuiltinType::LongDouble))
    return "";
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects)
    return "";
  if (!R.Val.isInt() && !R.Val.isFloat())
    return "";
  std::string V = apValue(R.Val, T, E->getBeginLoc());
  return V[0] == '-' ? "(" + V + ")" : V;
}

// ======================================================================
// The program
// ======================================================================

static unsigned detectIndent(const FunctionDecl *F, SourceManager &SM) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
  if (!Body || Body->body_empty())
    return 4;
  SourceLocation First = SM.getExpansionLoc(Body->body_front()->getBeginLoc());
  SourceLocation Start = SM.getExpansionLoc(F->getBeginLoc());
  bool Invalid = false;
  unsigned Col = SM.getExpansionColumnNumber(First, &Invalid);
  if (Invalid)
    return 4;
  // Column of the first non-blank character on the function's first line.
  FileID FID = SM.getFileID(Start);
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return 4;
  unsigned Off = SM.getFileOffset(Start);
  size_t LineStart = Buf.rfind('\n', Off);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  unsigned Base = 1;
  while (LineStart + Base - 1 < Buf.size() &&
         (Buf[LineStart + Base - 1] == ' ' || Buf[LineStart + Base - 1] == '\t'))
    ++Base;
  if (Col > Base) {
    unsigned W = Col - Base;
    if (W == 2 || W == 3 || W == 4 || W == 8)
      return W;
  }
  return 4;
}

std::optional<EmittedProgram>
Emitter::run(llvm::ArrayRef<const FunctionDecl *> Kernels) {
  if (!Kernels.empty())
    IndentWidth = detectIndent(Kernels.front(), SM);
  for (const FunctionDecl *K : Kernels) {
    // openclName() already keeps kernels clear of OpenCL C's names, so
    // the host finds them under the name the rewriter gives launches.
    std::string Name = openclName(K);
    UsedNames.insert(Name);
  }
  for (const FunctionDecl *K : Kernels) {
    Stack.clear();
    Stack.push_back({K, nullptr});
    Version V;
    V.Name = openclName(K);
    emitFunction(K, {}, V.Name, /*IsKernel=*/true, V);
  }
  if (HadError)
    return std::nullopt;

  std::string MainFile;
  if (auto FE = SM.getFileEntryRefForID(SM.getMainFileID()))
    MainFile = llvm::sys::path::filename(FE->getName()).str();
  EmittedProgram P;
  std::string &S = P.OpenCL;
  S += "// OpenCL C 1.2 for the kernels of " + MainFile +
       ", generated by ferry. Do not edit.\n";
  if (UsesDouble)
    S += "#ifndef cl_khr_fp64\n"
         "#error \"these kernels use 'double', which this OpenCL device does "
         "not support (cl_khr_fp64)\"\n"
         "#endif\n"
         "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  if (NeedsOffsetof)
    S += "#if defined(__clang__) || defined(__GNUC__)\n"
         "#define FERRY_OFFSETOF(T, m) __builtin_offsetof(T, m)\n"
         "#else\n"
         "#define FERRY_OFFSETOF(T, m) ((size_t) & (((T*)0)->m))\n"
         "#endif\n";
  S += "\n";
  if (NeedsKernelContext)
    S += "typedef struct { int x, y, z, maxX, maxY, maxZ; } "
         "ferry_KernelContext;\n\n";
  S += Types;
  if (!Constants.empty())
    S += Constants + "\n";
  // Callees before callers; otherwise in the order of the source.
  std::vector<bool> Done(Funcs.size());
  for (size_t Count = 0; Count < Funcs.size(); ++Count) {
    size_t Best = Funcs.size();
    for (size_t I = 0; I < Funcs.size(); ++I) {
      if (Done[I] || !llvm::all_of(Funcs[I].Callees,
                                   [&](unsigned C) { return Done[C]; }))
        continue;
      if (Best == Funcs.size() ||
          SM.isBeforeInTranslationUnit(Funcs[I].Loc, Funcs[Best].Loc))
        Best = I;
    }
    if (Best == Funcs.size())
      break; // a cycle: recursion, already reported
    Done[Best] = true;
    S += Funcs[Best].Text;
  }
  while (S.size() > 1 && S.back() == '\n' && S[S.size() - 2] == '\n')
    S.pop_back();
  if (!HostChecks.empty())
    P.HostLayoutChecks = "#include <cstddef>\n" + HostChecks;
  return P;
}

} // namespace

std::optional<EmittedProgram>
emitOpenCL(ASTContext &Ctx, llvm::ArrayRef<const FunctionDecl *> Kernels) {
  Emitter E(Ctx);
  return E.run(Kernels);
}

} // namespace ferry
