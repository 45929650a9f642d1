#include "analyses/paths/ObjectTable.h"

#include "analyses/paths/ElementSteps.h"
#include "analyses/paths/StaticRoots.h"
#include "analyses/paths/MemberSteps.h"
#include "model/FerryTypes.h"
#include "model/StableOrder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <functional>

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

ObjectTable::ObjectTable(const FunctionDecl *F,
                         const std::set<const VarDecl *> &Reached)
    : Function(F) {
  ASTContext &Ctx = F->getASTContext();
  for (const ParmVarDecl *P : F->parameters()) {
    QualType T = P->getType();
    if (T->isReferenceType() && isBufferType(T.getNonReferenceType())) {
      Entry[P] = {add(ObjectKind::Parameter, P->getNameAsString(), P,
                      bufferElementType(T.getNonReferenceType()))};
    } else if (T->isPointerType() && isBufferType(T->getPointeeType())) {
      Entry[P] = {add(ObjectKind::Parameter, "*" + P->getNameAsString(), P,
                      bufferElementType(T->getPointeeType()))};
    } else if (const auto *Array = Ctx.getAsConstantArrayType(
                   P->getOriginalType());
               Array && isBufferPointerArray(P->getOriginalType())) {
      // `Buffer<T> *grid[2]` (Rodinia's `cl_mem MatrixTemp[2]`): one object
      // per element the caller passes, `*grid[0]`, `*grid[1]`.
      QualType Element = bufferElementType(
          Array->getElementType()->getPointeeType());
      for (uint64_t I = 0; I < Array->getSize().getZExtValue(); ++I)
        Entry[P].insert(add(ObjectKind::Parameter,
                            "*" + P->getNameAsString() + "[" +
                                std::to_string(I) + "]",
                            P, Element));
    }
  }

  // A lambda given to Accelerator::compute reaches the buffers it captures
  // as a compute function reaches its parameters, under the same names.
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda())
    for (const LambdaCapture &C : M->getParent()->captures()) {
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V)
        continue;
      QualType T = V->getType();
      if (isBufferType(T.getNonReferenceType()))
        Entry[V] = {add(ObjectKind::Parameter, V->getNameAsString(), V,
                        bufferElementType(T.getNonReferenceType()))};
      else if (T->isPointerType() && isBufferType(T->getPointeeType()))
        Entry[V] = {add(ObjectKind::Parameter, "*" + V->getNameAsString(), V,
                        bufferElementType(T->getPointeeType()))};
    }

  // Buffer members of parameters, buffers the function creates, and the
  // global buffers it names.
  struct Finder : RecursiveASTVisitor<Finder> {
    ObjectTable &Table;
    std::set<const VarDecl *> Globals;
    explicit Finder(ObjectTable &Table) : Table(Table) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      container(V);
      if (isGlobalBufferVariable(V) || isGlobalBufferHolder(V))
        Globals.insert(V);
      // A variable of the function around a lambda that the lambda names
      // without capturing it: a static local buffer, or a reference to a
      // buffer that a constant initialises (`Buffer<T> &r = s` with s
      // static).
      else if (V && !isa<ParmVarDecl>(V) &&
               V->getParentFunctionOrMethod() != Table.Function &&
               !Table.Entry.count(V) && refersToBuffer(V->getType())) {
        QualType T = V->getType().getNonReferenceType();
        bool Pointer = T->isPointerType();
        ObjectId Id = Table.add(ObjectKind::Parameter,
                                (Pointer ? "*" : "") + V->getNameAsString(), V,
                                bufferElementType(Pointer ? T->getPointeeType() : T));
        Table.Objects[Id].StaticStorage = V->isStaticLocal();
        Table.Entry[V] = {Id};
      }
      return true;
    }
    /// Inner links of a path already taken whole (`this->grid_` in
    /// `this->grid_.cur`): the visitor meets the outer member first.
    std::set<const MemberExpr *> Inner;
    bool VisitMemberExpr(MemberExpr *ME) {
      // `g.grid` (a buffer member, or a Buffer<T>& one), `this->grid_.cur`
      // at any depth, and `*s.x` of a Buffer<T>* member: the member pointer
      // names the object `*s.x`. A container of buffers held as a member
      // (`this->layers_`) is one object for its elements.
      if (Inner.count(ME))
        return true;
      FieldPath Path;
      const Expr *Root = memberPathRoot(ME, Path);
      if (!Root)
        return true;
      pathLinks(ME, Inner);
      if (isNestedBufferField(Path.back())) {
        // The member whole (`sweep(cc, grid_)`): each buffer it holds.
        std::vector<FieldPath> Leaves;
        bufferLeaves(Path, Leaves);
        for (const FieldPath &Leaf : Leaves)
          objectMember(Root, Leaf);
        return true;
      }
      objectMember(Root, Path);
      return true;
    }
    /// A buffer member of `*this` (`state_`, `this->state_`) or of an
    /// object variable other than a parameter (`sim.state_`): one the
    /// function creates, or one a planned lambda captures. The object's
    /// members are fixed for the call, so each is an object of its own.
    /// A container of buffers the function names (`std::vector<Buffer<T>>
    /// &levels`, a local one, one a lambda captures): one object for all
    /// its elements. A local reference to one is followed to what it is
    /// bound to (ElementSteps.cpp), a global one is not an object.
    void container(const VarDecl *V) {
      if (!V || V->hasGlobalStorage() || Table.ByPath.count({V, {}}))
        return;
      QualType T = V->getType().getNonReferenceType();
      bool Pointer = T->isPointerType();
      QualType Element =
          containerElementType((Pointer ? T->getPointeeType() : T)
                                   .getUnqualifiedType());
      if (Element.isNull())
        return;
      ObjectKind Kind = ObjectKind::Parameter;
      if (!isa<ParmVarDecl>(V) &&
          V->getParentFunctionOrMethod() == Table.Function) {
        if (V->getType()->isReferenceType() || Pointer)
          return;
        Kind = ObjectKind::Local;
      }
      ObjectId Id = Table.add(Kind, (Pointer ? "*" : "") + V->getNameAsString(),
                              V, Element);
      Table.Objects[Id].Elements = true;
      Table.ByPath[{V, {}}] = Id;
    }
    /// No object for a path this function may not spell (`body.a_`,
    /// private, handed whole from main): a line naming it would not
    /// compile, so it is a buffer the run-time safety net covers.
    void objectMember(const Expr *Root, const FieldPath &Path) {
      if (Path.empty() || (!isBufferField(Path.back()) &&
                           !isBufferContainerField(Path.back())) ||
          !pathNameableIn(Path, Table.Function))
        return;
      if (isThisObject(Root)) {
        Table.memberObject(Table.Function, Path, ObjectKind::ParameterMember,
                           "this->");
        return;
      }
      const auto *Ref = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
      if (const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr)
        variableMember(V, Path);
    }
    void variableMember(const VarDecl *V, const FieldPath &Path) {
      QualType T = V->getType();
      std::string Prefix = V->getNameAsString() +
                           (T->isPointerType() ? "->" : ".");
      if (isa<ParmVarDecl>(V)) {
        Table.memberObject(V, Path, ObjectKind::ParameterMember, Prefix);
        return;
      }
      if (!V->hasLocalStorage() || T->isReferenceType() ||
          T->isPointerType())
        return; // a global holder is a static root's (StaticRoots)
      if (V->getParentFunctionOrMethod() == Table.Function)
        Table.memberObject(V, Path, ObjectKind::Local, Prefix);
      else // captured by the lambda this table is for
        Table.memberObject(V, Path, ObjectKind::ParameterMember, Prefix);
    }
    /// `step(cc)` on `this`, `sim.step(cc)`: the buffer members the method
    /// reaches are objects here too, for the call changes them. Not a
    /// member this function may not name (`b0.pos_`, private, from main):
    /// a line naming it would not compile, so it is a buffer Ferry cannot
    /// name, which the run-time safety net covers.
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      return memberCall(Call);
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
      return memberCall(Call); // `grid += x`, a member operator
    }
    bool memberCall(CallExpr *Call) {
      MemberCallTarget Target;
      if (!memberCallTarget(Call, Target) ||
          (!Target.OnThis && !Target.Variable))
        return true;
      for (const FieldPath &Path :
           bufferPathsReached(Target.Method, Target.Virtual)) {
        // Buffers no path spells, and paths this function may not spell
        // (a private member of a member, a base class's private member),
        // are guesses.
        if (isOpaquePath(Path) || !pathNameableIn(Path, Table.Function))
          continue;
        if (Target.OnThis)
          Table.memberObject(Table.Function, Path,
                             ObjectKind::ParameterMember, "this->");
        else if (const auto *V = dyn_cast<VarDecl>(Target.Variable))
          variableMember(V, Path);
      }
      return true;
    }
    /// An object handed whole to a call (`sweep(cc, grid_)`, `step(cc, &g)`):
    /// each buffer a path spells in it is an object here, so that the call's
    /// effects on them are named, not guessed.
    bool VisitCallExpr(CallExpr *Call) {
      for (const Expr *Arg : Call->arguments()) {
        const Expr *E = Arg->IgnoreParenImpCasts();
        if (const auto *UO = dyn_cast<UnaryOperator>(E);
            UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
          E = UO->getSubExpr()->IgnoreParenImpCasts();
        QualType T = E->getType().getNonReferenceType();
        if (T->isPointerType())
          T = T->getPointeeType();
        const auto *RD = T->getAsCXXRecordDecl();
        if (!RD || isBufferType(T) || RD->isInStdNamespace())
          continue;
        const Expr *Root = E;
        FieldPath Prefix;
        if (const auto *ME = dyn_cast<MemberExpr>(E)) {
          const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
          if (!FD || !isNestedBufferField(FD))
            continue;
          Root = memberPathRoot(ME, Prefix);
        } else if (!isa<DeclRefExpr>(E) && !isThisObject(E)) {
          continue;
        }
        for (const FieldPath &Below : bufferPathsOf(RD)) {
          // A reference or pointer member is whatever it was bound to
          // (`Pair pair{a, c}`): no object of its own.
          if (isOpaquePath(Below) || !isBufferType(Below.back()->getType()))
            continue;
          FieldPath Path = Prefix;
          Path.insert(Path.end(), Below.begin(), Below.end());
          objectMember(Root, Path);
        }
      }
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (isa<ParmVarDecl>(V) || !isBufferType(V->getType()))
        return true;
      // A static local outlives the call: the next compute reads what
      // this one left, so its caller sees it like a parameter.
      ObjectId Id = Table.add(V->isStaticLocal() ? ObjectKind::Parameter
                                                 : ObjectKind::Local,
                              V->getNameAsString(), V,
                              bufferElementType(V->getType()));
      Table.Objects[Id].StaticStorage = V->isStaticLocal();
      Table.ByPath[{V, {}}] = Id;
      Table.Entry[V] = {Id};
      return true;
    }
  } Find(*this);
  if (F->hasBody())
    Find.TraverseStmt(F->getBody());
  Find.Globals.insert(Reached.begin(), Reached.end());
  // In source order, not the sets' pointer order: the objects' order is the
  // order of the transfers written for them, which must not change from one
  // run to the next.
  std::vector<const VarDecl *> InSourceOrder(Find.Globals.begin(),
                                             Find.Globals.end());
  stableSort(InSourceOrder, [](const VarDecl *A, const VarDecl *B) {
    return A->getBeginLoc().getRawEncoding() <
           B->getBeginLoc().getRawEncoding();
  });
  for (const VarDecl *V : InSourceOrder) {
    std::string Name = globalSpelling(V, F);
    if (isGlobalBufferHolder(V)) {
      // `model.w`: each buffer member an object, the access path {w} from
      // the root `model` (the rest of what the holder reaches is any
      // buffer, to calls that reach it).
      bool All = false;
      for (const FieldDecl *FD : namedBufferFields(V, All))
        Objects[memberObject(V, FieldPath{FD}, ObjectKind::ParameterMember,
                             Name + ".")]
            .StaticStorage = true;
      continue;
    }
    QualType T = V->getType().getNonReferenceType();
    bool Pointer = T->isPointerType();
    ObjectId Id = add(ObjectKind::Parameter, (Pointer ? "*" : "") + Name, V,
                      bufferElementType(Pointer ? T->getPointeeType() : T));
    Objects[Id].StaticStorage = true;
    Entry[V] = {Id};
  }

  // Caller-visible buffers of one element type may be one buffer (the
  // caller may pass one buffer twice: run(cc, a, a)), except two members of
  // one parameter held by value (g.cur and g.next are two objects; members
  // held by reference or pointer, Pair{a, a}, may be one). What the
  // function creates is distinct from everything else.
  auto ByValue = [](const BufferObject &O) {
    return O.Kind == ObjectKind::ParameterMember && O.Decl &&
           isBufferType(O.Decl->getType());
  };
  // Two buffer variables, not references or pointers (captured by a lambda,
  // global, static), are two buffers.
  auto CapturedBuffer = [](const BufferObject &O) {
    return O.Kind == ObjectKind::Parameter && O.Decl &&
           !isa<ParmVarDecl>(O.Decl) && isBufferType(O.Decl->getType());
  };
  for (BufferObject &A : Objects)
    for (const BufferObject &B : Objects)
      if (A.Id != B.Id && A.callerVisible() && B.callerVisible() &&
          A.Element.getCanonicalType() == B.Element.getCanonicalType() &&
          !(ByValue(A) && ByValue(B) && A.Base == B.Base) &&
          !(CapturedBuffer(A) && CapturedBuffer(B)))
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
  auto It = ByPath.find({V, {}});
  return It == ByPath.end() || Objects[It->second].Elements
             ? nullptr
             : &Objects[It->second];
}

ObjectId ObjectTable::memberObject(const ValueDecl *Base, const FieldPath &Path,
                                   ObjectKind Kind, const std::string &Prefix) {
  PathKey Key{Base, Path};
  if (auto It = ByPath.find(Key); It != ByPath.end())
    return It->second;
  const FieldDecl *FD = Path.back();
  QualType T = FD->getType().getNonReferenceType();
  bool Pointer = T->isPointerType();
  QualType Element = containerElementType(T.getUnqualifiedType());
  bool Elements = !Element.isNull();
  if (!Elements)
    Element = bufferElementType(Pointer ? T->getPointeeType() : T);
  ObjectId Id =
      add(Kind, (Pointer ? "*" : "") + Prefix + pathSpelling(Path), FD, Element);
  Objects[Id].Base = Base;
  Objects[Id].Path = Path;
  Objects[Id].Elements = Elements;
  ByPath[Key] = Id;
  return Id;
}

const BufferObject *ObjectTable::containerFor(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    auto It = ByPath.find({Ref->getDecl(), {}});
    if (It != ByPath.end() && Objects[It->second].Elements)
      return &Objects[It->second];
    // A local reference bound to a container names what it is bound to.
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (V && V->getType()->isReferenceType() && !isa<ParmVarDecl>(V) &&
        V->getInit() && !V->hasGlobalStorage())
      return containerFor(V->getInit());
    return nullptr;
  }
  const ValueDecl *Base = nullptr;
  FieldPath Path;
  if (memberKey(E, Base, Path))
    if (auto It = ByPath.find({Base, Path});
        It != ByPath.end() && Objects[It->second].Elements)
      return &Objects[It->second];
  return nullptr;
}

const BufferObject *ObjectTable::containerLocal(const VarDecl *V) const {
  auto It = ByPath.find({V, {}});
  if (It == ByPath.end() || !Objects[It->second].Elements ||
      Objects[It->second].Kind != ObjectKind::Local)
    return nullptr;
  return &Objects[It->second];
}

const BufferObject *ObjectTable::memberFor(const ValueDecl *Base,
                                           const FieldPath &Path) const {
  if (Path.empty())
    return nullptr; // (a variable's own object is localFor's)
  auto It = ByPath.find({Base, Path});
  return It == ByPath.end() ? nullptr : &Objects[It->second];
}

std::vector<ObjectId> ObjectTable::membersOfLocal(const VarDecl *V) const {
  std::vector<ObjectId> Ids;
  for (const BufferObject &O : Objects)
    if (O.Kind == ObjectKind::Local && O.Base == V)
      Ids.push_back(O.Id);
  return Ids;
}

const ValueDecl *ObjectTable::memberBase(const Expr *Root) const {
  if (isThisObject(Root))
    return Function;
  const auto *Ref = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
  return Ref ? Ref->getDecl() : nullptr;
}

bool ObjectTable::memberKey(const Expr *E, const ValueDecl *&Base,
                            FieldPath &Path) const {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  const Expr *Root = ME ? memberPathRoot(ME, Path) : nullptr;
  Base = Root ? memberBase(Root) : nullptr;
  return Base != nullptr;
}

ObjectRefs ObjectTable::anyOfType(QualType Element) const {
  ObjectRefs R;
  R.Exact = false;
  R.Guessed = true;
  R.Element = Element;
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

std::vector<ObjectRefs>
ObjectTable::membersOf(const Expr *E, const PointsTo &Facts,
                       std::vector<FieldPath> *Paths) const {
  std::vector<ObjectRefs> Out;
  QualType T = E->getType().getNonReferenceType();
  const Expr *Named = E->IgnoreParenImpCasts();
  if (T->isPointerType()) {
    T = T->getPointeeType();
    if (const auto *UO = dyn_cast<UnaryOperator>(Named);
        UO && UO->getOpcode() == UO_AddrOf)
      Named = UO->getSubExpr()->IgnoreParenImpCasts();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(Named);
             UO && UO->getOpcode() == UO_Deref) {
    Named = UO->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || isBufferType(T))
    return Out;
  // Where the object sits: a variable (`g`), `*this`, or a member held by
  // value below one (`this->grid_`), whose paths then start with its own.
  const ValueDecl *Base = nullptr;
  FieldPath Prefix;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Named))
    Base = DRE->getDecl();
  else if (isThisObject(Named))
    Base = Function;
  else if (!memberKey(Named, Base, Prefix) || !isNestedBufferField(Prefix.back()))
    Base = nullptr;
  for (const FieldPath &Below : bufferPathsOf(RD)) {
    if (Paths)
      Paths->push_back(Below);
    FieldPath Path = Prefix;
    Path.insert(Path.end(), Below.begin(), Below.end());
    const BufferObject *O =
        Base && !isOpaquePath(Path) ? memberFor(Base, Path) : nullptr;
    ObjectRefs R;
    if (O) {
      R.Ids = {O->Id};
      R.Exact = !O->Elements; // a container: any of its buffers
    } else {
      // One no object stands for, or buffers no path spells: a guess.
      R = anyOfType(pathElement(Below));
    }
    Out.push_back(R);
  }
  return Out;
}

static ObjectRefs unite(ObjectRefs A, const ObjectRefs &B) {
  A.Ids.insert(B.Ids.begin(), B.Ids.end());
  A.Exact = A.Exact && B.Exact;
  // A guess of two element types is a guess of any.
  if (A.Guessed && B.Guessed &&
      A.Element.getCanonicalType() != B.Element.getCanonicalType())
    A.Element = clang::QualType();
  else if (!A.Guessed)
    A.Element = B.Element;
  A.Guessed = A.Guessed || B.Guessed;
  return A;
}

std::set<ObjectId> pointsToSet(const ObjectRefs &R) {
  std::set<ObjectId> Set = R.Ids;
  if (R.Guessed)
    Set.insert(UnnamedObject);
  return Set;
}

ObjectRefs pointsToObjects(const std::set<ObjectId> &Set, QualType Element) {
  ObjectRefs R;
  R.Ids = Set;
  if (R.Ids.erase(UnnamedObject)) {
    R.Exact = false;
    R.Guessed = true;
    R.Element = Element;
  }
  return R;
}

ObjectRefs ObjectTable::resolve(const Expr *E, const PointsTo &Facts) const {
  E = stripBufferExpr(E);
  QualType T = E->getType();
  bool IsPointer = T->isPointerType();
  QualType Element = bufferElementType(IsPointer ? T->getPointeeType() : T);
  // What a name may denote, or anything of the type where nothing is known.
  auto Named = [&](const ValueDecl *D) {
    auto It = Facts.find(D);
    if (It == Facts.end())
      return anyOfType(Element);
    ObjectRefs R = pointsToObjects(It->second, Element);
    // A reference bound to a container's element may be any of them.
    for (ObjectId Id : R.Ids)
      if (Objects[Id].Elements)
        R.Exact = false;
    return R;
  };
  // `levels[l]`, `levels.at(l)`, `levels.front()`, a range-for's element:
  // one of the container's buffers, which only the run knows.
  if (const Expr *Container = elementContainer(E))
    if (const BufferObject *O = containerFor(Container)) {
      ObjectRefs R;
      R.Ids = {O->Id};
      R.Exact = false;
      return R;
    }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return Named(DRE->getDecl());
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
      return resolve(UO->getSubExpr(), Facts);
  }
  if (isa<MemberExpr>(E)) {
    const ValueDecl *Base = nullptr;
    FieldPath Path;
    if (memberKey(E, Base, Path))
      if (auto It = ByPath.find({Base, Path}); It != ByPath.end()) {
        ObjectRefs R;
        R.Ids = {It->second};
        return R;
      }
    return anyOfType(Element);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return unite(resolve(CO->getTrueExpr(), Facts),
                 resolve(CO->getFalseExpr(), Facts));
  // `grid[src]` of `Buffer<T> *grid[2] = {&a, &b}`: any of its elements.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    if (const auto *Array =
            dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
        Array && namesBufferPointerArray(Array->getDecl()))
      return Named(Array->getDecl());
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return {};
  return anyOfType(Element);
}

bool isBufferPointerArray(QualType T) {
  const auto *Array = T->getAsArrayTypeUnsafe();
  return Array && Array->getElementType()->isPointerType() &&
         isBufferType(Array->getElementType()->getPointeeType());
}

bool namesBufferPointerArray(const ValueDecl *D) {
  if (isBufferPointerArray(D->getType()))
    return true;
  const auto *P = dyn_cast<ParmVarDecl>(D);
  return P && isBufferPointerArray(P->getOriginalType());
}

/// The buffer a raw element pointer is taken from: `b.data()`, `b.begin()`,
/// `&b[i]`, with pointer arithmetic on top.
const Expr *rawPointerSource(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (refersToBuffer(MC->getImplicitObjectArgument()->getType()))
      return MC->getImplicitObjectArgument(); // b.data(), p->data()
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

void joinFacts(PointsTo &A, const PointsTo &B) {
  for (const auto &[D, Ids] : B)
    A[D].insert(Ids.begin(), Ids.end());
}

bool isBufferElementAccessor(const CXXMemberCallExpr *MC) {
  if (!MC || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier() ||
      !refersToBuffer(MC->getImplicitObjectArgument()->getType()))
    return false;
  llvm::StringRef N = MC->getMethodDecl()->getName();
  return N == "data" || N == "begin" || N == "end" || N == "cbegin" ||
         N == "cend";
}

/// For a standard algorithm returning an iterator: the argument whose range
/// it points into (std::find's first, std::copy's destination).
static int iteratorResultArgument(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->isInStdNamespace() || !F->getIdentifier() ||
      !Call->getType()->isPointerType() || Call->getNumArgs() == 0)
    return -1;
  llvm::StringRef N = F->getName();
  if (N == "copy" || N == "copy_if" || N == "copy_backward" || N == "move" ||
      N == "move_backward" || N == "reverse_copy" || N == "remove_copy" ||
      N == "remove_copy_if" || N == "replace_copy" || N == "replace_copy_if" ||
      N == "unique_copy" || N == "partial_sum" || N == "adjacent_difference" ||
      N == "exclusive_scan" || N == "inclusive_scan")
    return Call->getNumArgs() > 2 ? 2 : -1;
  if (N == "copy_n")
    return Call->getNumArgs() > 2 ? 2 : -1;
  if (N == "transform")
    return Call->getNumArgs() == 4 ? 2 : Call->getNumArgs() == 5 ? 3 : -1;
  if (N == "rotate_copy")
    return Call->getNumArgs() > 3 ? 3 : -1;
  return 0;
}

bool rawPointerTargets(const Expr *E, const ObjectTable &Table,
                       const PointsTo &Facts, std::set<ObjectId> &Out) {
  if (!E)
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && isBufferElementAccessor(MC)) {
    ObjectRefs R = Table.resolve(MC->getImplicitObjectArgument(), Facts);
    Out.insert(R.Ids.begin(), R.Ids.end());
    return true;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (Op->getOperator() == OO_Subscript &&
        isBufferType(Op->getArg(0)->getType())) {
      ObjectRefs R = Table.resolve(Op->getArg(0), Facts);
      Out.insert(R.Ids.begin(), R.Ids.end());
      return true;
    }
    return false;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (refersToBuffer(DRE->getDecl()->getType()))
      return false;
    auto It = Facts.find(DRE->getDecl());
    if (It == Facts.end() || It->second.empty())
      return false;
    Out.insert(It->second.begin(), It->second.end());
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAdditiveOp() && BO->getType()->isPointerType())
      return rawPointerTargets(BO->getLHS()->getType()->isPointerType()
                                   ? BO->getLHS()
                                   : BO->getRHS(),
                               Table, Facts, Out);
    if (BO->isAssignmentOp())
      return rawPointerTargets(BO->getLHS(), Table, Facts, Out);
    if (BO->isCommaOp())
      return rawPointerTargets(BO->getRHS(), Table, Facts, Out);
    return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref ||
        UO->isIncrementDecrementOp())
      return rawPointerTargets(UO->getSubExpr(), Table, Facts, Out);
    return false;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return rawPointerTargets(AS->getBase(), Table, Facts, Out);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (isa<FieldDecl>(ME->getMemberDecl()))
      return rawPointerTargets(ME->getBase(), Table, Facts, Out);
    return false;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    bool T = rawPointerTargets(CO->getTrueExpr(), Table, Facts, Out);
    bool F = rawPointerTargets(CO->getFalseExpr(), Table, Facts, Out);
    return T || F;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    int Arg = iteratorResultArgument(Call);
    if (Arg >= 0)
      return rawPointerTargets(Call->getArg(Arg), Table, Facts, Out);
  }
  return false;
}

namespace {
class AliasWalker {
public:
  AliasWalker(const ObjectTable &Table, PointsTo &Facts)
      : Table(Table), Facts(Facts) {}

  void walk(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      walk(If->getInit());
      if (If->getConditionVariableDeclStmt())
        walk(If->getConditionVariableDeclStmt());
      else
        walk(If->getCond());
      PointsTo Before = Facts;
      walk(If->getThen());
      PointsTo Then = Facts;
      Facts = Before;
      walk(If->getElse());
      joinFacts(Facts, Then);
      return;
    }
    if (isLoop(S)) {
      walkLoopInit(S);
      PointsTo AfterInit = Facts;
      Facts = head(S, AfterInit);
      Facts = once(S).Exit;
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      return walkSwitch(Switch);
    if (isa<BreakStmt>(S)) {
      if (!Jumps.empty())
        Jumps.back()->Breaks.push_back(Facts);
      return;
    }
    if (isa<ContinueStmt>(S)) {
      for (auto It = Jumps.rbegin(); It != Jumps.rend(); ++It)
        if (!(*It)->IsSwitch) {
          (*It)->Continues.push_back(Facts);
          break;
        }
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
      walk(CO->getCond());
      PointsTo Before = Facts;
      walk(CO->getTrueExpr());
      PointsTo True = Facts;
      Facts = Before;
      walk(CO->getFalseExpr());
      joinFacts(Facts, True);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
      walk(BO->getLHS());
      PointsTo Before = Facts;
      walk(BO->getRHS());
      joinFacts(Facts, Before);
      return;
    }
    for (const Stmt *Child : S->children())
      walk(Child);
    apply(S);
  }

  /// The fixpoint at a loop's head, entered with `AfterInit`.
  PointsTo head(const Stmt *Loop, const PointsTo &AfterInit) {
    PointsTo Head = AfterInit;
    for (int Round = 0; Round < 32; ++Round) {
      Facts = Head;
      PointsTo Next = AfterInit;
      joinFacts(Next, once(Loop).Back);
      if (Next == Head)
        break;
      Head = std::move(Next);
    }
    return Head;
  }

  void walkLoopInit(const Stmt *S) {
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      walk(For->getInit());
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      walk(RF->getInit());
      walk(RF->getRangeStmt());
      walk(RF->getBeginStmt());
      walk(RF->getEndStmt());
    }
  }

  static bool isLoop(const Stmt *S) {
    return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
           isa<CXXForRangeStmt>(S);
  }

private:
  struct Targets {
    bool IsSwitch = false;
    std::vector<PointsTo> Breaks, Continues;
  };
  struct Trip {
    PointsTo Back, Exit;
  };

  /// One trip around a loop from the current facts (its head).
  Trip once(const Stmt *L) {
    Targets T;
    Jumps.push_back(&T);
    Trip R;
    auto Continue = [&] {
      for (const PointsTo &C : T.Continues)
        joinFacts(Facts, C);
      T.Continues.clear();
    };
    if (const auto *For = dyn_cast<ForStmt>(L)) {
      if (For->getConditionVariableDeclStmt())
        walk(For->getConditionVariableDeclStmt());
      walk(For->getCond());
      R.Exit = Facts;
      walk(For->getBody());
      Continue();
      walk(For->getInc());
    } else if (const auto *W = dyn_cast<WhileStmt>(L)) {
      if (W->getConditionVariableDeclStmt())
        walk(W->getConditionVariableDeclStmt());
      else
        walk(W->getCond());
      R.Exit = Facts;
      walk(W->getBody());
      Continue();
    } else if (const auto *Do = dyn_cast<DoStmt>(L)) {
      walk(Do->getBody());
      Continue();
      walk(Do->getCond());
      R.Exit = Facts;
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      R.Exit = Facts;
      walk(RF->getLoopVarStmt());
      walk(RF->getBody());
      Continue();
    }
    R.Back = Facts;
    for (const PointsTo &B : T.Breaks)
      joinFacts(R.Exit, B);
    Jumps.pop_back();
    return R;
  }

  void walkSwitch(const SwitchStmt *Switch) {
    walk(Switch->getInit());
    if (Switch->getConditionVariableDeclStmt())
      walk(Switch->getConditionVariableDeclStmt());
    else
      walk(Switch->getCond());
    PointsTo Before = Facts;
    Targets T;
    T.IsSwitch = true;
    Jumps.push_back(&T);
    bool HasDefault = false;
    std::function<void(const Stmt *)> Body = [&](const Stmt *S) {
      // Each label is entered from the switch, or falls through.
      while (const auto *SC = dyn_cast_or_null<SwitchCase>(S)) {
        joinFacts(Facts, Before);
        HasDefault |= isa<DefaultStmt>(SC);
        S = SC->getSubStmt();
      }
      walk(S);
    };
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Switch->getBody()))
      for (const Stmt *Child : CS->body())
        Body(Child);
    else
      Body(Switch->getBody());
    Jumps.pop_back();
    for (const PointsTo &B : T.Breaks)
      joinFacts(Facts, B);
    if (!HasDefault)
      joinFacts(Facts, Before);
  }

  void bind(const ValueDecl *D, const Expr *Init) {
    QualType T = D->getType();
    if (isBufferPointerArray(T)) {
      // An array of buffer pointers is one name for all its elements.
      Facts[D].clear();
      if (const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit()))
        for (const Expr *Element : List->inits()) {
          std::set<ObjectId> R = pointsToSet(Table.resolve(Element, Facts));
          Facts[D].insert(R.begin(), R.end());
        }
      return;
    }
    if (refersToBuffer(T) && !isBufferType(T)) {
      // `Buffer<T> &r = …` and `Buffer<T> *p = …`: the objects it may name.
      Facts[D] = pointsToSet(Table.resolve(Init, Facts));
    } else if (T->isPointerType() || T->isReferenceType() ||
               T->getAsCXXRecordDecl()) {
      // Raw element pointers, references and iterators keep the buffers
      // they came from; a pointer set from anything else forgets them.
      std::set<ObjectId> Ids;
      if (rawPointerTargets(Init, Table, Facts, Ids))
        Facts[D] = Ids;
      else if (Facts.count(D))
        Facts[D].clear();
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
      const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
        if (DRE->getType()->isPointerType())
          bind(DRE->getDecl(), BO->getRHS());
      // `grid[i] = &c`: one element changes, so the array may name c too.
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
        if (const auto *Array =
                dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
            Array && namesBufferPointerArray(Array->getDecl())) {
          std::set<ObjectId> R = pointsToSet(Table.resolve(BO->getRHS(), Facts));
          Facts[Array->getDecl()].insert(R.begin(), R.end());
        }
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (F && F->isInStdNamespace() && F->getIdentifier() &&
          F->getName() == "swap" && Call->getNumArgs() == 2) {
        const auto *A =
            dyn_cast<DeclRefExpr>(Call->getArg(0)->IgnoreParenImpCasts());
        const auto *B =
            dyn_cast<DeclRefExpr>(Call->getArg(1)->IgnoreParenImpCasts());
        if (A && B && A->getType()->isPointerType() &&
            B->getType()->isPointerType())
          std::swap(Facts[A->getDecl()], Facts[B->getDecl()]);
        return;
      }
      // A buffer pointer handed to a function by non-const reference (or its
      // address) may come back pointing to any buffer of its type
      // (`flip(p, q)` swapping them inside).
      const auto *Proto =
          Call->getCallee()->getType()->getPointeeOrArrayElementType()
              ->getAs<FunctionProtoType>();
      if (!Proto)
        Proto = Call->getCallee()->getType()->getAs<FunctionProtoType>();
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
        bool ByAddress = false;
        if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
            UO && UO->getOpcode() == UO_AddrOf) {
          Arg = UO->getSubExpr()->IgnoreParenImpCasts();
          ByAddress = true;
        }
        const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
        if (!Ref || !(pointsToBuffers(Ref->getType()) ||
                      namesBufferPointerArray(Ref->getDecl())))
          continue;
        // An array of buffer pointers is passed as its address: the callee
        // may store into its elements.
        if (namesBufferPointerArray(Ref->getDecl()))
          ByAddress = true;
        bool ByMutableRef = false;
        if (Proto && I < Proto->getNumParams()) {
          QualType PT = Proto->getParamType(I);
          ByMutableRef = PT->isReferenceType() &&
                         !PT.getNonReferenceType().isConstQualified();
        } else if (!Proto) {
          ByMutableRef = true; // nothing known of the callee's parameters
        }
        if (ByAddress || ByMutableRef) {
          QualType T = Ref->getType();
          QualType Pointer =
              T->isArrayType() ? QualType(T->getPointeeOrArrayElementType(), 0)
              : T->getPointeeType()->isPointerType() ? T->getPointeeType()
                                                     : T;
          // Any buffer the callee can reach: those of the table (a buffer
          // no object stands for reaches it only through another name).
          Facts[Ref->getDecl()] =
              Table.anyBufferOf(bufferElementType(Pointer->getPointeeType()))
                  .Ids;
        }
      }
    }
  }

  /// `Buffer<T> *p` or `Buffer<T> *grid[N]`.
  static bool pointsToBuffers(QualType T) {
    return (T->isPointerType() && isBufferType(T->getPointeeType())) ||
           isBufferPointerArray(T);
  }

  const ObjectTable &Table;
  PointsTo &Facts;
  std::vector<Targets *> Jumps;
};
} // namespace

void applyAliasing(const Stmt *S, const ObjectTable &Table, PointsTo &Facts) {
  AliasWalker(Table, Facts).walk(S);
}

PointsTo loopHeadFacts(const Stmt *Loop, const ObjectTable &Table,
                       const PointsTo &Before) {
  PointsTo Facts = Before;
  AliasWalker W(Table, Facts);
  if (!AliasWalker::isLoop(Loop))
    return Before;
  return W.head(Loop, Before);
}

} // namespace ferry
