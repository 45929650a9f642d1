#include "analyses/BufferObjects.h"

#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

static const Expr *stripBufferExpr(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    // std::move(x) and friends only change the value category.
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *F = Call->getDirectCallee();
          F && F->isInStdNamespace() && F->getIdentifier() &&
          Call->getNumArgs() == 1 &&
          (F->getName() == "move" || F->getName() == "ref" ||
           F->getName() == "as_const")) {
        E = Call->getArg(0);
        continue;
      }
    return E;
  }
}

ObjectTable::ObjectTable(const FunctionDecl *F) {
  for (const ParmVarDecl *P : F->parameters()) {
    QualType T = P->getType();
    if (T->isReferenceType() && isBufferType(T.getNonReferenceType())) {
      Entry[P] = {add(ObjectKind::Parameter, P->getNameAsString(), P,
                      bufferElementType(T.getNonReferenceType()))};
    } else if (T->isPointerType() && isBufferType(T->getPointeeType())) {
      Entry[P] = {add(ObjectKind::Parameter, "*" + P->getNameAsString(), P,
                      bufferElementType(T->getPointeeType()))};
    }
  }

  // Buffer members of parameters, and buffers the function creates.
  struct Finder : RecursiveASTVisitor<Finder> {
    ObjectTable &Table;
    explicit Finder(ObjectTable &Table) : Table(Table) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitMemberExpr(MemberExpr *ME) {
      if (!isBufferType(ME->getType()))
        return true;
      const auto *Base =
          dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
      const auto *P = Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
      if (!P)
        return true;
      auto Key = std::make_pair<const ValueDecl *, const ValueDecl *>(
          P, ME->getMemberDecl());
      if (!Table.Members.count(Key))
        Table.Members[Key] = Table.add(
            ObjectKind::ParameterMember,
            P->getNameAsString() + (ME->isArrow() ? "->" : ".") +
                ME->getMemberDecl()->getNameAsString(),
            ME->getMemberDecl(), bufferElementType(ME->getType()));
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (isa<ParmVarDecl>(V) || !isBufferType(V->getType()))
        return true;
      ObjectId Id = Table.add(ObjectKind::Local, V->getNameAsString(), V,
                              bufferElementType(V->getType()));
      Table.Locals[V] = Id;
      Table.Entry[V] = {Id};
      return true;
    }
  } Find(*this);
  if (F->hasBody())
    Find.TraverseStmt(F->getBody());

  // Caller-visible buffers of one element type may be one buffer.
  for (BufferObject &A : Objects)
    for (const BufferObject &B : Objects)
      if (A.Id != B.Id && A.callerVisible() && B.callerVisible() &&
          A.Element.getCanonicalType() == B.Element.getCanonicalType() &&
          !(A.Kind == ObjectKind::ParameterMember &&
            B.Kind == ObjectKind::ParameterMember))
        A.MayAlias.insert(B.Id);
}

ObjectId ObjectTable::add(ObjectKind Kind, std::string Spelling,
                          const ValueDecl *D, QualType Element) {
  BufferObject O;
  O.Id = static_cast<ObjectId>(Objects.size());
  O.Kind = Kind;
  O.Spelling = std::move(Spelling);
  O.Decl = D;
  O.Element = Element;
  Objects.push_back(O);
  return O.Id;
}

const BufferObject *ObjectTable::localFor(const VarDecl *V) const {
  auto It = Locals.find(V);
  return It == Locals.end() ? nullptr : &Objects[It->second];
}

ObjectRefs ObjectTable::anyOfType(QualType Element) const {
  ObjectRefs R;
  R.Exact = false;
  for (const BufferObject &O : Objects)
    if (Element.isNull() ||
        O.Element.getCanonicalType() == Element.getCanonicalType())
      R.Ids.insert(O.Id);
  return R;
}

std::set<ObjectId>
ObjectTable::withAliases(const std::set<ObjectId> &Ids) const {
  std::set<ObjectId> All = Ids;
  for (ObjectId Id : Ids)
    All.insert(Objects[Id].MayAlias.begin(), Objects[Id].MayAlias.end());
  return All;
}

static ObjectRefs unite(ObjectRefs A, const ObjectRefs &B) {
  A.Ids.insert(B.Ids.begin(), B.Ids.end());
  A.Exact = A.Exact && B.Exact;
  return A;
}

ObjectRefs ObjectTable::resolve(const Expr *E, const PointsTo &Facts) const {
  E = stripBufferExpr(E);
  QualType T = E->getType();
  bool IsPointer = T->isPointerType();
  QualType Element = bufferElementType(IsPointer ? T->getPointeeType() : T);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    auto It = Facts.find(DRE->getDecl());
    if (It == Facts.end())
      return anyOfType(Element);
    ObjectRefs R;
    R.Ids = It->second;
    return R;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
      return resolve(UO->getSubExpr(), Facts);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    if (Base) {
      auto It = Members.find({Base->getDecl(), ME->getMemberDecl()});
      if (It != Members.end()) {
        ObjectRefs R;
        R.Ids = {It->second};
        return R;
      }
    }
    return anyOfType(Element);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return unite(resolve(CO->getTrueExpr(), Facts),
                 resolve(CO->getFalseExpr(), Facts));
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return {};
  return anyOfType(Element);
}

/// The buffer a raw element pointer is taken from: `b.data()`, `b.begin()`,
/// `&b[i]`, with pointer arithmetic on top.
const Expr *rawPointerSource(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (isBufferType(MC->getImplicitObjectArgument()->getType()))
      return MC->getImplicitObjectArgument();
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp())
    return rawPointerSource(BO->getLHS()->getType()->isPointerType()
                                ? BO->getLHS()
                                : BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return rawPointerSource(UO->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Subscript &&
        isBufferType(Op->getArg(0)->getType()))
      return Op->getArg(0);
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
    return rawPointerSource(ME->getBase());
  return nullptr;
}

namespace {
class AliasWalker {
public:
  AliasWalker(const ObjectTable &Table, PointsTo &Facts)
      : Table(Table), Facts(Facts) {}

  void walk(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
                isa<CXXForRangeStmt>(S);
    if (Loop) {
      // Two passes joined with the state before: enough for the swaps and
      // reassignments a dispatch-free loop makes.
      PointsTo Before = Facts;
      for (int Pass = 0; Pass < 2; ++Pass)
        walkChildren(S);
      for (auto &[D, Ids] : Before)
        Facts[D].insert(Ids.begin(), Ids.end());
      return;
    }
    walkChildren(S);
    apply(S);
  }

private:
  void walkChildren(const Stmt *S) {
    for (const Stmt *Child : S->children())
      walk(Child);
  }

  void bind(const ValueDecl *D, const Expr *Init) {
    QualType T = D->getType();
    if (T->isReferenceType() && isBufferType(T.getNonReferenceType())) {
      Facts[D] = Table.resolve(Init, Facts).Ids;
    } else if (T->isPointerType() && isBufferType(T->getPointeeType())) {
      Facts[D] = Table.resolve(Init, Facts).Ids;
    } else if (T->isPointerType() || T->isReferenceType() ||
               T->getAsCXXRecordDecl()) {
      // Raw element pointers and iterators keep the buffer they came from.
      if (const Expr *Source = rawPointerSource(Init))
        Facts[D] = Table.resolve(Source, Facts).Ids;
      else if (const auto *DRE =
                   dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts());
               DRE && Facts.count(DRE->getDecl()) &&
               !isBufferType(DRE->getDecl()->getType()))
        Facts[D] = Facts[DRE->getDecl()];
    }
  }

  void apply(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit() &&
                                                  !isBufferType(V->getType()))
          bind(V, V->getInit());
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (DRE->getType()->isPointerType())
          bind(DRE->getDecl(), BO->getRHS());
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (F && F->isInStdNamespace() && F->getIdentifier() &&
          F->getName() == "swap" &&
          Call->getNumArgs() == 2) {
        const auto *A = dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts());
        const auto *B = dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
        if (A && B && A->getType()->isPointerType() &&
            B->getType()->isPointerType())
          std::swap(Facts[A->getDecl()], Facts[B->getDecl()]);
      }
    }
  }

  const ObjectTable &Table;
  PointsTo &Facts;
};
} // namespace

void applyAliasing(const Stmt *S, const ObjectTable &Table, PointsTo &Facts) {
  AliasWalker(Table, Facts).walk(S);
}

} // namespace ferry
