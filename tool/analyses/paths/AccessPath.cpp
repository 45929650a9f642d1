#include "analyses/paths/AccessPath.h"

#include "analyses/paths/ElementSteps.h"
#include "analyses/paths/MemberSteps.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace ferry {

/// The next link inward of a path at `Outer`, or null where the path
/// starts at Outer's base.
static const MemberExpr *innerLink(const MemberExpr *Outer) {
  if (Outer->isArrow())
    return nullptr;
  const auto *Inner =
      dyn_cast<MemberExpr>(Outer->getBase()->IgnoreParenImpCasts());
  const auto *InnerField =
      Inner ? dyn_cast<FieldDecl>(Inner->getMemberDecl()) : nullptr;
  return InnerField && isNestedBufferField(InnerField) ? Inner : nullptr;
}

const Expr *memberPathRoot(const MemberExpr *ME, FieldPath &Path, bool *Arrow) {
  Path.clear();
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return nullptr;
  Path.push_back(FD);
  const MemberExpr *Outer = ME;
  while (const MemberExpr *Inner = innerLink(Outer)) {
    Path.insert(Path.begin(), cast<FieldDecl>(Inner->getMemberDecl()));
    Outer = Inner;
  }
  if (Arrow)
    *Arrow = Outer->isArrow();
  return Outer->getBase()->IgnoreParenImpCasts();
}

void pathLinks(const MemberExpr *ME, std::set<const MemberExpr *> &Out) {
  for (const MemberExpr *Inner = innerLink(ME); Inner; Inner = innerLink(Inner))
    Out.insert(Inner);
}

static void leavesOf(const CXXRecordDecl *RD, const FieldPath &Prefix,
                     std::vector<FieldPath> &Out) {
  // Past this depth a path is more likely a recursive template than state.
  constexpr std::size_t MaxDepth = 6;
  // A base class's buffers are the object's too (`struct D : Store`), each
  // spelt from the object as its own members are (`d.f`).
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
        BD && BD->hasDefinition() && !BD->isInStdNamespace())
      leavesOf(BD->getDefinition(), Prefix, Out);
  for (const FieldDecl *FD : RD->fields()) {
    FieldPath Path = Prefix;
    Path.push_back(FD);
    if (isBufferField(FD) || isBufferContainerField(FD))
      Out.push_back(Path);
    else if (isNestedBufferField(FD) && Path.size() < MaxDepth)
      bufferLeaves(Path, Out);
    else if (isNestedBufferField(FD))
      Out.push_back(Path);
  }
}

void bufferLeaves(const FieldPath &Prefix, std::vector<FieldPath> &Out) {
  const auto *RD = Prefix.back()->getType()->getAsCXXRecordDecl();
  // A standard type's own fields are its storage, not paths of the program.
  bool Spelled = RD && RD->hasDefinition() && !RD->isInStdNamespace();
  if (Spelled) {
    RD = RD->getDefinition();
    // Buffers in a base class, or held in a form no member path reaches
    // (an array of buffers, a pointer to a struct of them), are guessed.
    for (const CXXBaseSpecifier &B : RD->bases())
      Spelled = Spelled && !holdsBuffers(B.getType());
    for (const FieldDecl *FD : RD->fields())
      Spelled = Spelled && (isBufferField(FD) || isBufferContainerField(FD) ||
                            isNestedBufferField(FD) ||
                            !holdsBuffers(FD->getType()));
  }
  std::vector<FieldPath> Leaves;
  if (Spelled)
    leavesOf(RD, Prefix, Leaves);
  if (!Spelled || Leaves.empty()) {
    Out.push_back(Prefix);
    return;
  }
  Out.insert(Out.end(), Leaves.begin(), Leaves.end());
}

std::vector<FieldPath> bufferPathsOf(const CXXRecordDecl *RD) {
  std::vector<FieldPath> Out;
  if (RD && RD->hasDefinition())
    leavesOf(RD->getDefinition(), {}, Out);
  // A virtual base reached along two ways is one set of buffers.
  std::set<FieldPath> Seen;
  llvm::erase_if(Out, [&](const FieldPath &P) { return !Seen.insert(P).second; });
  return Out;
}

std::vector<QualType> ownBufferElements(const CXXRecordDecl *RD) {
  std::vector<QualType> Out;
  if (!RD || !RD->hasDefinition())
    return Out;
  for (const FieldDecl *FD : RD->getDefinition()->fields()) {
    if (!holdsBuffers(FD->getType()))
      continue;
    std::vector<FieldPath> Leaves;
    bufferLeaves({FD}, Leaves);
    for (const FieldPath &P : Leaves)
      addElementOnce(Out, pathElement(P));
  }
  return Out;
}

void addElementOnce(std::vector<QualType> &Elements, QualType Element) {
  if (llvm::none_of(Elements, [&](QualType T) {
        return T.isNull() == Element.isNull() &&
               (T.isNull() ||
                T.getCanonicalType() == Element.getCanonicalType());
      }))
    Elements.push_back(Element);
}

bool isOpaquePath(const FieldPath &Path) {
  return !Path.empty() && isNestedBufferField(Path.back());
}

QualType pathElement(const FieldPath &Path) {
  if (Path.empty())
    return QualType();
  QualType T = Path.back()->getType().getNonReferenceType();
  if (isOpaquePath(Path))
    return heldBufferElement(T);
  QualType Element = containerElementType(T.getUnqualifiedType());
  if (!Element.isNull())
    return Element;
  return bufferElementType(T->isPointerType() ? T->getPointeeType() : T);
}

bool pathsDiverge(const FieldPath &A, const FieldPath &B) {
  for (size_t I = 0; I < A.size() && I < B.size(); ++I)
    if (A[I] != B[I])
      return true;
  return false;
}

std::string pathSpelling(const FieldPath &Path) {
  std::string Out;
  for (const FieldDecl *FD : Path)
    Out += (Out.empty() ? "" : ".") + FD->getNameAsString();
  return Out;
}

bool pathNameableIn(const FieldPath &Path, const FunctionDecl *F) {
  for (const FieldDecl *FD : Path)
    if (!FD->getIdentifier() || !memberNameableIn(FD, F))
      return false;
  return true;
}

} // namespace ferry
