// Per-function host summaries (see HostAccess.h): a helper's events,
// folded into what it does to each Buffer parameter and buffer member.

#include "analyses/host/HostAccess.h"

#include "analyses/CallGraphs.h"
#include "analyses/paths/MemberSteps.h"
#include "model/FerryTypes.h"

#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ferry {

/// The one range every access of Events to the buffer Touched picks out
/// lies in, spelled in the function's entry values (the events are of a
/// whole body, so their texts mean what they mean before it): none when an
/// access is unbounded, escapes, may be another buffer too, or two differ.
/// It covers only when every access covers and none reads.
static std::optional<ElementRange>
commonRange(const std::vector<HostEvent> &Events,
            const std::function<bool(ObjectId)> &Touched) {
  std::optional<ElementRange> Range;
  bool Reads = false, Covers = true;
  for (const HostEvent &E : Events) {
    if (E.OnlyBinds ||
        std::none_of(E.Targets.Ids.begin(), E.Targets.Ids.end(), Touched))
      continue;
    if (E.Kind != HostEventKind::Access || E.Escapes || !E.Range ||
        !E.Targets.single() ||
        (Range && (Range->First != E.Range->First ||
                   Range->Count != E.Range->Count)))
      return std::nullopt;
    Range = E.Range;
    Reads = Reads || reads(E.Mode);
    Covers = Covers && E.Range->Covers;
  }
  if (Range) {
    Range->Covers = Covers && !Reads;
    Range->CoversIfFull = false;
  }
  return Range;
}

/// Whether F's body uses `this` other than as the base of a member
/// (`this->a`, `a`, `f()`) or, dereferenced, as a call's argument or the
/// value it returns (`helper(*this)`, `return *this;`).
static bool thisAliased(const FunctionDecl *F) {
  struct Find : RecursiveASTVisitor<Find> {
    ParentMap *Parents;
    bool Aliased = false;
    const Stmt *up(const Stmt *S) {
      const Stmt *P = Parents->getParent(S);
      while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
        P = Parents->getParent(P);
      return P;
    }
    bool VisitCXXThisExpr(CXXThisExpr *This) {
      const Stmt *P = up(This);
      if (isa_and_nonnull<MemberExpr>(P))
        return true;
      if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
          UO && UO->getOpcode() == UO_Deref) {
        const Stmt *Use = up(UO);
        if (isa_and_nonnull<ReturnStmt>(Use) || isa_and_nonnull<CallExpr>(Use) ||
            isa_and_nonnull<CXXConstructExpr>(Use))
          return true;
      }
      Aliased = true;
      return false;
    }
  } Finder;
  ParentMap Parents(F->getBody());
  Finder.Parents = &Parents;
  Finder.TraverseStmt(F->getBody());
  return Finder.Aliased;
}

const std::vector<Access> &HostSummaryCache::summary(const FunctionDecl *F) {
  auto It = Cache.find(F);
  if (It != Cache.end())
    return It->second;
  if (InProgress[F])
    return WorstCase.try_emplace(F, F->getNumParams(), Access::ReadWrite)
        .first->second;
  InProgress[F] = true;
  std::vector<Access> Result(F->getNumParams(), Access::None);
  // Element pointers and references (`float *p`, `float &x`): the kernel-side
  // summary already follows them.
  const std::vector<Access> &PointerSummary = Pointers.summary(F);
  ObjectTable Table(F);
  PointsTo Facts = Table.entryPointsTo();
  std::vector<HostEvent> Events =
      collectHostEvents(F->getBody(), Table, Facts, *this);
  std::vector<std::optional<ElementRange>> Ranges(F->getNumParams());
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    if (!refersToBuffer(P->getType())) {
      Result[I] = PointerSummary[I];
      continue;
    }
    auto Entry = Table.entryPointsTo().find(P);
    if (Entry == Table.entryPointsTo().end())
      continue;
    if (std::optional<ElementRange> R = commonRange(
            Events, [&](ObjectId Id) { return Entry->second.count(Id) != 0; }))
      Ranges[I] = R;
    // (A swap's other operand is swapped too: `std::swap(x, b)`.)
    for (const HostEvent &E : Events)
      for (const ObjectRefs *Refs : {&E.Targets, &E.Others})
        for (ObjectId Id : Refs->Ids)
          if (Entry->second.count(Id))
            Result[I] |= E.Kind == HostEventKind::Access && Refs == &E.Targets
                             ? E.Mode
                             : Access::ReadWrite;
  }
  // A helper that dispatches is planned on its own; to its callers it both
  // reads and writes what it is given.
  if (dispatchesDirectly(F))
    for (unsigned I = 0; I < F->getNumParams(); ++I)
      if (refersToBuffer(F->getParamDecl(I)->getType())) {
        Result[I] = Access::ReadWrite;
        Ranges[I].reset();
      }
  InProgress[F] = false;
  RangeCache[F] = std::move(Ranges);
  return Cache[F] = Result;
}

const std::vector<std::optional<ElementRange>> &
HostSummaryCache::ranges(const FunctionDecl *F) {
  summary(F);
  static const std::vector<std::optional<ElementRange>> None;
  auto It = RangeCache.find(F);
  return It != RangeCache.end() ? It->second : None;
}

std::map<FieldPath, Access>
HostSummaryCache::memberSummary(const CXXMethodDecl *M, bool Virtual) {
  std::map<FieldPath, Access> Result;
  const FunctionDecl *Def = M->getDefinition();
  bool Seen = Def && Def->hasBody() && !Virtual;
  if (Seen) {
    if (auto It = MemberCache.find(Def); It != MemberCache.end())
      return It->second;
  }
  std::vector<FieldPath> Reached = bufferPathsReached(M, Virtual);
  // Defined in another Ferry source: what its summary says of each path.
  if (!Def && !Virtual && ElsewhereMembers) {
    bool Known = true;
    for (const FieldPath &P : Reached)
      if (std::optional<ElsewhereMemberUse> Use = ElsewhereMembers(M, P)) {
        Result[P] = Use->Mode;
        if (Use->Escapes)
          ElsewhereEscapes[M->getCanonicalDecl()].insert(P);
      } else {
        Known = false;
      }
    if (Known)
      return Result;
    Result.clear();
  }
  // Unseen, recursive, or planned on its own (it dispatches): everything it
  // reaches is read and written, as far as its callers know.
  if (!Seen || InProgress[Def] || dispatchesDirectly(Def)) {
    for (const FieldPath &P : Reached)
      Result[P] = Access::ReadWrite;
    return Result;
  }
  InProgress[Def] = true;
  for (const FieldPath &P : Reached)
    Result[P] = Access::None;
  ObjectTable Table(Def);
  PointsTo Facts = Table.entryPointsTo();
  std::vector<HostEvent> Events =
      collectHostEvents(Def->getBody(), Table, Facts, *this);
  for (const HostEvent &E : Events) {
    Access Mode =
        E.Kind == HostEventKind::Access ? E.Mode : Access::ReadWrite;
    // A guess may be a buffer no path spells (an array of buffers in a
    // member): every such member holding buffers of its type.
    if (E.Targets.Guessed)
      for (const FieldPath &P : Reached)
        if (isOpaquePath(P)) {
          QualType Held = pathElement(P);
          if (Held.isNull() || E.Targets.Element.isNull() ||
              Held.getCanonicalType() ==
                  E.Targets.Element.getCanonicalType().getUnqualifiedType())
            Result[P] |= Mode;
        }
    for (const ObjectRefs *Refs : {&E.Targets, &E.Others})
      for (ObjectId Id : Refs->Ids) {
        const BufferObject &O = Table.object(Id);
        if (O.Base == Table.thisKey() && !O.Path.empty())
          Result[O.Path] |= Refs == &E.Targets ? Mode : Access::ReadWrite;
      }
    if (E.Escapes)
      for (ObjectId Id : E.Targets.Ids)
        if (const BufferObject &O = Table.object(Id);
            O.Base == Table.thisKey() && !O.Path.empty())
          MemberEscapes[Def].insert(O.Path);
  }
  // `this` used other than to name a member or call a method on it (bound
  // to a pointer or a reference, cast, const cast away): what is done
  // through that alias is not followed, so every buffer it reaches is read
  // and written, and may be kept.
  if (thisAliased(Def))
    for (const FieldPath &P : bufferPathsOf(M->getParent())) {
      Result[P] = Access::ReadWrite;
      MemberEscapes[Def].insert(P);
    }
  std::map<FieldPath, ElementRange> &Ranges = MemberRangeCache[Def];
  for (const FieldPath &P : Reached)
    if (std::optional<ElementRange> R =
            commonRange(Events, [&](ObjectId Id) {
              const BufferObject &O = Table.object(Id);
              return O.Base == Table.thisKey() && O.Path == P;
            }))
      Ranges[P] = *R;
  InProgress[Def] = false;
  return MemberCache[Def] = Result;
}

bool HostSummaryCache::memberEscapes(const CXXMethodDecl *M,
                                     const FieldPath &Path) {
  const FunctionDecl *Def = M->getDefinition();
  if (!Def || !Def->hasBody()) {
    // Another file's summary, where it has one; else the rule for code
    // Ferry cannot see answers for the call (HiddenCode).
    memberSummary(M, /*Virtual=*/false);
    auto It = ElsewhereEscapes.find(M->getCanonicalDecl());
    return It != ElsewhereEscapes.end() && It->second.count(Path);
  }
  memberSummary(M, /*Virtual=*/false);
  auto It = MemberEscapes.find(Def);
  return It != MemberEscapes.end() && It->second.count(Path);
}

/// Adds the element types another file's summary spells ("*": one this
/// unit cannot name, so any type).
static void addSpelledElements(std::vector<QualType> &Out, ASTContext &Ctx,
                               const std::vector<std::string> &Spellings) {
  for (const std::string &Spelling : Spellings)
    addElementOnce(Out,
                   Spelling == "*" ? QualType() : elementNamed(Ctx, Spelling));
}

/// A buffer of any type covers the others.
static void collapseToAnyType(std::vector<QualType> &Elements) {
  if (llvm::any_of(Elements, [](QualType T) { return T.isNull(); }))
    Elements = {QualType()};
}

const std::vector<QualType> &
HostSummaryCache::overriderBufferElements(const CXXMethodDecl *M) {
  const CXXRecordDecl *Base = M->getParent()->getCanonicalDecl();
  auto [It, Fresh] = OverriderElements.try_emplace(Base);
  if (!Fresh)
    return It->second;
  // Local classes count too: a class derived in a function body may be
  // the object a reference to the base denotes.
  struct Derived : RecursiveASTVisitor<Derived> {
    const CXXRecordDecl *Base;
    std::vector<const CXXRecordDecl *> Found;
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
      if (RD->isThisDeclarationADefinition() && !RD->isDependentType() &&
          RD->isDerivedFrom(Base))
        Found.push_back(RD);
      return true;
    }
  } Find;
  Find.Base = Base;
  Find.TraverseDecl(M->getASTContext().getTranslationUnitDecl());
  std::vector<QualType> &Out = It->second;
  auto Held = [&](const CXXRecordDecl *RD) {
    RD = RD->getCanonicalDecl();
    // What the base and its own bases hold is the base's paths' business.
    if (RD == Base || Base->isDerivedFrom(RD))
      return;
    for (QualType Element : ownBufferElements(RD))
      addElementOnce(Out, Element);
  };
  for (const CXXRecordDecl *D : Find.Found) {
    Held(D);
    D->forallBases([&](const CXXRecordDecl *B) {
      Held(B);
      return true;
    });
  }
  // Classes only another Ferry source defines: an object of one may reach
  // this unit as a reference to the base (`Stepper *makeBody()`).
  if (ElsewhereDerivedElements)
    addSpelledElements(Out, M->getASTContext(), ElsewhereDerivedElements(Base));
  collapseToAnyType(Out);
  return Out;
}

const std::vector<QualType> &
HostSummaryCache::callableElements(const FunctionDecl *Outer) {
  auto [It, Fresh] = CallableElements.try_emplace(Outer);
  if (!Fresh)
    return It->second;
  if (!Callables)
    Callables = callablesReachingBuffers(Outer->getASTContext());
  std::vector<QualType> &Out = It->second;
  for (const CallableReach &C : *Callables)
    if (!(C.MadeIn == Outer && C.FollowedByName))
      for (QualType Element : C.Elements)
        addElementOnce(Out, Element);
  if (ElsewhereCallableElements)
    addSpelledElements(Out, Outer->getASTContext(),
                       ElsewhereCallableElements());
  collapseToAnyType(Out);
  return Out;
}

std::optional<ElementRange>
HostSummaryCache::memberRange(const CXXMethodDecl *M, const FieldPath &Path) {
  const FunctionDecl *Def = M->getDefinition();
  if (!Def || !Def->hasBody())
    return std::nullopt;
  memberSummary(M, /*Virtual=*/false);
  auto It = MemberRangeCache.find(Def);
  if (It == MemberRangeCache.end())
    return std::nullopt;
  auto Field = It->second.find(Path);
  if (Field == It->second.end())
    return std::nullopt;
  return Field->second;
}

} // namespace ferry
