#include "analyses/lifetime/KeptBetweenComputes.h"

#include "analyses/paths/AccessPath.h"
#include "analyses/paths/ObjectTable.h"
#include "analyses/paths/MemberSteps.h"
#include "analyses/lifetime/ComputeSites.h"
#include "analyses/lifetime/ExitLiveness.h"
#include "analyses/lifetime/HiddenWriters.h"
#include "analyses/lifetime/LeftOnDeviceInLoops.h"
#include "analyses/lifetime/MadeFresh.h"
#include "analyses/host/HostEvents.h"
#include "model/FerryTypes.h"
#include "parse/Annotations.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cstdint>
#include <functional>

using namespace clang;

namespace ferry {

namespace {

// --- The flow over one function ---------------------------------------------

using Facts = std::uint8_t;
enum : Facts { Fresh = 1, Clean = 2, Dirty = 4, Escaped = 8 };

/// What one statement of the function (a root: a statement, a condition,
/// an initialiser) does to the buffers followed, by index.
struct RootEffect {
  /// A compute statement: every buffer is Clean after it.
  bool Compute = false;
  /// The site, when it is one the flow may keep buffers at.
  const ComputeSite *Site = nullptr;
  /// For such a site: the local buffers its lambda does not capture. The
  /// compute cannot reach them (one it could reach otherwise escaped), so
  /// the runtime leaves their state in an older epoch, which the next
  /// compute resets unless it keeps them: in effect they have no device
  /// copy (Fresh).
  std::set<unsigned> Untouched;
  /// Those of them that a line before the compute could keep on the device
  /// through it (declared before it, in a scope around it, at a site where
  /// the rewriter writes keeps): while the host leaves one alone, its state
  /// then carries through this compute to a later one that is handed it.
  std::set<unsigned> MayCarry;
  std::vector<std::pair<unsigned, bool>> Declared; ///< buffer, fresh
  std::set<unsigned> Written, Escapes;
  /// Read on the host (an escape, a swap or a move included).
  std::set<unsigned> Read;
  /// Given another buffer's contents (a swap, a move): whatever that one's
  /// device copy was, even where this one had none.
  std::set<unsigned> Replaced;
  bool WritesAll = false;
};

/// A compute statement's buffers: which it is handed, and how the plan
/// that starts it knows them.
struct Handed {
  std::vector<unsigned> Buffers;
  const FunctionDecl *Entry = nullptr;
  std::vector<const ValueDecl *> EntryDecls;
  const FunctionDecl *Callee = nullptr;
  std::vector<int> Params;
};

class FunctionFlow {
public:
  FunctionFlow(ASTContext &Ctx, const FunctionDecl *G,
               const std::vector<const ComputeSite *> &Sites,
               const std::set<const FunctionDecl *> &Planned,
               const std::set<const FunctionDecl *> &Entries,
               HostSummaryCache &Host, PointerHolders &Holders,
               PointerHolders &Readers,
               HiddenCode &Hidden, const LongLivedPlaces &Places)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), G(G), Planned(Planned),
        Entries(Entries), Host(Host), Holders(Holders), Readers(Readers),
        Hidden(Hidden),
        Places(Places), Table(G, Host.globals().of(G).Named) {
    for (const ComputeSite *S : Sites)
      SiteOf[S->Compute] = S;
  }

  std::vector<KeptAtCompute> run(std::vector<LeftOnDeviceInLoop> *Loops) {
    if (!followBuffers())
      return {};
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Cfg = CFG::buildCFG(G, G->getBody(), &Ctx, Options);
    if (!Cfg)
      return {};
    Parents = std::make_unique<ParentMap>(G->getBody());
    for (auto [Split, Original] : Cfg->synthetic_stmts())
      SplitDecls[Split] = Original;
    solve();
    std::vector<KeptAtCompute> Out = keeps();
    if (Loops)
      leftOnDeviceInLoops(*Loops);
    return Out;
  }

private:
  /// A local container of objects holding buffers, with the paths of the
  /// buffers inside one element and their element types.
  struct ContainerOfObjects {
    const VarDecl *Var;
    std::vector<FieldPath> Leaves;
    std::vector<QualType> Elements;
  };

  // The buffers followed: G's local buffers and buffer-reference
  // parameters, but those of an element type something else may write.
  bool followBuffers() {
    struct Tries : RecursiveASTVisitor<Tries> {
      bool Found = false;
      bool VisitCXXTryStmt(CXXTryStmt *) { return !(Found = true); }
    } Try;
    // Clang's CFG leads a handler's edge from the try's start, not from
    // the throw inside it: a write before the throw would not reach it.
    Try.TraverseStmt(G->getBody());
    if (Try.Found)
      return false;
    for (const ParmVarDecl *P : G->parameters())
      if (isFollowedParameter(P))
        addBuffer(P);
      else if (isObjectParameter(P))
        addObject(P);
      else if (isObjectPointerParameter(P))
        addObjectAt(P, P->getType()->getPointeeType()->getAsCXXRecordDecl());
    // A member function's object is its caller's, as an object parameter
    // is: its buffers are followed by their paths from `this`, keyed by G.
    // A const one's too: its computes may only read them, and what writes
    // them all the same (a `mutable` member, `const_cast`) is a host write
    // the table sees, by path or as a guess of its type.
    if (const auto *M = dyn_cast<CXXMethodDecl>(G);
        M && M->isInstance() && !isa<CXXConstructorDecl>(M) &&
        !isa<CXXDestructorDecl>(M) && !M->getParent()->isLambda())
      addObjectAt(G, M->getParent());
    struct Locals : RecursiveASTVisitor<Locals> {
      FunctionFlow *Self;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitVarDecl(VarDecl *V) {
        if (!V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
            V->getParentFunctionOrMethod() != Self->G)
          return true;
        if (isBufferType(V->getType()))
          Self->addBuffer(V);
        else {
          Self->addObject(V);
          Self->addContainer(V);
        }
        return true;
      }
    } Find;
    Find.Self = this;
    Find.TraverseStmt(G->getBody());
    return !Buffers.empty() || !Containers.empty();
  }

  /// A local container of objects that hold buffers by value at any depth
  /// (`std::vector<Body> bodies;`, `std::array<Body, 4>`, `Body bs[4]`):
  /// no path of G names one element's buffers, but a loop may leave all of
  /// them on the device, held as the bytes the elements occupy
  /// (ferry::buffersIn(bodies)). So every buffer of an element must be one
  /// a path spells, and no long-lived place may point into the elements.
  void addContainer(const VarDecl *V) {
    if (V->getType()->isReferenceType() || !V->hasLocalStorage())
      return;
    const CXXRecordDecl *RD = elementClassOf(V->getType());
    if (!RD || !RD->hasDefinition() || buffersBesideFields(RD))
      return;
    ContainerOfObjects C{V, bufferPathsOf(RD), {}};
    if (C.Leaves.empty())
      return;
    for (const FieldPath &P : C.Leaves) {
      QualType Elem = isOpaquePath(P) || !isBufferType(P.back()->getType())
                          ? QualType()
                          : bufferElementType(P.back()->getType());
      if (Elem.isNull() || !readableOnlyByName(V, Elem))
        return;
      C.Elements.push_back(Elem);
    }
    Containers.push_back(std::move(C));
  }

  /// The class of a container's elements whose storage is the container's
  /// own or one contiguous block: an array, std::array, std::vector.
  static const CXXRecordDecl *elementClassOf(QualType T) {
    T = T.getCanonicalType();
    QualType Element;
    if (const auto *A = dyn_cast<ConstantArrayType>(T.getTypePtr()))
      Element = A->getElementType();
    else if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                 T->getAsCXXRecordDecl());
             Spec && Spec->isInStdNamespace() && Spec->getIdentifier() &&
             (Spec->getName() == "vector" || Spec->getName() == "array") &&
             Spec->getTemplateArgs().size() > 0 &&
             Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      Element = Spec->getTemplateArgs()[0].getAsType();
    if (Element.isNull() || isBufferType(Element))
      return nullptr;
    return Element->getAsCXXRecordDecl();
  }

  static bool isFollowedParameter(const ParmVarDecl *P) {
    return P->getType()->isLValueReferenceType() &&
           isBufferType(P->getType().getNonReferenceType());
  }

  /// `Model &m`: an object the caller owns, whose buffers G may hand to
  /// computes by their paths (`m.u`). Followed as a buffer parameter is:
  /// written on entry, never carried.
  static bool isObjectParameter(const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isLValueReferenceType() &&
           !T.getNonReferenceType().isConstQualified() &&
           T.getNonReferenceType()->getAsCXXRecordDecl();
  }

  /// `Model *m`: followed as `Model &m` is (`m->u`), where G never makes
  /// it point elsewhere.
  bool isObjectPointerParameter(const ParmVarDecl *P) const {
    QualType T = P->getType();
    return T->isPointerType() && !T->getPointeeType().isConstQualified() &&
           T->getPointeeType()->getAsCXXRecordDecl() &&
           onlyReadIn(P, G->getBody());
  }

  /// Whether every use of V in Body (its lambdas included) reads its
  /// value: none assigns it, steps it, takes its address or binds a
  /// reference to it. (Clang's ExprMutationAnalyzer counts a lambda's
  /// capture by reference as a mutation, and every compute lambda `[&]`
  /// captures the pointer so.)
  static bool onlyReadIn(const ValueDecl *V, const Stmt *Body) {
    struct Uses : RecursiveASTVisitor<Uses> {
      const ValueDecl *V;
      std::unique_ptr<ParentMap> Parents;
      bool Changed = false;
      bool shouldVisitLambdaBodies() const { return true; }
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (R->getDecl() != V)
          return true;
        const Stmt *P = Parents->getParentIgnoreParens(R);
        const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Changed = !Cast || Cast->getCastKind() != CK_LValueToRValue;
        return !Changed;
      }
    } Find;
    if (!Body)
      return false;
    Find.V = V;
    Find.Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
    Find.TraverseStmt(const_cast<Stmt *>(Body));
    return !Find.Changed;
  }

  void addBuffer(const VarDecl *V) {
    QualType Elem = bufferElementType(V->getType().getNonReferenceType());
    if (Elem.isNull() || !writableOnlyByName(V, Elem))
      return;
    Index[V] = static_cast<unsigned>(Buffers.size());
    Buffers.push_back(V);
    Paths.emplace_back();
  }

  /// A local object holding buffers by value at any depth (`State st;` for
  /// `struct State { Buffer<float> u, v; }`): each buffer is followed on
  /// its own, by its path (`st.u`). An object with a buffer no path spells
  /// (behind a pointer or a reference member, in a container) is not, nor
  /// a buffer G may not name.
  void addObject(const VarDecl *V) {
    bool Parameter = isa<ParmVarDecl>(V);
    const auto *RD =
        V->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (V->getType()->isReferenceType() && !Parameter)
      return;
    addObjectAt(V, RD);
  }

  /// The buffers of an object of class RD that Root (a variable, or G for
  /// `this`) names, each by its path.
  void addObjectAt(const ValueDecl *V, const CXXRecordDecl *RD) {
    if (!RD || !RD->hasDefinition())
      return;
    std::vector<FieldPath> Leaves = bufferPathsOf(RD);
    for (const FieldPath &P : Leaves)
      if (isOpaquePath(P) || !isBufferType(P.back()->getType()))
        return;
    for (const FieldPath &P : Leaves) {
      QualType Elem = bufferElementType(P.back()->getType());
      if (Elem.isNull() || !writableOnlyByName(V, Elem))
        continue;
      unsigned B = static_cast<unsigned>(Buffers.size());
      // (A private member G may not spell: a keep naming it would not
      // compile, and the class's own code decides it, ComputeOnlyMembers.)
      if (!pathNameableIn(P, G))
        Unspelled.insert(B);
      LeavesOf[V].push_back(B);
      MemberIndex[{V, P}] = B;
      Buffers.push_back(V);
      Paths.push_back(P);
    }
    // (A buffer of the object not followed, or one no path spells, a base
    // class's among them: no scope may hold it whole, since
    // ferry::buffersIn holds every buffer in the object's bytes.)
    auto It = LeavesOf.find(V);
    if (It != LeavesOf.end() &&
        (It->second.size() != Leaves.size() || buffersBesideFields(RD)))
      PartlyFollowed.insert(V);
  }

  /// Whether an object of class RD may hold buffers by value that no path
  /// of its fields spells: in a base class, or in a member of a type that
  /// is neither a buffer nor a class (an array of buffers), at any depth.
  static bool buffersBesideFields(const CXXRecordDecl *RD, int Depth = 0) {
    if (!RD || !RD->hasDefinition() || Depth > 8)
      return true;
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (holdsBuffers(Base.getType()))
        return true;
    for (const FieldDecl *FD : RD->fields()) {
      QualType T = FD->getType();
      if (T->isReferenceType() || T->isPointerType() || isBufferType(T) ||
          !holdsBuffers(T))
        continue;
      const auto *Inner = T->getAsCXXRecordDecl();
      if (!Inner || buffersBesideFields(Inner, Depth + 1))
        return true;
    }
    return false;
  }

  /// The buffers followed that a name stands for: a buffer's, or every
  /// buffer of an object followed by its paths.
  std::vector<unsigned> indicesOf(const ValueDecl *D) const {
    if (auto It = Index.find(D); It != Index.end())
      return {It->second};
    if (auto It = LeavesOf.find(D); It != LeavesOf.end())
      return It->second;
    return {};
  }

  /// Whether nothing can write V's elements without naming V: no long-lived
  /// place can hold a pointer to them, no compute lambda of G is handed a
  /// variable that could, and, for a parameter, no other parameter could
  /// and no global buffer could be it.
  bool writableOnlyByName(const ValueDecl *V, QualType Elem) {
    return onlyByName(V, Elem, Holders);
  }

  /// What writableOnlyByName says, for reads too: no pointer, reference or
  /// iterator that may reach the elements, const or not, outlives a call.
  bool readableOnlyByName(const ValueDecl *V, QualType Elem) {
    return onlyByName(V, Elem, Readers);
  }

  bool onlyByName(const ValueDecl *V, QualType Elem, PointerHolders &Holders) {
    for (const ValueDecl *Place : Places.Places)
      if (Holders.holds(Place->getType(), Elem))
        return false;
    // The other Ferry sources' places, which this unit may not declare.
    if (Host.ElsewherePointers &&
        Host.ElsewherePointers(Elem, Holders.readOnlyToo()))
      return false;
    // (A buffer, or a reference to one, cannot be made to point elsewhere.)
    for (const auto &[Call, Site] : SiteOf)
      for (const LambdaCapture &C : Site->Lambda->captures())
        if (C.capturesVariable() && C.getCapturedVar() != V &&
            !isBufferType(
                C.getCapturedVar()->getType().getNonReferenceType()) &&
            !LeavesOf.count(C.getCapturedVar()) &&
            Holders.holds(C.getCapturedVar()->getType(), Elem))
          return false;
    if (isa<ParmVarDecl>(V) || V == G) {
      if (Places.GlobalBuffers ||
          (Host.ElsewhereGlobalBuffers && Host.ElsewhereGlobalBuffers()))
        return false;
      // (Another buffer parameter may be this one: the object table says
      // they may alias, and a write to one writes both.)
      // (An object parameter followed by its paths is the flow's too.)
      for (const ParmVarDecl *P : G->parameters())
        if (P != V && !isFollowedParameter(P) && !LeavesOf.count(P) &&
            Holders.holds(P->getType(), Elem))
          return false;
    }
    return true;
  }

  const Stmt *parent(const Stmt *S) const {
    if (auto It = SplitDecls.find(S); It != SplitDecls.end())
      return Parents->getParent(It->second);
    return Parents->getParent(S);
  }

  /// The statement of G a CFG element belongs to: the expression it is part
  /// of up to the statement, condition or initialiser that holds it.
  const Stmt *rootOf(const Stmt *S) const {
    if (auto It = SplitDecls.find(S); It != SplitDecls.end())
      S = It->second;
    for (const Stmt *P = parent(S); P && isa<Expr>(P); P = parent(S))
      S = P;
    // An initialiser: its declaration.
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(parent(S)))
      S = DS;
    // A range-for's hidden pieces (`auto &&__range = r`, its begin, end,
    // test and increment, the element variable) are its header.
    if (const auto *RF = dyn_cast_or_null<CXXForRangeStmt>(parent(S));
        RF && S != RF->getBody() && S != RF->getInit())
      return RF;
    return S;
  }

  /// Whether S stands as a statement of its own (not a condition, an
  /// initialiser or an increment).
  bool isStatement(const Stmt *S) const {
    const Stmt *P = parent(S);
    if (!P)
      return false;
    if (isa<CompoundStmt>(P) || isa<SwitchCase>(P) || isa<LabelStmt>(P))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return S == If->getThen() || S == If->getElse();
    if (const auto *For = dyn_cast<ForStmt>(P))
      return S == For->getBody();
    if (const auto *While = dyn_cast<WhileStmt>(P))
      return S == While->getBody();
    if (const auto *Do = dyn_cast<DoStmt>(P))
      return S == Do->getBody();
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(P))
      return S == RF->getBody();
    return false;
  }

  /// The variables of G that E names (anywhere inside it), as buffers
  /// followed.
  std::set<unsigned> named(const Stmt *E) const {
    struct Refs : RecursiveASTVisitor<Refs> {
      const FunctionFlow *Self;
      std::set<unsigned> Out;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        for (unsigned B : Self->indicesOf(R->getDecl()))
          Out.insert(B);
        return true;
      }
      bool VisitCXXThisExpr(CXXThisExpr *) {
        for (unsigned B : Self->indicesOf(Self->G))
          Out.insert(B);
        return true;
      }
    } Find;
    Find.Self = this;
    if (E)
      Find.TraverseStmt(const_cast<Stmt *>(E));
    return Find.Out;
  }

  /// A buffer G's caller owns: a parameter's, or one of `this` (keyed by
  /// G itself).
  bool callerOwned(unsigned B) const { return ownedByCaller(Buffers[B], G); }

  /// The root a path of members held by value starts from, as the flow
  /// keys it: the variable (`st` of `st.grid.u`), or G for `this`
  /// (`this->grid_.u`, `grid_.u`), with the path in Path; null for any
  /// other. `RootExpr`: the DeclRefExpr or CXXThisExpr it starts from.
  const ValueDecl *memberPathKey(const MemberExpr *ME, FieldPath &Path,
                                 const Expr **RootExpr = nullptr) const {
    bool Arrow = false;
    const Expr *Root = memberPathRoot(ME, Path, &Arrow);
    if (!Root)
      return nullptr;
    Root = Root->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(Root);
        Deref && Deref->getOpcode() == UO_Deref)
      Root = Deref->getSubExpr()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Root)) {
      if (RootExpr)
        *RootExpr = Root;
      return LeavesOf.count(G) ? G : nullptr;
    }
    const auto *R = dyn_cast<DeclRefExpr>(Root);
    // (`m->u` of a followed `Model *m` only: another pointer's object is
    // not the variable's own.)
    if (!R || (Arrow && !(R->getType()->isPointerType() &&
                          LeavesOf.count(R->getDecl()))))
      return nullptr;
    if (RootExpr)
      *RootExpr = R;
    return R->getDecl();
  }

  /// The followed buffer inside a local object that a member expression
  /// names whole (`st.u`), or none.
  std::optional<unsigned> memberLeaf(const Expr *E) const {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!ME)
      return std::nullopt;
    FieldPath Path;
    const ValueDecl *Key = memberPathKey(ME, Path);
    if (!Key)
      return std::nullopt;
    auto It = MemberIndex.find({Key, Path});
    if (It == MemberIndex.end())
      return std::nullopt;
    return It->second;
  }

  /// How many times S names each followed buffer. A variable's name counts
  /// for every buffer it holds, except as the root of a path of members,
  /// which names those below the path alone (`st.u` names `st.u`, not
  /// `st.v`; `st.grid` each buffer inside `grid`).
  std::map<unsigned, unsigned> namedCounts(const Stmt *S) const {
    struct Refs : RecursiveASTVisitor<Refs> {
      const FunctionFlow *Self;
      std::map<unsigned, unsigned> Count;
      std::set<const MemberExpr *> Links;
      std::set<const Expr *> Roots;
      bool VisitMemberExpr(MemberExpr *ME) {
        if (Links.count(ME))
          return true;
        FieldPath Path;
        const Expr *Root = nullptr;
        const ValueDecl *Key = Self->memberPathKey(ME, Path, &Root);
        if (!Key || Path.empty())
          return true;
        auto Leaves = Self->LeavesOf.find(Key);
        if (Leaves == Self->LeavesOf.end())
          return true;
        pathLinks(ME, Links);
        Roots.insert(Root);
        for (unsigned B : Leaves->second) {
          const FieldPath &Leaf = Self->Paths[B];
          size_t Common = std::min(Leaf.size(), Path.size());
          if (std::equal(Path.begin(), Path.begin() + Common, Leaf.begin()))
            ++Count[B];
        }
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (!Roots.count(R))
          for (unsigned B : Self->indicesOf(R->getDecl()))
            ++Count[B];
        return true;
      }
      // `this` other than as a path's root: every buffer of the object.
      bool VisitCXXThisExpr(CXXThisExpr *T) {
        if (!Roots.count(T))
          for (unsigned B : Self->indicesOf(Self->G))
            ++Count[B];
        return true;
      }
    } Find;
    Find.Self = this;
    if (S)
      Find.TraverseStmt(const_cast<Stmt *>(S));
    return Find.Count;
  }

  const RootEffect &effectOf(const Stmt *Root) {
    auto [It, New] = Effects.try_emplace(Root);
    if (New)
      It->second = computeEffect(Root);
    return It->second;
  }

  RootEffect computeEffect(const Stmt *Root) {
    RootEffect E;
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(Root)) {
      rangeForHeader(RF, E);
      return E;
    }
    const auto *X = dyn_cast<Expr>(Root);
    const auto *Call = X ? dyn_cast<CallExpr>(X->IgnoreImplicit()) : nullptr;
    if (Call && isAcceleratorCompute(Call) && isStatement(Root)) {
      // The compute ends with the host current; nothing it runs writes a
      // buffer the host holds later without the runtime knowing.
      E.Compute = true;
      if (auto It = SiteOf.find(Call); It != SiteOf.end()) {
        E.Site = It->second;
        // (A parameter only where the lambda can reach nothing that may be
        // it: it may be another buffer the lambda captures.)
        for (unsigned B = 0; B < Buffers.size(); ++B)
          if (!callerOwned(B) || parameterOutOfReach(B, E.Site->Lambda))
            E.Untouched.insert(B);
        // A captured object's buffers that the lambda names by no path
        // stay untouched (`st.v` where the body names `st.u` alone).
        std::map<unsigned, unsigned> InBody =
            namedCounts(E.Site->Lambda->getBody());
        for (const LambdaCapture &C : E.Site->Lambda->captures()) {
          if (C.capturesThis())
            for (unsigned B : indicesOf(G))
              if (InBody.count(B))
                E.Untouched.erase(B);
          if (!C.capturesVariable())
            continue;
          const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
          if (V && V->isInitCapture())
            for (unsigned B : named(V->getInit()))
              E.Untouched.erase(B);
          for (unsigned B : indicesOf(C.getCapturedVar()))
            if (Paths[B].empty() || InBody.count(B))
              E.Untouched.erase(B);
        }
        if (keepableSite(Root, *E.Site))
          for (unsigned B : E.Untouched)
            if (callerOwned(B) || inScopeAt(cast<VarDecl>(Buffers[B]), Root))
              E.MayCarry.insert(B);
      }
      return E;
    }
    // Anything else, a compute in it too: a compute inside an expression
    // still ends with the host current, but what it captures counts as
    // escaping below.
    E.Compute = containsCompute(Root);
    hostEffects(Root, E);
    return E;
  }

  /// Whether the compute of lambda L cannot reach the buffer B, which G's
  /// caller owns: L captures neither `this` nor a variable that may be that
  /// buffer or hold it, but B's own object (whose paths the caller judges)
  /// and G's local buffers and objects (a reference or pointer to B bound
  /// in G makes B escape). A global may not be it: with one, no parameter
  /// is followed.
  ///
  /// With `ByKernels` (a compute of a loop left on the device that is not
  /// handed B and names it nowhere): whether it can reach B only as one of
  /// the buffers it is handed that only its kernels use (`Buffer<T> &v`,
  /// where the caller may have bound both parameters to one buffer), every
  /// buffer of B's element type in a followed parameter it captures among
  /// them; B's own object, or `this`, captured is no longer a matter of
  /// paths there.
  bool parameterOutOfReach(unsigned B, const LambdaExpr *L,
                           const std::set<unsigned> *ByKernels = nullptr) const {
    QualType Elem = elementOf(B);
    auto SameElement = [&](QualType T) {
      return T.isNull() || Elem.isNull() || Ctx.hasSameUnqualifiedType(T, Elem);
    };
    for (const LambdaCapture &C : L->captures()) {
      if (C.capturesThis() && Buffers[B] == G && !ByKernels)
        continue; // its own object: the paths decide
      if (!C.capturesVariable())
        return false; // `this`, `*this`, a VLA's size
      const ValueDecl *V = C.getCapturedVar();
      if (V == Buffers[B]) {
        if (ByKernels)
          return false;
        continue;
      }
      bool Followed = Index.count(V) || LeavesOf.count(V);
      if (Followed && !isa<ParmVarDecl>(V))
        continue;
      if (Followed && ByKernels) {
        for (unsigned I : indicesOf(V))
          if (!ByKernels->count(I) && SameElement(elementOf(I)))
            return false;
        continue;
      }
      QualType T = V->getType();
      if (!holdsBuffers(T))
        continue;
      if (SameElement(heldBufferElement(T)))
        return false;
    }
    return true;
  }

  bool containsCompute(const Stmt *S) const {
    struct Find : RecursiveASTVisitor<Find> {
      bool Found = false;
      bool VisitCallExpr(CallExpr *C) {
        return !(Found = Found || isAcceleratorCompute(C));
      }
    } F;
    F.TraverseStmt(const_cast<Stmt *>(S));
    return F.Found;
  }

  /// A range-for's header: elements bound by non-const reference may be
  /// written through; by value or const reference, only read.
  void rangeForHeader(const CXXForRangeStmt *RF, RootEffect &E) {
    const Expr *Range = RF->getRangeInit();
    QualType Element = RF->getLoopVariable()->getType();
    bool MayWrite = Element->isReferenceType() &&
                    !Element.getNonReferenceType().isConstQualified();
    const auto *Ref =
        Range ? dyn_cast<DeclRefExpr>(Range->IgnoreParenImpCasts()) : nullptr;
    if (Ref && Index.count(Ref->getDecl())) {
      E.Read.insert(Index.at(Ref->getDecl()));
      if (MayWrite)
        E.Written.insert(Index.at(Ref->getDecl()));
      return;
    }
    hostEffects(Range, E);
    for (unsigned B : named(Range)) {
      E.Read.insert(B);
      if (MayWrite)
        E.Written.insert(B);
    }
  }

  /// What host code does to the buffers followed.
  void hostEffects(const Stmt *S, RootEffect &E) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          for (unsigned B : indicesOf(V))
            E.Declared.emplace_back(B, Index.count(V) ? bufferMadeFresh(V)
                                                      : objectMadeFresh(V, Host.ElsewhereMakesFresh));
    PointsTo Facts = Table.entryPointsTo();
    for (const HostEvent &Ev : collectHostEvents(S, Table, Facts, Host)) {
      if (Ev.Kind == HostEventKind::Create)
        continue; // the declarations above
      std::set<ObjectId> Ids = Table.withAliases(Ev.Targets.Ids);
      std::set<ObjectId> Others = Table.withAliases(Ev.Others.Ids);
      Ids.insert(Others.begin(), Others.end());
      bool Replaces =
          Ev.Kind == HostEventKind::Swap || Ev.Kind == HostEventKind::Reset;
      bool Writes = Replaces || writes(Ev.Mode);
      auto Hit = [&](unsigned B) {
        if (Ev.Escapes || Replaces || reads(Ev.Mode) ||
            Ev.Kind != HostEventKind::Access)
          E.Read.insert(B);
        if (Ev.Escapes)
          E.Escapes.insert(B);
        if (Replaces)
          E.Replaced.insert(B);
        else if (Writes)
          E.Written.insert(B);
      };
      // A buffer inside a parameter object that G names nowhere outside
      // its lambdas has no object in the table (it makes those on use): a
      // guess of its type reaches it, and so does anything of its type the
      // caller may have bound to it (`run(acc, t, t.a)`), but its own
      // object's other members.
      for (const ObjectRefs *Refs : {&Ev.Targets, &Ev.Others})
        if (Refs->Guessed)
          for (unsigned B : withoutObject(Refs->Element))
            Hit(B);
      for (ObjectId Id : Ids) {
        const BufferObject &O = Table.object(Id);
        if (O.callerVisible())
          for (unsigned B : withoutObject(O.Element))
            if (O.Base != Buffers[B] || !pathsDiverge(O.Path, Paths[B]))
              Hit(B);
        if (std::optional<unsigned> B = followed(O))
          Hit(*B);
      }
    }
    keptPointers(S, E);
    if (Hidden.in(S))
      E.WritesAll = true;
  }

  /// The buffers followed that G's table has no object for, of element
  /// type Element (null: any).
  std::vector<unsigned> withoutObject(QualType Element) const {
    std::vector<unsigned> Out;
    for (unsigned B = 0; B < Buffers.size(); ++B) {
      if (Paths[B].empty() || Table.memberFor(Buffers[B], Paths[B]))
        continue;
      QualType Elem = elementOf(B);
      if (Element.isNull() || Elem.isNull() ||
          Ctx.hasSameUnqualifiedType(Elem, Element))
        Out.push_back(B);
    }
    return Out;
  }

  /// The buffer followed that an object of G's table is: a buffer
  /// variable, or a buffer inside a local object, by its path.
  std::optional<unsigned> followed(const BufferObject &O) const {
    if ((O.Kind == ObjectKind::Local || O.Kind == ObjectKind::ParameterMember) &&
        !O.Path.empty()) {
      auto It = MemberIndex.find({O.Base, O.Path});
      if (It != MemberIndex.end())
        return It->second;
      return std::nullopt;
    }
    if (auto It = O.Decl ? Index.find(O.Decl) : Index.end(); It != Index.end())
      return It->second;
    return std::nullopt;
  }

  /// Pointers, references and iterators into a followed buffer kept in a
  /// variable or a member (`int *p = b.data();`, `auto &e = b[0];`,
  /// `it = b.begin() + k;`, `h.p = &b[i];`, an address turned into an
  /// integer), and buffers handed to a function of this file that may keep
  /// what it is given: they escape.
  void keptPointers(const Stmt *S, RootEffect &E) {
    struct Finder : RecursiveASTVisitor<Finder> {
      FunctionFlow *Self;
      RootEffect *E;
      void bound(QualType Target, const Expr *Value) {
        if (!Value)
          return;
        std::set<unsigned> Names = Self->named(Value);
        bool Address = turnsPointerIntoInteger(Value);
        for (unsigned B : Names)
          if (Address ||
              Self->Holders.holds(Target, Self->elementOf(B)))
            E->Escapes.insert(B);
      }
      bool VisitVarDecl(VarDecl *V) {
        if (!Self->Index.count(V) && !Self->LeavesOf.count(V))
          bound(V->getType(), V->getInit());
        return true;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        if (BO->isAssignmentOp())
          bound(BO->getLHS()->getType(), BO->getRHS());
        return true;
      }
      bool VisitCallExpr(CallExpr *C) {
        if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C)) {
          if (Op->isAssignmentOp() && Op->getNumArgs() == 2)
            bound(Op->getArg(0)->getType(), Op->getArg(1));
          return true;
        }
        return call(C, 0);
      }
      bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
        // A member operator's object is its first argument.
        const auto *M = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
        return call(C, M && !M->isStatic() ? 1 : 0);
      }
      /// Arguments from `First` on bind the callee's parameters in order.
      bool call(const CallExpr *C, unsigned First) {
        const FunctionDecl *F = C->getDirectCallee();
        if (!F || !F->getDefinition() || declaredInSystemHeader(F) || inFerryRuntime(F))
          return true; // HostEvents: an escape unless const, or a library
        const FunctionDecl *Def = F->getDefinition();
        for (unsigned I = First; I < C->getNumArgs(); ++I) {
          const Expr *Arg = C->getArg(I);
          unsigned P = I - First;
          if (P >= Def->getNumParams()) { // variadic
            bound(Arg->getType(), Arg);
            continue;
          }
          QualType T = Def->getParamDecl(P)->getType();
          // An object by reference: the callee can keep it only in a
          // place that outlives the call, and such a place of a type that
          // reaches the buffers bars them from being followed at all.
          if (T->isReferenceType() && !refersToBuffer(T) && holdsBuffers(T))
            continue;
          if (refersToBuffer(T) || T->isPointerType()) {
            if (!parameterKeepsNothing(Self->Ctx, Def, P))
              for (unsigned B : Self->named(Arg))
                E->Escapes.insert(B);
          } else {
            bound(T, Arg);
          }
        }
        return true;
      }
      static bool turnsPointerIntoInteger(const Expr *Value) {
        struct Casts : RecursiveASTVisitor<Casts> {
          bool Found = false;
          bool VisitCastExpr(CastExpr *C) {
            return !(Found = Found || C->getCastKind() == CK_PointerToIntegral);
          }
        } Find;
        Find.TraverseStmt(const_cast<Expr *>(Value));
        return Find.Found;
      }
    } Find;
    Find.Self = this;
    Find.E = &E;
    Find.TraverseStmt(const_cast<Stmt *>(S));
  }

  QualType elementOf(unsigned B) const {
    if (!Paths[B].empty())
      return bufferElementType(Paths[B].back()->getType());
    return bufferElementType(
        cast<VarDecl>(Buffers[B])->getType().getNonReferenceType());
  }

  using State = std::vector<Facts>;

  void apply(const RootEffect &E, State &S) const {
    // (Judged on the state before the compute, which it keeps.)
    std::map<unsigned, Facts> Carried;
    for (unsigned B : E.MayCarry)
      if (carriable(S[B]))
        Carried[B] = S[B];
    if (E.Compute)
      for (Facts &F : S)
        F = static_cast<Facts>((F & Escaped) | Clean);
    for (unsigned B : E.Untouched)
      S[B] = Carried.count(B) ? Carried[B]
                              : static_cast<Facts>((S[B] & Escaped) | Fresh);
    for (auto [B, IsFresh] : E.Declared)
      S[B] = static_cast<Facts>((S[B] & Escaped) | (IsFresh ? Fresh : Dirty));
    auto Write = [](Facts &F) {
      if (F & Clean)
        F = static_cast<Facts>((F & ~Clean) | Dirty);
    };
    if (E.WritesAll)
      for (Facts &F : S)
        Write(F);
    for (unsigned B : E.Written)
      Write(S[B]);
    for (unsigned B : E.Replaced)
      S[B] = static_cast<Facts>((S[B] & Escaped) | Dirty);
    for (unsigned B : E.Escapes) {
      Write(S[B]);
      S[B] = static_cast<Facts>(S[B] | Escaped);
    }
  }

  /// Runs block B from `In`; `AtCompute`, when given, records the state
  /// before each compute statement.
  State through(const CFGBlock &B, State S,
                std::map<const Stmt *, State> *AtCompute) {
    std::set<const Stmt *> Done;
    for (const CFGElement &El : B) {
      std::optional<CFGStmt> CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *Root = rootOf(CS->getStmt());
      if (!Done.insert(Root).second)
        continue;
      const RootEffect &E = effectOf(Root);
      if (AtCompute && E.Site) {
        State &Before = (*AtCompute)[Root];
        if (Before.empty())
          Before = S;
        else
          for (size_t I = 0; I < S.size(); ++I)
            Before[I] = static_cast<Facts>(Before[I] | S[I]);
      }
      apply(E, S);
    }
    return S;
  }

  void solve() {
    size_t N = Cfg->getNumBlockIDs();
    In.assign(N, State(Buffers.size(), 0));
    Reached.assign(N, false);
    const CFGBlock &Entry = Cfg->getEntry();
    // The caller may have written its buffers since its last compute: the
    // line ForgottenAtEntry writes first in G forgets their device copies,
    // which leaves them as a new buffer is (no device copy to keep). A local
    // is not yet made.
    State AtEntry(Buffers.size(), Dirty);
    if (entryForgets())
      for (unsigned B = 0; B < Buffers.size(); ++B)
        if (callerOwned(B))
          AtEntry[B] = Fresh;
    In[Entry.getBlockID()] = AtEntry;
    Reached[Entry.getBlockID()] = true;
    std::vector<const CFGBlock *> Order;
    {
      // Reverse post-order from the entry.
      std::set<const CFGBlock *> Seen;
      std::vector<const CFGBlock *> Post;
      std::function<void(const CFGBlock *)> Visit = [&](const CFGBlock *B) {
        if (!B || !Seen.insert(B).second)
          return;
        for (const CFGBlock *S : B->succs())
          Visit(S);
        Post.push_back(B);
      };
      Visit(&Entry);
      Order.assign(Post.rbegin(), Post.rend());
    }
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const CFGBlock *B : Order) {
        if (!Reached[B->getBlockID()])
          continue;
        State Out = through(*B, In[B->getBlockID()], nullptr);
        for (const CFGBlock *S : B->succs()) {
          if (!S)
            continue;
          State &Next = In[S->getBlockID()];
          bool First = !Reached[S->getBlockID()];
          Reached[S->getBlockID()] = true;
          for (size_t I = 0; I < Out.size(); ++I) {
            Facts Joined = static_cast<Facts>(Next[I] | Out[I]);
            if (Joined != Next[I] || First) {
              Next[I] = Joined;
              Changed = true;
            }
          }
        }
      }
    }
    for (const CFGBlock *B : Order)
      if (Reached[B->getBlockID()])
        through(*B, In[B->getBlockID()], &AtCompute);
  }

  /// Whether a line may go first in G's body (ForgottenAtEntry): it is in
  /// the main file, not in a macro.
  bool entryForgets() const {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(G->getBody());
    return Body && !Body->getLBracLoc().isMacroID() &&
           SM.isWrittenInMainFile(Body->getLBracLoc());
  }

  /// What the compute at `Site` is handed, and the plan that starts it.
  Handed handedTo(const ComputeSite &Site) const {
    Handed H;
    const CXXMethodDecl *Op = Site.Lambda->getCallOperator();
    // Buffers an init-capture names are used before the compute starts.
    std::set<unsigned> InitCaptured;
    for (const LambdaCapture &C : Site.Lambda->captures())
      if (C.capturesVariable())
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
            V && V->isInitCapture())
          for (unsigned B : named(V->getInit()))
            InitCaptured.insert(B);
    // A buffer inside an object: the entry's plan knows it by its last
    // member (each of its objects ending in that member starts unknown on
    // the device, which only asks the run-time state), and no other file
    // learns of it.
    // (`Whole`: a buffer inside an object handed as the buffer itself, which
    // the entry knows by its parameter.)
    auto Add = [&](unsigned B, const ValueDecl *D, int Param,
                   bool Whole = false) {
      if (InitCaptured.count(B) || llvm::is_contained(H.Buffers, B))
        return;
      H.Buffers.push_back(B);
      bool Member = !Paths[B].empty() && !Whole;
      H.EntryDecls.push_back(Member && D ? Paths[B].back() : D);
      H.Params.push_back(Member ? -1 : Param);
    };
    if (Planned.count(Op)) {
      // A planned lambda: its plan starts with the buffers it captures.
      if (Entries.count(Op))
        H.Entry = Op;
      for (const LambdaCapture &C : Site.Lambda->captures())
        if (C.capturesVariable())
          for (unsigned B : indicesOf(C.getCapturedVar()))
            Add(B, C.getCapturedVar(), -1);
      return H;
    }
    // A lambda that only calls a compute function: the buffers it passes
    // straight to it, and names nowhere else (an argument that writes one
    // before the entry's plan starts would go unrecorded).
    const CallExpr *Call = singleCallOf(Op);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee)
      return H;
    const FunctionDecl *Def = Callee->getDefinition();
    bool Compute = false;
    for (const FunctionDecl *R : Callee->redecls())
      Compute = Compute || isComputeFunction(R) || Planned.count(R) ||
                Entries.count(R);
    if (!Compute)
      return H;
    H.Callee = Callee;
    if (Def && Entries.count(Def))
      H.Entry = Def;
    std::map<unsigned, unsigned> Straight, Everywhere;
    // Argument I as passed, `&b` as `b`.
    auto Argument = [&](unsigned I) {
      const Expr *A = Call->getArg(I)->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(A);
          UO && UO->getOpcode() == UO_AddrOf)
        A = UO->getSubExpr()->IgnoreParenImpCasts();
      return A;
    };
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *A = Argument(I);
      if (const auto *R = dyn_cast<DeclRefExpr>(A))
        for (unsigned B : indicesOf(R->getDecl()))
          ++Straight[B];
    }
    // `st.step(cc)`: the object a member compute function is called on.
    const ValueDecl *Object = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *O = MC->getImplicitObjectArgument()) {
        if (const auto *R = dyn_cast<DeclRefExpr>(O->IgnoreParenImpCasts()))
          Object = R->getDecl();
        else if (isThisObject(O) && LeavesOf.count(G))
          Object = G; // `step(cc)` in a member function: on `this`
        if (Object)
          for (unsigned B : indicesOf(Object))
            ++Straight[B];
      }
    // `step(cc, st.u)`: a buffer inside a local object, passed itself.
    std::map<unsigned, unsigned> MemberArg;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *A = Argument(I);
      if (std::optional<unsigned> B = memberLeaf(A)) {
        ++Straight[*B];
        MemberArg[I] = *B;
      }
    }
    Everywhere = namedCounts(Op->getBody());
    for (auto [I, B] : MemberArg)
      if (I < Callee->getNumParams() && Straight[B] == Everywhere[B] &&
          refersToBuffer(Callee->getParamDecl(I)->getType()))
        Add(B, H.Entry ? H.Entry->getParamDecl(I) : nullptr,
            static_cast<int>(I), /*Whole=*/true);
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *A = Argument(I);
      const auto *R = dyn_cast<DeclRefExpr>(A);
      if (!R || I >= Callee->getNumParams())
        continue;
      QualType Param = Callee->getParamDecl(I)->getType();
      for (unsigned B : indicesOf(R->getDecl())) {
        if (Straight[B] != Everywhere[B])
          continue;
        // A buffer by reference or pointer; an object by reference or
        // pointer to its own type (a copy would be another object).
        if (Paths[B].empty() ? !refersToBuffer(Param)
                             : !refersTo(Param, R->getDecl()->getType()))
          continue;
        Add(B, H.Entry ? H.Entry->getParamDecl(I) : nullptr,
            static_cast<int>(I));
      }
    }
    // Its plan knows them as `this->u`: by their last member, as above.
    if (Object && isa<CXXMethodDecl>(Callee))
      for (unsigned B : indicesOf(Object))
        if (!Paths[B].empty() && Straight[B] == Everywhere[B])
          Add(B, H.Entry ? Paths[B].back() : nullptr, -1);
    return H;
  }

  /// A parameter of type `T &` or `T *` (const or not) for an object of
  /// type T.
  bool refersTo(QualType Param, QualType Object) const {
    QualType Target = Param->isReferenceType() ? Param.getNonReferenceType()
                      : Param->isPointerType() ? Param->getPointeeType()
                                               : QualType();
    // (A followed `Model *m` passed as itself hands over `*m`.)
    Object = Object.getNonReferenceType();
    if (Object->isPointerType())
      Object = Param->isPointerType() ? Object->getPointeeType() : QualType();
    return !Target.isNull() && !Object.isNull() &&
           Ctx.hasSameUnqualifiedType(Target, Object);
  }

  /// The accelerator a compute runs on, spelled so that evaluating it once
  /// more before the compute changes nothing (a name, members of it, `*p`).
  bool plainAccelerator(const CallExpr *Compute) const {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Compute);
    if (!MC)
      return false;
    const Expr *E = MC->getImplicitObjectArgument();
    if (const auto *This = dyn_cast_or_null<CXXThisExpr>(E);
        This && This->isImplicit())
      return false; // `compute(…)` in a class derived from Accelerator
    while (E) {
      E = E->IgnoreParenImpCasts();
      if (isa<DeclRefExpr>(E) || isa<CXXThisExpr>(E))
        return true;
      if (const auto *M = dyn_cast<MemberExpr>(E))
        E = M->getBase();
      else if (const auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref)
        E = UO->getSubExpr();
      else
        return false;
    }
    return false;
  }

  /// A compute statement the rewriter can write keeps before: in the main
  /// file, not from a macro, on an accelerator it can spell again.
  bool keepableSite(const Stmt *Root, const ComputeSite &Site) const {
    return !Root->getBeginLoc().isMacroID() && !Root->getEndLoc().isMacroID() &&
           SM.isWrittenInMainFile(Root->getBeginLoc()) &&
           plainAccelerator(Site.Compute);
  }

  /// A buffer untouched by a compute whose state may carry through it: in
  /// a compute since the host last wrote it, on every path.
  static bool carriable(Facts F) {
    return (F & Clean) && !(F & (Dirty | Escaped));
  }

  /// Whether V, a local of G, is declared before Root in a scope that
  /// holds Root, so that a line before Root may name it.
  bool inScopeAt(const VarDecl *V, const Stmt *Root) {
    if (DeclaringStmt.empty()) {
      struct Decls : RecursiveASTVisitor<Decls> {
        std::map<const VarDecl *, const DeclStmt *> *Out;
        bool VisitDeclStmt(DeclStmt *DS) {
          for (const Decl *D : DS->decls())
            if (const auto *VD = dyn_cast<VarDecl>(D))
              Out->emplace(VD, DS);
          return true;
        }
        bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      } Find;
      Find.Out = &DeclaringStmt;
      Find.TraverseStmt(G->getBody());
    }
    auto It = DeclaringStmt.find(V);
    if (It == DeclaringStmt.end())
      return false;
    const Stmt *Scope = Parents->getParent(It->second);
    if (!Scope)
      return false;
    SourceLocation At = Root->getBeginLoc();
    return SM.isBeforeInTranslationUnit(It->second->getEndLoc(), At) &&
           SM.isBeforeInTranslationUnit(Scope->getBeginLoc(), At) &&
           SM.isBeforeInTranslationUnit(At, Scope->getEndLoc());
  }

  /// The compute statements that may run next after the statement From
  /// (a root of G's CFG), with no compute between.
  std::set<const Stmt *> nextComputes(const Stmt *From) {
    if (RootsIn.empty())
      for (const CFGBlock *B : *Cfg) {
        std::vector<const Stmt *> &Roots = RootsIn[B];
        for (const CFGElement &El : *B)
          if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>()) {
            const Stmt *Root = rootOf(CS->getStmt());
            if (!llvm::is_contained(Roots, Root))
              Roots.push_back(Root);
          }
      }
    std::set<const Stmt *> Next;
    // From each block's statements after `After` (null: all of them): the
    // first compute, or on to the successors.
    auto Scan = [&](const CFGBlock *B, const Stmt *After) {
      const std::vector<const Stmt *> &Roots = RootsIn[B];
      auto It = Roots.begin();
      if (After)
        It = std::next(std::find(Roots.begin(), Roots.end(), After));
      for (; It != Roots.end(); ++It)
        if (effectOf(*It).Compute) {
          Next.insert(*It);
          return true;
        }
      return false;
    };
    const CFGBlock *Home = nullptr;
    for (const auto &[B, Roots] : RootsIn)
      if (llvm::is_contained(Roots, From))
        Home = B;
    if (!Home || Scan(Home, From))
      return Next;
    std::set<const CFGBlock *> Seen;
    std::vector<const CFGBlock *> Work(Home->succ_begin(), Home->succ_end());
    while (!Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      if (!B || !Seen.insert(B).second)
        continue;
      if (!Scan(B, nullptr))
        Work.insert(Work.end(), B->succ_begin(), B->succ_end());
    }
    return Next;
  }

  std::vector<KeptAtCompute> keeps() {
    std::vector<KeptAtCompute> Out;
    // Per compute statement, the followed buffers it keeps.
    Keeps.clear();
    for (const auto &[Root, Before] : AtCompute) {
      const RootEffect &E = effectOf(Root);
      const ComputeSite &Site = *E.Site;
      if (!keepableSite(Root, Site))
        continue;
      Handed H = handedTo(Site);
      KeptAtCompute K;
      K.Compute = Site.Compute;
      K.Statement = Root;
      K.Function = G;
      K.Entry = H.Entry;
      K.Callee = H.Callee;
      for (size_t I = 0; I < H.Buffers.size(); ++I) {
        Facts F = Before[H.Buffers[I]];
        // Dirty or Escaped: written since; Fresh alone: nothing to keep.
        if ((F & (Dirty | Escaped)) || !(F & Clean) ||
            Unspelled.count(H.Buffers[I]))
          continue;
        K.Buffers.push_back(Buffers[H.Buffers[I]]);
        K.Paths.push_back(Paths[H.Buffers[I]]);
        K.EntryDecls.push_back(H.EntryDecls[I]);
        K.New.push_back((F & Fresh) != 0);
        K.Params.push_back(H.Params[I]);
        Keeps[Root].insert(H.Buffers[I]);
      }
      Out.push_back(std::move(K));
    }
    // A buffer this compute is not handed carries through it to a later
    // compute that keeps it: without the line, the runtime would count its
    // device copy stale there, since its state would skip an epoch. Only
    // where it pays: some path from here meets, past computes that may
    // carry it too, one that keeps it (not one that uses it otherwise, or
    // that finds it written).
    std::map<const Stmt *, KeptAtCompute *> At;
    for (KeptAtCompute &K : Out)
      At[K.Statement] = &K;
    auto MayCarryAt = [&](const Stmt *Root, unsigned B) {
      auto It = AtCompute.find(Root);
      return At.count(Root) && It != AtCompute.end() &&
             effectOf(Root).MayCarry.count(B) && carriable(It->second[B]);
    };
    for (KeptAtCompute &K : Out) {
      for (unsigned B : effectOf(K.Statement).MayCarry) {
        // (A planned lambda keeps a captured object's every buffer, those
        // its body never names included.)
        if (!MayCarryAt(K.Statement, B) || Keeps[K.Statement].count(B) ||
            Unspelled.count(B))
          continue;
        bool Pays = false;
        std::set<const Stmt *> Seen;
        std::vector<const Stmt *> Work{K.Statement};
        while (!Work.empty() && !Pays) {
          const Stmt *From = Work.back();
          Work.pop_back();
          for (const Stmt *Next : nextComputes(From)) {
            if (Keeps[Next].count(B))
              Pays = true;
            else if (MayCarryAt(Next, B) && Seen.insert(Next).second)
              Work.push_back(Next);
          }
        }
        if (!Pays)
          continue;
        K.Carried.push_back(Buffers[B]);
        K.CarriedPaths.push_back(Paths[B]);
      }
    }
    llvm::erase_if(Out, [](const KeptAtCompute &K) {
      return K.Buffers.empty() && K.Carried.empty();
    });
    return Out; // buffersKeptBetweenComputes sorts them, over every function
  }

  // --- Loops whose computes leave buffers on the device until they end ---

  /// The loops of G whose code uses a followed buffer only through the
  /// kernels of its computes (LeftOnDeviceInLoops.h), each with those
  /// buffers it is the outermost such loop of. What the host did to them
  /// before the loop does not matter: the runtime carries only the states
  /// that the loop's own computes set.
  void leftOnDeviceInLoops(std::vector<LeftOnDeviceInLoop> &Out) {
    struct Find : RecursiveASTVisitor<Find> {
      std::vector<const Stmt *> Loops;
      std::vector<const LambdaExpr *> Lambdas;
      bool Jumps = false;
      bool VisitForStmt(ForStmt *S) { return Loops.push_back(S), true; }
      bool VisitWhileStmt(WhileStmt *S) { return Loops.push_back(S), true; }
      bool VisitDoStmt(DoStmt *S) { return Loops.push_back(S), true; }
      bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
        return Loops.push_back(S), true;
      }
      // A jump into the block the rewriter adds would skip its object.
      bool VisitLabelStmt(LabelStmt *) { return !(Jumps = true); }
      bool VisitGotoStmt(GotoStmt *) { return !(Jumps = true); }
      bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(Jumps = true); }
      // A coroutine suspended inside the loop lets its caller run.
      bool VisitCoawaitExpr(CoawaitExpr *) { return !(Jumps = true); }
      bool VisitCoyieldExpr(CoyieldExpr *) { return !(Jumps = true); }
      bool TraverseLambdaExpr(LambdaExpr *L) {
        Lambdas.push_back(L);
        return true;
      }
    } F;
    F.TraverseStmt(G->getBody());
    if (F.Jumps || F.Loops.empty())
      return;
    // What no line before the loop can spell, or what host code may reach
    // without naming it: a lambda that is no compute's may read it when it
    // is called, and a pointer bound to it may be read through.
    std::set<unsigned> Unfit;
    std::set<const LambdaExpr *> ComputeLambdas;
    for (const auto &[Call, Site] : SiteOf)
      ComputeLambdas.insert(Site->Lambda);
    for (const LambdaExpr *L : F.Lambdas)
      if (!ComputeLambdas.count(L)) {
        for (const auto &[B, N] : namedCounts(L->getBody()))
          Unfit.insert(B);
        for (const LambdaCapture &C : L->captures())
          if (C.capturesThis())
            for (unsigned B : indicesOf(G))
              Unfit.insert(B);
      }
    for (unsigned B = 0; B < Buffers.size(); ++B)
      if (elementOf(B).isNull() ||
          !readableOnlyByName(Buffers[B], elementOf(B)))
        Unfit.insert(B);
    unfitByPointers(Unfit);
    std::set<const Stmt *> AllRoots;
    for (const CFGBlock *Block : *Cfg)
      for (const CFGElement &El : *Block)
        if (std::optional<CFGStmt> CS = El.getAs<CFGStmt>())
          AllRoots.insert(rootOf(CS->getStmt()));
    // Per loop, the buffers it may leave on the device, and its accelerator.
    std::map<const Stmt *, std::set<unsigned>> Fit;
    std::map<const Stmt *, const Expr *> AcceleratorOf;
    std::map<const Stmt *, std::set<const VarDecl *>> FitContainers;
    for (const Stmt *L : F.Loops) {
      if (L->getBeginLoc().isMacroID() || L->getEndLoc().isMacroID() ||
          !SM.isWrittenInMainFile(L->getBeginLoc()))
        continue;
      std::vector<const Stmt *> Inside;
      for (const Stmt *R : AllRoots)
        if (within(R, L))
          Inside.push_back(R);
      const Expr *Accelerator = nullptr;
      std::set<unsigned> Blocked = Unfit, Pays;
      bool Fails = false;
      for (const Stmt *R : Inside) {
        const RootEffect &E = effectOf(R);
        if (!E.Compute) {
          if (E.WritesAll)
            Fails = true;
          for (const std::set<unsigned> *Set :
               {&E.Read, &E.Written, &E.Escapes, &E.Replaced})
            Blocked.insert(Set->begin(), Set->end());
          for (const auto &[B, Fresh] : E.Declared)
            Blocked.insert(B);
          continue;
        }
        if (!E.Site || !keepableSite(R, *E.Site) ||
            !sameAccelerator(E.Site->Compute, L, Accelerator)) {
          Fails = true;
          break;
        }
        Handed H = handedTo(*E.Site);
        // The buffers it is handed that only its kernels use.
        std::set<unsigned> ByKernels;
        auto Before = AtCompute.find(R);
        for (unsigned B : H.Buffers) {
          KernelUse Use = usedOnlyByKernels(
              E.Site->Lambda->getBody(), Buffers[B] == G ? nullptr : Buffers[B],
              Paths[B], &Host.ElsewhereKernelUse);
          // (A pointer kept before the loop may reach it unnamed.)
          if (!Use.OnlyKernels || Before == AtCompute.end() ||
              (Before->second[B] & Escaped))
            continue;
          ByKernels.insert(B);
          if (Use.Written)
            Pays.insert(B);
        }
        for (unsigned B = 0; B < Buffers.size(); ++B)
          if (llvm::is_contained(H.Buffers, B)
                  ? !ByKernels.count(B)
                  : !E.Untouched.count(B) &&
                        !(callerOwned(B) &&
                          parameterOutOfReach(B, E.Site->Lambda, &ByKernels)))
            Blocked.insert(B);
      }
      if (Fails || !Accelerator)
        continue;
      for (unsigned B : Pays)
        if (!Blocked.count(B) &&
            (callerOwned(B) || inScopeAt(cast<VarDecl>(Buffers[B]), L)))
          Fit[L].insert(B);
      // A member no line may name is held with its whole object
      // (ferry::buffersIn), which must then hold no buffer that is blocked:
      // the scope would carry a state the host may have changed, or keep a
      // copy home from host code that reads it.
      for (unsigned B : Unspelled)
        if (Fit[L].count(B) &&
            (PartlyFollowed.count(Buffers[B]) ||
             llvm::any_of(indicesOf(Buffers[B]), [&](unsigned Leaf) {
               return Blocked.count(Leaf) != 0;
             })))
          Fit[L].erase(B);
      AcceleratorOf[L] = Accelerator;
      for (const ContainerOfObjects &C : Containers)
        if (elementsLeftOnDevice(C, L, Inside, F.Lambdas, ComputeLambdas))
          FitContainers[L].insert(C.Var);
    }
    // Each buffer in its outermost loop alone.
    for (const Stmt *L : F.Loops) {
      if (!AcceleratorOf.count(L))
        continue;
      LeftOnDeviceInLoop Loop;
      Loop.Loop = L;
      Loop.Function = G;
      Loop.Accelerator = AcceleratorOf[L];
      for (const ContainerOfObjects &C : Containers) {
        if (!FitContainers[L].count(C.Var) ||
            llvm::any_of(FitContainers, [&](const auto &Other) {
              return Other.first != L && Other.second.count(C.Var) &&
                     within(L, Other.first);
            }))
          continue;
        for (const FieldPath &P : C.Leaves) {
          Loop.Buffers.push_back(C.Var);
          Loop.Paths.push_back(P);
          Loop.Whole.push_back(true);
          Loop.InElements.push_back(true);
        }
      }
      for (unsigned B : Fit[L]) {
        bool Outer = false;
        for (const auto &[Other, Set] : Fit)
          Outer = Outer || (Other != L && Set.count(B) && within(L, Other));
        if (Outer)
          continue;
        Loop.Buffers.push_back(Buffers[B]);
        Loop.Paths.push_back(Paths[B]);
        Loop.Whole.push_back(Unspelled.count(B) != 0);
        Loop.InElements.push_back(false);
      }
      if (!Loop.Buffers.empty())
        Out.push_back(std::move(Loop));
    }
  }

  /// Whether loop L may leave the buffers of C's elements on the device:
  /// C is in scope before it; its computes' lambdas capture C by reference
  /// and hand its elements' buffers to kernels alone, some kernel writing
  /// one (elementsUsedOnlyByKernels); no other code of the loop names C;
  /// and nothing that lives across the loop can point into the elements:
  /// no lambda but a compute's names C, and no variable of G in scope
  /// there may hold a pointer to such a buffer (a parameter only where G
  /// never changes it). The loop itself holding C's elements (a range-for
  /// over it) is such a variable.
  bool elementsLeftOnDevice(const ContainerOfObjects &C, const Stmt *L,
                            const std::vector<const Stmt *> &Inside,
                            const std::vector<const LambdaExpr *> &Lambdas,
                            const std::set<const LambdaExpr *> &ComputeLambdas) {
    if (!inScopeAt(C.Var, L))
      return false;
    auto names = [&](const Stmt *S) {
      struct Find : RecursiveASTVisitor<Find> {
        const VarDecl *V;
        bool Found = false;
        bool VisitDeclRefExpr(DeclRefExpr *R) {
          return !(Found = Found || R->getDecl() == V);
        }
      } F;
      F.V = C.Var;
      F.TraverseStmt(const_cast<Stmt *>(S));
      return F.Found;
    };
    for (const LambdaExpr *Lambda : Lambdas)
      if (!ComputeLambdas.count(Lambda) && names(Lambda->getBody()))
        return false;
    auto mayPoint = [&](const ValueDecl *W) {
      return llvm::any_of(C.Elements, [&](QualType Elem) {
        return Readers.holds(W->getType(), Elem);
      });
    };
    for (const ParmVarDecl *P : G->parameters())
      if (mayPoint(P) && !onlyReadIn(P, G->getBody()))
        return false;
    if (addressTaken(C.Var, L))
      return false;
    struct Locals : RecursiveASTVisitor<Locals> {
      std::vector<const VarDecl *> Found;
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
      bool VisitVarDecl(VarDecl *V) {
        if (!isa<ParmVarDecl>(V))
          Found.push_back(V);
        return true;
      }
    } Vars;
    Vars.TraverseStmt(G->getBody());
    for (const VarDecl *W : Vars.Found) {
      if (W == C.Var || !mayPoint(W))
        continue;
      // (Its scope: the statement around its declaration.)
      auto Decl = DeclaringStmt.find(W);
      const Stmt *Scope =
          Decl == DeclaringStmt.end() ? nullptr : Parents->getParent(Decl->second);
      if (!Scope)
        return false;
      bool After = SM.isBeforeInTranslationUnit(L->getEndLoc(),
                                                Decl->second->getBeginLoc());
      bool Before = SM.isBeforeInTranslationUnit(Scope->getEndLoc(),
                                                 L->getBeginLoc());
      if (!After && !Before)
        return false;
    }
    bool Pays = false;
    for (const Stmt *R : Inside) {
      const RootEffect &E = effectOf(R);
      if (!E.Compute || !E.Site) {
        if (names(R))
          return false;
        continue;
      }
      for (const LambdaCapture &Capture : E.Site->Lambda->captures())
        if (Capture.capturesVariable() && Capture.getCapturedVar() == C.Var &&
            Capture.getCaptureKind() != LCK_ByRef)
          return false; // a copy of the container and its buffers
      for (const FieldPath &P : C.Leaves) {
        KernelUse Use = elementsUsedOnlyByKernels(
            E.Site->Lambda->getBody(), C.Var, P, &Host.ElsewhereKernelUse);
        if (!Use.OnlyKernels)
          return false;
        Pays = Pays || Use.Written;
      }
    }
    return Pays;
  }

  /// Whether code of G before loop L ends, outside the compute lambdas,
  /// takes the address of V or of an element (`&bodies[1]`, `bodies.data()`,
  /// an iterator, `&b` of a range-for's element): whatever holds it (a
  /// smart pointer, an integer, a std::any) may read the elements in the
  /// loop, and no type says so.
  bool addressTaken(const VarDecl *V, const Stmt *L) {
    struct Find : RecursiveASTVisitor<Find> {
      const VarDecl *V;
      std::set<const VarDecl *> Elements;
      const ParentMap *Parents;
      const SourceManager *SM;
      const Stmt *L;
      bool Taken = false;
      bool TraverseLambdaExpr(LambdaExpr *Lambda) {
        return true; // (a compute's: walked; another naming V: unfit)
      }
      bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
        if (const auto *R = dyn_cast<DeclRefExpr>(
                For->getRangeInit()->IgnoreParenImpCasts());
            R && R->getDecl() == V)
          Elements.insert(For->getLoopVariable());
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (R->getDecl() != V && !Elements.count(dyn_cast<VarDecl>(R->getDecl())))
          return true;
        if (SM->isBeforeInTranslationUnit(L->getEndLoc(), R->getBeginLoc()))
          return true;
        for (const Stmt *S = R, *P = Parents->getParent(S); P && isa<Expr>(P);
             S = P, P = Parents->getParent(P)) {
          if (const auto *U = dyn_cast<UnaryOperator>(P);
              U && U->getOpcode() == UO_AddrOf)
            return !(Taken = true);
          const FunctionDecl *Callee = nullptr;
          if (const auto *Call = dyn_cast<CallExpr>(P))
            Callee = Call->getDirectCallee();
          if (const auto *ME = dyn_cast<MemberExpr>(P))
            Callee = dyn_cast<FunctionDecl>(ME->getMemberDecl());
          if (Callee && Callee->getIdentifier() &&
              llvm::is_contained({"data", "begin", "end", "cbegin", "cend",
                                  "rbegin", "rend", "addressof"},
                                 Callee->getName()))
            return !(Taken = true);
        }
        return true;
      }
    } F;
    F.V = V;
    F.Parents = Parents.get();
    F.SM = &SM;
    F.L = L;
    F.TraverseStmt(G->getBody());
    return F.Taken;
  }

  /// Whether statement S lies inside statement L (or is it).
  bool within(const Stmt *S, const Stmt *L) const {
    return !SM.isBeforeInTranslationUnit(S->getBeginLoc(), L->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(L->getEndLoc(), S->getEndLoc());
  }

  /// Buffers a variable of G, outside the compute lambdas, is bound to a
  /// pointer, a reference or an iterator into (`const float *p = u.data();`,
  /// `auto &g = m.grid;`): what reads through it a flow of names misses.
  void unfitByPointers(std::set<unsigned> &Unfit) {
    struct Finder : RecursiveASTVisitor<Finder> {
      FunctionFlow *Self;
      std::set<unsigned> *Unfit;
      bool VisitVarDecl(VarDecl *V) {
        if (!V->getInit() || Self->Index.count(V) || Self->LeavesOf.count(V))
          return true;
        for (unsigned B : Self->named(V->getInit()))
          if (V->getType()->isReferenceType() ||
              Self->Readers.holds(V->getType(), Self->elementOf(B)))
            Unfit->insert(B);
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    } Find;
    Find.Self = this;
    Find.Unfit = &Unfit;
    Find.TraverseStmt(G->getBody());
  }

  /// Whether two spellings of an object (a variable, members of it or of
  /// `this`) name the same one.
  static bool sameObject(const Expr *A, const Expr *B) {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(A) && isa<CXXThisExpr>(B))
      return true;
    if (const auto *RA = dyn_cast<DeclRefExpr>(A))
      if (const auto *RB = dyn_cast<DeclRefExpr>(B))
        return RA->getDecl() == RB->getDecl();
    if (const auto *MA = dyn_cast<MemberExpr>(A))
      if (const auto *MB = dyn_cast<MemberExpr>(B))
        return MA->getMemberDecl() == MB->getMemberDecl() &&
               MA->isArrow() == MB->isArrow() &&
               sameObject(MA->getBase(), MB->getBase());
    return false;
  }

  /// Whether a compute in loop L runs on the accelerator the loop's others
  /// run on (Seen, set by the first): an object a line before L names the
  /// same (a variable in scope there, or one of `this`'s members, through
  /// no pointer).
  bool sameAccelerator(const CallExpr *Compute, const Stmt *L,
                       const Expr *&Seen) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Compute);
    const Expr *Object = MC ? MC->getImplicitObjectArgument() : nullptr;
    if (!Object)
      return false;
    if (Seen)
      return sameObject(Seen, Object);
    for (const Expr *E = Object->IgnoreParenImpCasts();;) {
      if (const auto *M = dyn_cast<MemberExpr>(E)) {
        const Expr *Base = M->getBase()->IgnoreParenImpCasts();
        if (M->isArrow() && !isa<CXXThisExpr>(Base))
          return false;
        E = Base;
        continue;
      }
      if (isa<CXXThisExpr>(E))
        break;
      const auto *R = dyn_cast<DeclRefExpr>(E);
      const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      if (!V || V->getType()->isPointerType() ||
          (!isa<ParmVarDecl>(V) && !V->hasGlobalStorage() && !inScopeAt(V, L)))
        return false;
      break;
    }
    Seen = Object;
    return true;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const FunctionDecl *G;
  const std::set<const FunctionDecl *> &Planned;
  const std::set<const FunctionDecl *> &Entries;
  HostSummaryCache &Host;
  PointerHolders &Holders;
  PointerHolders &Readers;
  HiddenCode &Hidden;
  const LongLivedPlaces &Places;
  ObjectTable Table;

  std::map<const CallExpr *, const ComputeSite *> SiteOf;
  /// The buffers followed: a buffer variable, or an object holding the
  /// buffer at Paths[B] (empty for a buffer variable).
  std::vector<const ValueDecl *> Buffers;
  std::vector<FieldPath> Paths;
  std::map<const ValueDecl *, unsigned> Index;
  std::map<const ValueDecl *, std::vector<unsigned>> LeavesOf;
  std::map<PathKey, unsigned> MemberIndex;
  /// The buffers followed whose path G may not spell (a private member of
  /// an object G holds): no line names them, so no keep holds them, but a
  /// loop may leave their whole object on the device (ferry::buffersIn).
  std::set<unsigned> Unspelled;
  /// Objects some buffer of which is not followed.
  std::set<const ValueDecl *> PartlyFollowed;
  std::vector<ContainerOfObjects> Containers;
  std::unique_ptr<CFG> Cfg;
  std::unique_ptr<ParentMap> Parents;
  std::map<const Stmt *, const Stmt *> SplitDecls;
  std::map<const Stmt *, RootEffect> Effects;
  std::vector<State> In;
  std::vector<bool> Reached;
  std::map<const Stmt *, State> AtCompute;
  std::map<const VarDecl *, const DeclStmt *> DeclaringStmt;
  /// Each CFG block's roots, in order.
  std::map<const CFGBlock *, std::vector<const Stmt *>> RootsIn;
  /// Per compute statement, the followed buffers it keeps.
  std::map<const Stmt *, std::set<unsigned>> Keeps;
};

} // namespace

std::vector<KeptAtCompute> buffersKeptBetweenComputes(
    ASTContext &Ctx, const std::set<const FunctionDecl *> &Planned,
    const std::set<const FunctionDecl *> &Entries, HostSummaryCache &Host,
    std::vector<LeftOnDeviceInLoop> *Loops) {
  std::vector<ComputeSite> Sites = findComputeSites(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<const FunctionDecl *, std::vector<const ComputeSite *>> ByFunction;
  for (const ComputeSite &S : Sites) {
    const FunctionDecl *G = S.Enclosing;
    if (!G->hasBody() || G->isTemplated() || G->isTemplateInstantiation() ||
        Planned.count(G) ||
        !SM.isWrittenInMainFile(SM.getExpansionLoc(G->getLocation())))
      continue;
    ByFunction[G].push_back(&S);
  }
  std::vector<KeptAtCompute> Out;
  if (ByFunction.empty())
    return Out;
  PointerHolders Holders, Readers(/*ReadOnlyToo=*/true);
  HiddenCode Hidden;
  Hidden.Elsewhere = Host.ElsewhereHidden;
  LongLivedPlaces Places(Ctx);
  for (const auto &[G, Here] : ByFunction) {
    FunctionFlow Flow(Ctx, G, Here, Planned, Entries, Host, Holders, Readers,
                      Hidden, Places);
    for (KeptAtCompute &K : Flow.run(Loops))
      Out.push_back(std::move(K));
  }
  std::sort(Out.begin(), Out.end(),
            [&](const KeptAtCompute &A, const KeptAtCompute &B) {
              return SM.isBeforeInTranslationUnit(A.Statement->getBeginLoc(),
                                                  B.Statement->getBeginLoc());
            });
  if (Loops)
    std::sort(Loops->begin(), Loops->end(),
              [&](const LeftOnDeviceInLoop &A, const LeftOnDeviceInLoop &B) {
                return SM.isBeforeInTranslationUnit(A.Loop->getBeginLoc(),
                                                    B.Loop->getBeginLoc());
              });
  return Out;
}

bool ownedByCaller(const ValueDecl *Root, const FunctionDecl *Function) {
  return isa<ParmVarDecl>(Root) || Root == Function;
}

std::string keptSpelling(const ValueDecl *Root, const FieldPath &Path) {
  if (isa<FunctionDecl>(Root))
    return "this->" + pathSpelling(Path);
  std::string Name = Root->getNameAsString();
  if (Path.empty())
    return Name;
  return Name + (Root->getType()->isPointerType() ? "->" : ".") +
         pathSpelling(Path);
}

std::vector<ForgottenAtEntry>
forgottenAtEntry(const std::vector<KeptAtCompute> &Kept) {
  std::vector<ForgottenAtEntry> Out;
  std::map<const FunctionDecl *, size_t> At;
  auto Add = [&](const FunctionDecl *G, const ValueDecl *V,
                 const FieldPath &Path) {
    if (!ownedByCaller(V, G))
      return;
    auto [It, New] = At.try_emplace(G, Out.size());
    if (New)
      Out.push_back({G, {}, {}});
    ForgottenAtEntry &F = Out[It->second];
    for (size_t I = 0; I < F.Buffers.size(); ++I)
      if (F.Buffers[I] == V && F.Paths[I] == Path)
        return;
    F.Buffers.push_back(V);
    F.Paths.push_back(Path);
  };
  for (const KeptAtCompute &K : Kept) {
    for (size_t I = 0; I < K.Buffers.size(); ++I)
      Add(K.Function, K.Buffers[I], K.Paths[I]);
    for (size_t I = 0; I < K.Carried.size(); ++I)
      Add(K.Function, K.Carried[I], K.CarriedPaths[I]);
  }
  return Out;
}

std::map<const FunctionDecl *, std::set<const ValueDecl *>>
mayStayOnDevice(const std::vector<KeptAtCompute> &Kept) {
  std::map<const FunctionDecl *, std::set<const ValueDecl *>> Out;
  for (const KeptAtCompute &K : Kept)
    // An entry inline in a header is planned by every file including it,
    // and its copies must be the same: it starts as every compute does.
    if (K.Entry &&
        K.Entry->getASTContext().getSourceManager().isWrittenInMainFile(
            K.Entry->getASTContext().getSourceManager().getExpansionLoc(
                K.Entry->getLocation())))
      for (const ValueDecl *D : K.EntryDecls)
        if (D)
          Out[K.Entry].insert(D);
  return Out;
}

} // namespace ferry
