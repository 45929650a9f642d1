// Local memory: ferry::Local<T, N> arrays and ferry::LocalSpan<T> kernel
// parameters, printed as OpenCL C __local arrays and pointers.
//
// OpenCL C 1.2 allows __local variables only at kernel function scope. A
// ferry::Local declared at a kernel's outermost level is printed where it
// is; one declared in a nested block is declared at the top of the kernel;
// one declared in a helper is declared at the top of every kernel that
// (directly or not) calls the helper, and handed down to it as a hidden
// trailing `__local T*` parameter. One array per declaration and kernel is
// enough: two activations of one declaration never overlap in a work-item
// (there is no recursion), and the contents do not outlive the scope.

#include "emit/Emitter.h"
#include "analyses/kernel/WorkGroupUse.h"
#include "model/Naming.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace ferry {
namespace emit {

namespace {
/// The element type and count of ferry::Local<T, N>, or of LocalSpan<T>
/// (count 0).
struct LocalShape {
  QualType Element;
  uint64_t Count = 0;
};

std::optional<LocalShape> localShape(QualType T) {
  const auto *RD = T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  LocalShape S;
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  S.Element = Args[0].getAsType();
  if (Args.size() >= 2) {
    if (Args[1].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    S.Count = Args[1].getAsIntegral().getZExtValue();
  }
  return S;
}
} // namespace

std::string Emitter::freshName(const std::string &Base, bool Own) {
  auto Taken = [&](const std::string &N) {
    auto It = Cur->DeclaredNames.find(N);
    unsigned Declared = It == Cur->DeclaredNames.end() ? 0 : It->second;
    if (Declared > (Own && N == Base ? 1u : 0u) || UsedNames.count(N) ||
        isReservedInOpenCL(N))
      return true;
    for (const auto &[D, Name] : Cur->LocalSlots)
      if (Name == N)
        return true;
    for (const auto &[D, Info] : Cur->Vars)
      if (Info.Name == N || Info.SizeName == N)
        return true;
    return false;
  };
  std::string Name = Base;
  for (unsigned I = 1; Taken(Name); ++I)
    Name = Base + "_" + std::to_string(I);
  return Name;
}

std::string Emitter::localSlot(const VarDecl *VD) {
  for (const auto &[D, Name] : Cur->LocalSlots)
    if (D == VD)
      return Name;
  std::string Name = freshName(VD->getName().str(),
                               VD->getParentFunctionOrMethod() == Cur->F);
  Cur->LocalSlots.push_back({VD, Name});
  if (Cur->IsKernel) {
    std::optional<LocalShape> S = localShape(VD->getType());
    Cur->HoistedText += std::string(IndentWidth, ' ') + "__local " +
                        declare(S->Element,
                                Name + "[" + std::to_string(S->Count) + "]",
                                VD->getLocation()) +
                        ";\n";
  }
  return Name;
}

void Emitter::localDecl(const VarDecl *VD) {
  std::optional<LocalShape> S = localShape(VD->getType());
  VarInfo Info;
  Info.LocalMemory = true;
  Info.Where = Space::Local;
  if (!S || S->Count == 0) {
    error(VD->getLocation(), "the size of a ferry::Local must be a constant");
    Cur->Poisoned.insert(VD);
    return;
  }
  if (VD->isStaticLocal() || VD->hasGlobalStorage()) {
    error(VD->getLocation(), "a ferry::Local cannot be static or global; "
                             "declare it in a kernel or a function it calls");
    Cur->Poisoned.insert(VD);
    return;
  }
  // At the kernel's outermost level: where the user wrote it.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Cur->F->getBody());
  bool Outermost = false;
  if (Cur->IsKernel && Body)
    for (const Stmt *St : Body->body())
      if (const auto *DS = dyn_cast<DeclStmt>(St))
        for (const Decl *D : DS->decls())
          Outermost |= D == VD;
  if (Outermost) {
    Info.Name = VD->getName().str();
    if (isReservedInOpenCL(Info.Name))
      Info.Name += "_";
    Cur->Vars[VD] = Info;
    std::string D = declare(S->Element,
                            Info.Name + "[" + std::to_string(S->Count) + "]",
                            VD->getLocation());
    line(VD->getBeginLoc(), "__local " + D + ";");
    return;
  }
  Info.Name = localSlot(VD);
  Cur->Vars[VD] = Info;
}

bool Emitter::isLocalMemoryAccess(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParens());
  if (!CE)
    return false;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!M)
    return false;
  QualType T = Ctx.getRecordType(M->getParent());
  if (!isLocalArrayType(T) && !isLocalSpanType(T))
    return false;
  return M->getOverloadedOperator() == OO_Subscript ||
         M->getName() == "data";
}

std::optional<std::string> Emitter::localMemoryCall(const CallExpr *CE) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!M)
    return std::nullopt;
  QualType T = Ctx.getRecordType(M->getParent());
  bool Span = isLocalSpanType(T);
  if (!Span && !isLocalArrayType(T))
    return std::nullopt;
  if (!Span && M->getName() == "size") {
    std::optional<LocalShape> S = localShape(T); // static: no object needed
    return std::to_string(S ? S->Count : 0) + "UL";
  }
  const Expr *Object = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() > 0)
    Object = CE->getArg(0);
  const auto *DRE =
      Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  if (DRE && Cur->Poisoned.count(DRE->getDecl()))
    return std::string("0");
  const VarInfo *VI = DRE ? varInfo(DRE) : nullptr;
  if (!VI || !VI->LocalMemory) {
    error(CE->getBeginLoc(),
          "Ferry can translate a ferry::Local or ferry::LocalSpan only by its "
          "name ('tile[i]', 'tile.data()', 'tile.size()')",
          CE->getSourceRange());
    return std::string("0");
  }
  if (M->getOverloadedOperator() == OO_Subscript && CE->getNumArgs() == 2)
    return cat({VI->Name, "[", expr(CE->getArg(1)), "]"});
  if (M->getName() == "data")
    return VI->Name;
  if (M->getName() == "size") {
    if (Span) {
      Cur->UsedSizes.insert(VI->SizeName);
      return "(ulong)" + VI->SizeName;
    }
  }
  return cannot(CE);
}

} // namespace emit
} // namespace ferry
