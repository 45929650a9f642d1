// Functions: kernels and helpers, their signatures, and the versions of a
// helper, one per combination of the address spaces its pointer and
// reference parameters receive.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "analyses/kernel/WorkGroupUse.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {
namespace emit {

namespace {

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

} // namespace

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
/// Every name a function's C++ declares.
class DeclaredNames : public RecursiveASTVisitor<DeclaredNames> {
public:
  std::map<std::string, unsigned> &Names;
  explicit DeclaredNames(std::map<std::string, unsigned> &Names)
      : Names(Names) {}
  bool VisitNamedDecl(NamedDecl *D) {
    if (D->getIdentifier() && !isa<FunctionDecl>(D))
      ++Names[D->getName().str()];
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
  DeclaredNames(State.DeclaredNames).TraverseDecl(const_cast<FunctionDecl *>(F));

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
  // The element-count parameters of LocalSpans: index in Params, name.
  std::vector<std::pair<size_t, std::string>> SpanSizeParams;
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
        std::string Init;
        for (const char *Field : contextFields())
          Init += std::string(Init.empty() ? "" : ", ") + *workItemField(Field);
        Prologue.push_back("ferry_KernelContext " + PName + " = {" + Init +
                           "};");
      }
      State.Vars[P] = Info;
      continue;
    }
    if (isLocalArrayType(T)) {
      error(Loc, "a ferry::Local cannot be a parameter; pass 'tile.data()' "
                 "(or '&tile[0]') as a pointer");
      State.Poisoned.insert(P);
      continue;
    }
    if (isLocalSpanType(T)) {
      // Local memory sized at dispatch: the pointer and its element count,
      // two OpenCL arguments (the host sets the first with a size and NULL).
      Info.LocalMemory = true;
      Info.Where = Space::Local;
      Info.SizeName = freshName(PName + "_size");
      std::optional<QualType> Element;
      if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
              T.getNonReferenceType()->getAsCXXRecordDecl()))
        Element = Spec->getTemplateArgs()[0].getAsType();
      ParamDecls.push_back(P),
          Params.push_back(declare(Ctx.getPointerType(*Element), PName, Loc,
                                   Space::Local));
      ParamDecls.push_back(nullptr), Params.push_back("uint " + Info.SizeName);
      SpanSizeParams.push_back({Params.size() - 1, Info.SizeName});
      State.Vars[P] = Info;
      continue;
    }
    if (isReducerType(T)) {
      // A reduction's item takes a pointer to the work-item's private value
      // (EmitReductions.cpp); no other function may take a reducer.
      if (F != ReductionItem) {
        error(Loc, "a reducer can be combined into only in its kernel's own "
                   "body; '" + P->getNameAsString() + "' cannot be passed on");
        State.Poisoned.insert(P);
        continue;
      }
      Info.Reducer = true;
      Info.RefPointer = true;
      ParamDecls.push_back(P);
      Params.push_back(typeName(reducerKind(T).Element, Loc) + "* " + PName);
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
        std::string Decl =
            declare(T.getUnqualifiedType(), PName, Loc, Space::Global);
        // `T* name` becomes `T* restrict name` where every dispatch binds it
        // to a buffer no other parameter is bound to (RestrictParams.h).
        if (Restrict.isRestrict(F, I) &&
            llvm::StringRef(Decl).ends_with("* " + PName))
          Decl.insert(Decl.size() - PName.size(), "restrict ");
        ParamDecls.push_back(P), Params.push_back(Decl);
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
  // The kernel's local arrays that cannot stay where they are declared, at
  // the top of its body; a helper's, as its hidden parameters.
  if (IsKernel && !State.HoistedText.empty()) {
    size_t At = PrologueAt.empty() ? 0 : State.Out.find('\n', PrologueAt.back()) + 1;
    std::string Text = State.HoistedText;
    if (State.Out.compare(At, 6, "#line ") != 0 && Prologue.empty())
      Text += "#line " + std::to_string(SigLine + 1) + " " + quoted(File) + "\n";
    State.Out.insert(At, Text);
  }
  if (!IsKernel)
    for (const auto &[D, LName] : State.LocalSlots) {
      V.HiddenLocals.push_back(D);
      const auto *Spec = cast<ClassTemplateSpecializationDecl>(
          D->getType()->getAsCXXRecordDecl());
      ParamDecls.push_back(nullptr);
      Params.push_back(declare(Ctx.getPointerType(
                                   Spec->getTemplateArgs()[0].getAsType()),
                               LName, D->getLocation(), Space::Local));
    }
  const std::string Unused = " __attribute__((unused))";
  for (size_t I = 0; I < Params.size(); ++I)
    if (ParamDecls[I] && !State.Used.count(ParamDecls[I]))
      Params[I] += Unused;
  for (const auto &[I, SizeName] : SpanSizeParams)
    if (!State.UsedSizes.count(SizeName))
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
                 State.HoistedText.empty() &&
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

} // namespace emit
} // namespace ferry
