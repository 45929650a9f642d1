// Host events (see HostEvents.h): the walker that lists, in evaluation
// order, what host code does to buffers, with every C++ trap that hides an
// access (docs/analyze.md lists each rule).

#include "analyses/host/HostEvents.h"

#include "analyses/CallGraphs.h"
#include "analyses/objects/ContainerBuffers.h"
#include "analyses/host/CountedHostWrites.h"
#include "analyses/host/ElementRanges.h"
#include "analyses/host/FollowedPointers.h"
#include "analyses/host/HostAccess.h"
#include "analyses/host/HostAccessInternal.h"
#include "analyses/LoopShape.h"
#include "analyses/objects/MemberBuffers.h"
#include "analyses/MpiCalls.h"
#include "model/FerryTypes.h"
#include "model/StableOrder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

using namespace clang;

namespace ferry {

namespace {

/// What a standard algorithm does through the iterator in argument `Index`.
Access stdAlgorithmAccess(llvm::StringRef Name, unsigned Index,
                          unsigned NumArgs) {
  static const llvm::StringSet<> ReadOnly = {
      "accumulate", "reduce", "inner_product", "transform_reduce", "count",
      "count_if", "find", "find_if", "find_if_not", "equal", "all_of",
      "any_of", "none_of", "max_element", "min_element", "minmax_element",
      "mismatch", "lexicographical_compare", "search", "adjacent_find",
      "is_sorted", "binary_search", "lower_bound", "upper_bound",
      "equal_range", "distance", "max", "min", "begin", "end", "size"};
  static const llvm::StringSet<> CopyToThird = {
      "copy", "copy_if", "copy_backward", "move", "move_backward", "copy_n",
      "reverse_copy", "remove_copy", "remove_copy_if", "replace_copy",
      "replace_copy_if", "unique_copy", "partial_sum", "adjacent_difference",
      "exclusive_scan", "inclusive_scan"};
  static const llvm::StringSet<> FillRange = {"fill", "generate", "iota",
                                              "fill_n", "generate_n"};
  if (ReadOnly.contains(Name))
    return Access::Read;
  if (CopyToThird.contains(Name))
    return Index == 2 ? Access::Write : Access::Read;
  if (Name == "rotate_copy")
    return Index == 3 ? Access::Write : Access::Read;
  if (Name == "transform")
    return Index == (NumArgs == 4 ? 2u : 3u) ? Access::Write : Access::Read;
  if (FillRange.contains(Name))
    return Access::Write;
  return Access::ReadWrite;
}

/// A constructor or member function of a standard library class taking an
/// iterator, a template parameter, by value (`std::vector<float> v(b.begin(),
/// b.end())`, `v.assign(…)`, `v.insert(pos, …)`): a range it reads. Not
/// `istream::read(char *, n)`, whose pointer is written through.
bool isStdIteratorParameter(const FunctionDecl *F, unsigned Index) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(F);
  if (!M || !M->getParent()->isInStdNamespace())
    return false;
  const FunctionDecl *Pattern = M->getTemplateInstantiationPattern();
  if (!Pattern || Index >= Pattern->getNumParams())
    return false;
  QualType T = Pattern->getParamDecl(Index)->getType();
  return !T->isReferenceType() && T->getAs<TemplateTypeParmType>();
}

/// memcpy, memmove, memset, memcmp: what they do through pointer `Index`.
bool memoryFunctionAccess(const FunctionDecl *F, unsigned Index, Access &Mode) {
  if (!F || !F->getIdentifier())
    return false;
  const DeclContext *DC = F->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !F->isInStdNamespace())
    return false;
  llvm::StringRef N = F->getName();
  if (N == "memcpy" || N == "memmove")
    Mode = Index == 0 ? Access::Write : Access::Read;
  else if (N == "memset")
    Mode = Index == 0 ? Access::Write : Access::None;
  else if (N == "memcmp")
    Mode = Access::Read;
  else
    return false;
  return true;
}

/// T when `Ty` (through references and pointers) is a class template
/// specialization with ferry::Buffer<T> among its type arguments
/// (std::vector<Buffer<T>>, std::array<Buffer<T>, N>); null otherwise.
QualType containedBufferElement(QualType Ty) {
  Ty = Ty.getNonReferenceType();
  if (Ty->isPointerType())
    Ty = Ty->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Ty->getAsCXXRecordDecl());
  if (!Spec)
    return {};
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Type && isBufferType(A.getAsType()))
      return bufferElementType(A.getAsType());
  return {};
}

bool isPointerToConst(QualType T) {
  return T->isPointerType() && T->getPointeeType().isConstQualified();
}

/// `pair.x` for the buffer at `Path` in the struct argument Arg (`pair` or
/// `&pair`; `pair.inner.x` at depth), when that name denotes the same buffer
/// wherever the caller may place a line: `pair` is an object of its own
/// (not a reference or a pointer, which could be rebound), and `x` a buffer
/// or a reference to one (a pointer member could be reassigned; a
/// container is no buffer). Else "".
std::string memberSpelling(const Expr *Arg, const FieldPath &Path) {
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const FieldDecl *Leaf = Path.back();
  if (!V || V->getType()->isReferenceType() || V->getType()->isPointerType() ||
      !isBufferField(Leaf) || Leaf->getType()->isPointerType() ||
      !Leaf->getIdentifier())
    return "";
  return V->getNameAsString() + "." + pathSpelling(Path);
}

class HostWalker {
public:
  HostWalker(const ObjectTable &Table, PointsTo &Facts,
             HostSummaryCache &Summaries, const Stmt *Root)
      : Table(Table), Facts(Facts), Summaries(Summaries), Counts(Table),
        Ranges(Table, Root) {}

  std::vector<HostEvent> Events;

  void walkStmt(const Stmt *S) {
    if (!S)
      return;
    // Visiting a statement applies the aliasing of its sub-expressions as it
    // goes (each event sees the facts where it happens); the facts after it
    // are then applyAliasing's of the whole, from the facts before it, so
    // that nothing (`(std::swap(p, q), 0)`) is applied twice.
    if (const auto *E = dyn_cast<Expr>(S)) {
      PointsTo Before = Facts;
      visitValue(E);
      Facts = std::move(Before);
      applyAliasing(S, Table, Facts);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      PointsTo Before = Facts;
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          visitVarDecl(V);
      Facts = std::move(Before);
      applyAliasing(S, Table, Facts);
      return;
    }
    // Control flow: each part sees the facts that hold where it runs; the
    // facts after the statement are applyAliasing's join of its paths.
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      PointsTo Saved = Facts;
      walkStmt(If->getInit());
      if (If->getConditionVariableDeclStmt())
        walkStmt(If->getConditionVariableDeclStmt());
      else
        walkStmt(If->getCond());
      PointsTo Before = Facts;
      walkStmt(If->getThen());
      Facts = Before;
      walkStmt(If->getElse());
      Facts = Saved;
      applyAliasing(S, Table, Facts);
      return;
    }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
        isa<CXXForRangeStmt>(S))
      return walkLoop(S);
    if (const auto *Ret = dyn_cast<ReturnStmt>(S);
        Ret && Ret->getRetValue() &&
        refersToBuffer(Ret->getRetValue()->getType()) &&
        !Ret->getRetValue()->isPRValue()) {
      // `return c ? x : y;` from a function returning Buffer<T>&: the
      // caller gets a name for the buffer, not its elements.
      return visitAliasInit(Ret->getRetValue());
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      PointsTo Saved = Facts;
      walkStmt(Switch->getInit());
      if (Switch->getConditionVariableDeclStmt())
        walkStmt(Switch->getConditionVariableDeclStmt());
      else
        walkStmt(Switch->getCond());
      PointsTo Before = Facts;
      auto Case = [&](const Stmt *Child) {
        while (const auto *SC = dyn_cast_or_null<SwitchCase>(Child)) {
          joinFacts(Facts, Before);
          Child = SC->getSubStmt();
        }
        walkStmt(Child);
      };
      if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Switch->getBody()))
        for (const Stmt *Child : CS->body())
          Case(Child);
      else
        Case(Switch->getBody());
      Facts = Saved;
      applyAliasing(S, Table, Facts);
      return;
    }
    for (const Stmt *Child : S->children())
      walkStmt(Child);
  }

private:
  ASTContext &Ctx() const { return Table.function()->getASTContext(); }

  void walkLoop(const Stmt *S) {
    PointsTo Saved = Facts;
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      walkStmt(For->getInit());
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      walkStmt(RF->getInit());
      const Expr *Range = RF->getRangeInit();
      if (Range && isBufferType(Range->getType())) {
        QualType VarType = RF->getLoopVariable()->getType();
        bool MayWrite = VarType->isReferenceType() &&
                        !VarType.getNonReferenceType().isConstQualified();
        add(Range, Range, MayWrite ? Access::ReadWrite : Access::Read,
            MayWrite ? "iterated by reference" : "iterated");
        LoopElements.insert(RF->getLoopVariable());
      } else if (Range) {
        visitValue(Range);
      }
      applyAliasing(RF->getRangeStmt(), Table, Facts);
      applyAliasing(RF->getBeginStmt(), Table, Facts);
      applyAliasing(RF->getEndStmt(), Table, Facts);
    }
    // The body sees the facts of every iteration.
    Facts = loopHeadFacts(S, Table, Facts);
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      size_t First = Events.size();
      std::vector<const Expr *> Counted = Counts.countedStores(For);
      walkStmt(For->getConditionVariableDeclStmt());
      walkStmt(For->getCond());
      walkStmt(For->getBody());
      walkStmt(For->getInc());
      Counts.keepCountsOfSoleAccesses(Events, First, Counted);
      // A running index's store writes what the two loops count.
      for (size_t K = First; K < Events.size(); ++K)
        if (Events[K].CountingLoop == For && Events[K].WrittenCountInner &&
            !Events[K].Escapes)
          Events[K].Range = Ranges.countedRange(Events[K]);
      Ranges.loopWalked(For, Events, First);
    } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
      if (W->getConditionVariableDeclStmt())
        walkStmt(W->getConditionVariableDeclStmt());
      else
        walkStmt(W->getCond());
      walkStmt(W->getBody());
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      walkStmt(Do->getBody());
      walkStmt(Do->getCond());
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      // The loop variable binds an element; uses through it are its own.
      applyAliasing(RF->getLoopVarStmt(), Table, Facts);
      walkStmt(RF->getBody());
    }
    Facts = Saved;
    applyAliasing(S, Table, Facts);
  }

  // --- recording -------------------------------------------------------------
  void push(HostEvent E) {
    E.Escapes = E.Escapes || Escaping;
    // A guess is kept even when the table has no object of its type: the
    // buffer is one Ferry cannot name, and its access must still be planned
    // (through the run-time state), never dropped.
    if (!E.Targets.Ids.empty() || E.Targets.Guessed)
      Events.push_back(std::move(E));
  }

  void add(const Expr *Site, const Expr *Buffer, Access Mode, std::string What,
           bool Overwrites = false, bool Escapes = false) {
    if (Mode == Access::None)
      return;
    HostEvent E;
    E.Site = Site;
    E.Buffer = Buffer;
    E.Targets = Table.resolve(Buffer, Facts);
    E.Mode = Mode;
    E.Overwrites = Overwrites;
    E.Escapes = Escapes;
    E.What = std::move(What);
    push(std::move(E));
  }

  void addRaw(const Expr *Site, const std::set<ObjectId> &Targets, Access Mode,
              std::string What, bool Escapes = false) {
    if (Mode == Access::None)
      return;
    HostEvent E;
    E.Site = Site;
    E.Targets.Ids = Targets;
    E.Mode = Mode;
    E.Escapes = Escapes;
    E.What = std::move(What);
    push(std::move(E));
  }

  void addKind(HostEventKind Kind, const Expr *Buffer, std::string What) {
    HostEvent E;
    E.Kind = Kind;
    E.Site = Buffer;
    E.Buffer = Buffer;
    E.Targets = Table.resolve(Buffer, Facts);
    E.What = std::move(What);
    push(std::move(E));
  }

  /// The elements touched by the one event added since Before, the element
  /// `Pointer[Index]` (or `b[Index]`) at Site.
  void elementRange(size_t Before, const Expr *Site, const Expr *Pointer,
                    const Expr *Index, Access Mode) {
    if (Events.size() != Before + 1 || Mode == Access::None ||
        Events.back().Kind != HostEventKind::Access || Events.back().Escapes)
      return;
    Events.back().Range =
        Ranges.element(Site, Pointer, Index, Mode == Access::Write);
  }

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

  // --- declarations ----------------------------------------------------------
  void visitVarDecl(const VarDecl *V) {
    const Expr *Init = V->getInit();
    QualType T = V->getType();
    if (isBufferType(T)) {
      const BufferObject *Local = Table.localFor(V);
      const auto *Construct =
          Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
      bool FromBuffer = Construct && Construct->getNumArgs() == 1 &&
                        isBufferType(Construct->getArg(0)->getType());
      if (Local) {
        HostEvent E;
        E.Kind = FromBuffer ? HostEventKind::Reset : HostEventKind::Create;
        E.Site = Init;
        E.Targets.Ids = {Local->Id};
        E.What = FromBuffer ? "moved into" : "created";
        push(E);
      }
      if (FromBuffer)
        addKind(HostEventKind::Reset, Construct->getArg(0), "moved from");
      else if (Init)
        visitValue(Init);
      return;
    }
    // A local container of buffers starts with new ones (host-valid).
    if (const BufferObject *C = Table.containerLocal(V)) {
      HostEvent E;
      E.Kind = HostEventKind::Create;
      E.Site = Init;
      E.Targets.Ids = {C->Id};
      E.What = "created";
      push(E);
    }
    // A local object that owns buffers (`Sim sim(n);`) creates them.
    for (ObjectId Id : Table.membersOfLocal(V)) {
      HostEvent E;
      E.Kind = HostEventKind::Create;
      E.Site = Init;
      E.Targets.Ids = {Id};
      E.What = "created with its object";
      push(E);
    }
    if (!Init)
      return;
    if (refersToBuffer(T))
      return visitAliasInit(Init); // `Buffer<T> &r = …`, `Buffer<T> *p = …`
    if (T->isPointerType())
      return bindPointer(V, Init);
    if (T->isReferenceType())
      return visitLValue(Init, Access::None); // an element reference
    visitValue(Init);
  }

  /// What a reference or pointer to a buffer is bound to: the buffers are
  /// not accessed, only named (conditions and indexes inside are).
  void visitAliasInit(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      visitAliasInit(CO->getTrueExpr());
      return visitAliasInit(CO->getFalseExpr());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref))
      return visitAliasInit(UO->getSubExpr());
    if (isa<DeclRefExpr>(E) || isa<CXXNullPtrLiteralExpr>(E) ||
        isa<GNUNullExpr>(E) || isa<IntegerLiteral>(E))
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(E);
        ME && isBufferType(ME->getType()))
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAssignmentOp()) {
      visitValue(BO);
      return;
    }
    visitValue(E);
  }

  // --- pointers into buffers -------------------------------------------------
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
  void consumePointer(const Expr *E, Use U, Access Mode = Access::None,
                      bool ToConst = false) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      if (CE->getCastKind() == CK_ArrayToPointerDecay)
        return visitLValue(CE->getSubExpr(),
                           U == Use::Element ? Mode : Access::None);
      if (CE->getCastKind() == CK_LValueToRValue)
        return pointerVariable(CE->getSubExpr(), E, U, Mode);
      bool Const = ToConst || isPointerToConst(CE->getType());
      if (CE->getCastKind() == CK_PointerToBoolean)
        U = Use::Compare;
      return consumePointer(CE->getSubExpr(), U, Mode, Const);
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
        MC && isBufferElementAccessor(MC)) {
      const Expr *Object = MC->getImplicitObjectArgument();
      std::string Name = MC->getMethodDecl()->getNameAsString();
      if (U == Use::Element)
        return add(E, Object, Mode,
                   std::string("elements ") + modeWord(Mode) + " through " +
                       Name + "()");
      if (U == Use::Compare)
        return;
      bool Const = ToConst || isPointerToConst(MC->getType());
      if (Const)
        return add(E, Object, Access::Read,
                   Name + "() read through a pointer to const");
      add(E, Object, Access::ReadWrite,
          Name + "() hands out a pointer to its elements", false,
          /*Escapes=*/true);
      return markBinding(E);
    }
    if (isa<DeclRefExpr>(E))
      return pointerVariable(E, E, U, Mode);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp() && BO->getType()->isPointerType()) {
        bool LeftPtr = BO->getLHS()->getType()->isPointerType();
        consumePointer(LeftPtr ? BO->getLHS() : BO->getRHS(), U, Mode, ToConst);
        return visitValue(LeftPtr ? BO->getRHS() : BO->getLHS());
      }
      if (BO->isCommaOp()) {
        visitValue(BO->getLHS());
        return consumePointer(BO->getRHS(), U, Mode, ToConst);
      }
      if (BO->isAssignmentOp()) {
        visitValue(BO);
        std::set<ObjectId> Ids;
        if (U == Use::Element &&
            rawPointerTargets(BO->getRHS(), Table, Facts, Ids))
          addRaw(E, Ids, Mode, std::string("element ") + modeWord(Mode));
        return;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return consumePointer(UO->getSubExpr(), U, Mode, ToConst);
      if (UO->getOpcode() == UO_AddrOf) {
        const Expr *Sub = UO->getSubExpr()->IgnoreParens();
        if (U == Use::Element)
          return visitLValue(Sub, Mode);
        visitLValue(Sub, Access::None);
        // `&b[i]` kept: like data(), the buffer escapes.
        const auto *Op = dyn_cast<CXXOperatorCallExpr>(Sub);
        if (U == Use::Store && Op && Op->getOperator() == OO_Subscript &&
            isBufferType(Op->getArg(0)->getType())) {
          add(E, Op->getArg(0), ToConst ? Access::Read : Access::ReadWrite,
              ToConst ? "an element's address read through a pointer to const"
                      : "an element's address is kept",
              false, !ToConst);
          markBinding(E);
        }
        return;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      consumePointer(CO->getTrueExpr(), U, Mode, ToConst);
      return consumePointer(CO->getFalseExpr(), U, Mode, ToConst);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return callResult(Call, U, Mode);
    if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E) ||
        isa<IntegerLiteral>(E))
      return;
    visitValue(E);
  }

  /// A pointer variable's value used as `U` (Site is the use).
  void pointerVariable(const Expr *Var, const Expr *Site, Use U, Access Mode) {
    Var = Var->IgnoreParens();
    const auto *DRE = dyn_cast<DeclRefExpr>(Var);
    if (!DRE) {
      // A pointer kept in an array or a struct: its storage is read.
      return visitLValue(Var, Access::Read);
    }
    if (U != Use::Element)
      return;
    std::set<ObjectId> Ids;
    size_t Before = Events.size();
    if (rawPointerTargets(DRE, Table, Facts, Ids))
      addRaw(Site, Ids, Mode,
             std::string("element ") + modeWord(Mode) + " through '" +
                 DRE->getDecl()->getNameAsString() + "'");
    // `float *p = u->data();`: a line before the statement names the buffer
    // as `*u`, whichever buffer u points to then.
    if (const auto *P = dyn_cast<VarDecl>(DRE->getDecl());
        P && Events.size() == Before + 1)
      Events.back().Spelling = Ranges.pointeeSpelling(P);
  }

  /// A pointer or reference a call returns: std algorithms return iterators
  /// into their ranges, helpers pointers into their arguments.
  void callResult(const CallExpr *Call, Use U, Access Mode) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
        MC && isBufferElementAccessor(MC))
      return consumePointer(Call, U, Mode);
    visitCall(Call);
    if (U != Use::Element || Mode == Access::None)
      return;
    std::set<ObjectId> Ids;
    if (rawPointerTargets(Call, Table, Facts, Ids))
      return addRaw(Call, Ids, Mode,
                    std::string("element ") + modeWord(Mode) +
                        " through the iterator it returns");
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMemberCallExpr>(Call) ||
        isa<CXXOperatorCallExpr>(Call) || !Callee->getDefinition() ||
        !Callee->getDefinition()->hasBody() || inSystemHeader(Callee))
      return;
    Callee = Callee->getDefinition();
    for (unsigned I : Summaries.pointers().returnsInto(Callee)) {
      if (I >= Call->getNumArgs() || I >= Callee->getNumParams())
        continue;
      if (Callee->getParamDecl(I)->getType()->isReferenceType())
        visitLValue(Call->getArg(I), Mode);
      else
        consumePointer(Call->getArg(I), Use::Element, Mode);
    }
  }

  /// `float *p = Init` or `p = Init`: the pointer kept; when every use of p
  /// is followed (FollowedPointers.h), only a binding.
  void bindPointer(const VarDecl *P, const Expr *Init) {
    const VarDecl *Saved = Binding;
    Binding = P && everyUseFollowed(P, Table.function()) ? P : nullptr;
    consumePointer(Init, Use::Store);
    Binding = Saved;
  }

  /// The escape just added at Site hands out the pointer being bound.
  void markBinding(const Expr *Site) {
    if (Binding && !Events.empty() && Events.back().Site == Site &&
        Events.back().Escapes && !Escaping)
      Events.back().OnlyBinds = true;
  }

  // --- calls -----------------------------------------------------------------
  void visitCall(const CallExpr *Call) {
    // What a call's arguments hand out is the call's, not a binding's.
    struct NoBinding {
      const VarDecl *&B, *Saved;
      ~NoBinding() { B = Saved; }
    } Scope{Binding, Binding};
    Binding = nullptr;
    // A dispatch's buffers are the planner's business, not host accesses;
    // its range and scalar arguments are evaluated on the host
    // (`cc.dispatch(k, ferry::Range(n), out, in[0])` reads `in`).
    if (isDispatchCall(Call)) {
      // Scalars bind to forwarding references and reach the kernel by value.
      for (unsigned I = 1; I < Call->getNumArgs(); ++I) {
        const Expr *Arg = Call->getArg(I);
        if (refersToBuffer(Arg->getType()))
          continue;
        if (Arg->isGLValue())
          visitLValue(Arg, Access::Read);
        else
          visitValue(Arg);
      }
      return;
    }
    // MPI's functions touch only the buffers they are given, over their
    // counts.
    if (const MpiFunction *M = mpiFunction(Call->getDirectCallee()))
      return visitMpiCall(Call, *M);
    globalEffects(Call);
    memberEffects(Call);
    // `levels.push_back(…)`, `levels.erase(…)`: which buffer is where, and
    // in which state, is the run's business from here on.
    if (const Expr *Container = nullptr; changesElements(Call, Container))
      if (const BufferObject *C = Table.containerFor(Container)) {
        HostEvent E;
        E.Kind = HostEventKind::Reset;
        E.Site = Call;
        E.Targets.Ids = {C->Id};
        E.Targets.Exact = false;
        E.What = "elements changed";
        push(E);
      }
    // A lambda made earlier, called now: what it captured is touched now.
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
        M && M->getParent()->isLambda())
      capturedBuffers(M->getParent(), Call, "used by a lambda called here");
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned NumArgs = Call->getNumArgs();
    bool Member = isa<CXXMemberCallExpr>(Call) ||
                  (isa<CXXOperatorCallExpr>(Call) && Callee &&
                   isa<CXXMethodDecl>(Callee));
    if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
        Callee->getName() == "swap" && NumArgs == 2 &&
        isBufferType(Call->getArg(0)->getType())) {
      HostEvent E;
      E.Kind = HostEventKind::Swap;
      E.Site = Call;
      E.Targets = Table.resolve(Call->getArg(0), Facts);
      E.Others = Table.resolve(Call->getArg(1), Facts);
      E.What = "swapped";
      push(E);
      return;
    }
    if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
        !Member)
      return visitStdAlgorithm(Call, Callee->getName());
    if (Access Ignored; memoryFunctionAccess(Callee, 0, Ignored))
      return visitMemoryCall(Call);

    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const Expr *Object = MC->getImplicitObjectArgument();
      if (Object && refersToBuffer(Object->getType())) {
        llvm::StringRef Name = MC->getMethodDecl()->getIdentifier()
                                   ? MC->getMethodDecl()->getName()
                                   : "";
        if (Name == "size" || Name == "bytes" || Name == "empty")
          return;
        if (isBufferElementAccessor(MC))
          return consumePointer(Call, Use::Store);
        return add(Call, Object, Access::ReadWrite, Name.str() + "() called",
                   false, true);
      }
      // A member of another class (`v.push_back(b[0])`): the object is
      // the class's business; arguments bind to parameters below.
      if (Object)
        visitValue(Object);
    }

    // A function Ferry can see: its own summary. One it cannot (or a
    // library's): read, and written too unless the parameter is const.
    const std::vector<Access> *Summary = nullptr;
    if (Callee && Callee->getDefinition() &&
        Callee->getDefinition()->hasBody() && !inSystemHeader(Callee) &&
        !isVirtualCall(Call))
      Summary = &Summaries.summary(Callee->getDefinition());
    else if (Callee && !Callee->getDefinition() && Summaries.Elsewhere &&
             !inSystemHeader(Callee) && !isVirtualCall(Call))
      Summary = Summaries.Elsewhere(Callee);
    unsigned ArgBase = isa<CXXOperatorCallExpr>(Call) && Member ? 1 : 0;
    if (ArgBase)
      visitValue(Call->getArg(0));
    std::string Name = Callee ? Callee->getNameAsString() : "a function";
    for (unsigned I = ArgBase; I < NumArgs; ++I) {
      const Expr *Arg = Call->getArg(I);
      unsigned P = I - ArgBase;
      QualType ParamType;
      if (Callee && P < Callee->getNumParams())
        ParamType = Callee->getParamDecl(P)->getType();
      bool ConstParam =
          !ParamType.isNull() &&
          ((ParamType->isReferenceType() &&
            ParamType.getNonReferenceType().isConstQualified()) ||
           isPointerToConst(ParamType));
      Access Mode = ConstParam ? Access::Read : Access::ReadWrite;
      bool Escapes = !Summary && !ConstParam;
      if (memoryFunctionAccess(Callee, P, Mode))
        Escapes = false;
      else if (Summary && P < Summary->size())
        Mode = (*Summary)[P];
      // A variadic argument (printf's) has no parameter: a non-pointer
      // prvalue there is a copy, so `b[1]` is only read.
      bool ByValue = ParamType.isNull()
                         ? Arg->isPRValue() && !Arg->getType()->isPointerType()
                         : !ParamType->isReferenceType() &&
                               !ParamType->isPointerType();
      std::string What = "passed to " + Name + "()";
      if (isStdIteratorParameter(Callee, P) &&
          Arg->getType()->isPointerType()) {
        consumePointer(Arg, Use::Element, Access::Read);
        continue;
      }
      if (ByValue) {
        visitValue(Arg);
        continue;
      }
      if (refersToBuffer(Arg->getType())) {
        visitAliasInit(Arg);
        size_t Before = Events.size();
        add(Arg, Arg, Mode, What, false, Escapes);
        // A helper that touches only a bounded part of what it is given:
        // that part, in the call's arguments.
        if (Summary && Events.size() == Before + 1 && Callee) {
          if (Callee->getDefinition() && Callee->getDefinition()->hasBody() &&
              Summary == &Summaries.summary(Callee->getDefinition()))
            Events.back().Range =
                calleeRange(Call, Callee->getDefinition(), P, ArgBase);
          else if (!Callee->getDefinition() && Summaries.ElsewhereRanges)
            if (const auto *Ranges = Summaries.ElsewhereRanges(Callee);
                Ranges && P < Ranges->size() && (*Ranges)[P])
              Events.back().Range = atCall(*(*Ranges)[P], Call, Callee, ArgBase);
        }
        continue;
      }
      std::vector<FieldPath> Paths;
      std::vector<ObjectRefs> Members = Table.membersOf(Arg, Facts, &Paths);
      if (!Members.empty()) {
        visitAliasInit(Arg);
        for (std::size_t M = 0; M < Members.size(); ++M) {
          const ObjectRefs &R = Members[M];
          HostEvent E;
          E.Site = Arg;
          // A member this function may not name (private) has no spelling:
          // the run-time state reaches it (TransferFunction's safety net).
          if (pathNameableIn(Paths[M], Table.function()))
            E.Spelling = memberSpelling(Arg, Paths[M]);
          E.Targets = R;
          E.Mode = Mode;
          E.Escapes = Escapes;
          E.What = What + ", a buffer member";
          if (Mode != Access::None)
            push(std::move(E));
        }
        continue;
      }
      if (QualType Element = containedBufferElement(Arg->getType());
          !Element.isNull()) {
        // A container of buffers (std::vector<Buffer<T>>&): any of them,
        // and the whole container where the table has it.
        HostEvent E;
        E.Site = Arg;
        E.Targets = Table.anyBufferOf(Element);
        if (const BufferObject *C = Table.containerFor(Arg)) {
          E.Buffer = Arg;
          E.Targets.Ids = {C->Id};
          E.Targets.Guessed = false;
        }
        E.Mode = Mode;
        E.Escapes = Escapes;
        E.What = What + ", a container of buffers";
        if (Mode != Access::None)
          push(std::move(E));
        continue;
      }
      EscapeScope Scope(*this, Escapes);
      if (Arg->getType()->isPointerType())
        consumePointer(Arg, Use::Element, Mode);
      else
        visitLValue(Arg, Mode);
    }
  }

  /// The range the callee's summary gives its parameter `Param`
  /// (HostSummaryCache::ranges), with each of the callee's parameters
  /// spelled as the call's argument means it before the root; none where a
  /// name in it is not a parameter (a global, which the call site may
  /// shadow) or an argument has no such spelling (a side effect, a
  /// narrowing conversion, a variable the root changes first). It covers
  /// only when the call runs whenever the root does.
  std::optional<ElementRange> calleeRange(const CallExpr *Call,
                                          const FunctionDecl *Callee,
                                          unsigned Param, unsigned ArgBase) {
    const std::vector<std::optional<ElementRange>> &Ranges =
        Summaries.ranges(Callee);
    if (Param >= Ranges.size() || !Ranges[Param])
      return std::nullopt;
    return atCall(*Ranges[Param], Call, Callee, ArgBase);
  }

  /// A range in the callee's parameters, in the call's arguments.
  std::optional<ElementRange> atCall(ElementRange R, const CallExpr *Call,
                                     const FunctionDecl *Callee,
                                     unsigned ArgBase) {
    std::map<std::string, std::string> Arguments;
    for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
      if (I + ArgBase >= Call->getNumArgs())
        break;
      if (std::optional<RangeText> Text =
              this->Ranges.spell(Call->getArg(I + ArgBase)))
      {
        std::string Spelled = Text->Binds == RangeText::Primary
                                  ? Text->Text
                                  : "(" + Text->Text + ")";
        if (!Callee->getParamDecl(I)->getName().empty())
          Arguments[Callee->getParamDecl(I)->getNameAsString()] = Spelled;
        Arguments["__ferry_param_" + std::to_string(I)] = Spelled;
      }
    }
    if (!substituteNames(R.First, Arguments) || !substituteNames(R.Count, Arguments))
      return std::nullopt;
    R.FirstConst.reset();
    R.CountConst.reset();
    auto number = [](const std::string &T) -> std::optional<long long> {
      if (T.empty() || T.size() > 18 ||
          !std::all_of(T.begin(), T.end(),
                       [](unsigned char C) { return std::isdigit(C); }))
        return std::nullopt;
      return std::stoll(T);
    };
    // `ferry::tripCount(0, count)` given a constant count is that number.
    static const llvm::Regex Trips(
        "^ferry::tripCount\\(\\(?(-?[0-9]+)\\)?, \\(?(-?[0-9]+)\\)?\\)$");
    llvm::SmallVector<llvm::StringRef, 3> Bounds;
    if (Trips.match(R.Count, &Bounds) && Bounds[1].size() < 18 &&
        Bounds[2].size() < 18) {
      long long Trip = std::stoll(Bounds[2].str()) - std::stoll(Bounds[1].str());
      R.Count = std::to_string(Trip > 0 ? Trip : 0);
    }
    R.FirstConst = number(R.First);
    R.CountConst = number(R.Count);
    R.Covers = R.Covers && this->Ranges.runsWhenever(Call);
    return R;
  }

  /// memcpy, memmove, memset, memcmp: what they do through each pointer,
  /// over the bytes their count says. What they read is listed first:
  /// memmove reads its source before the destination, which may overlap it,
  /// is written.
  void visitMemoryCall(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    size_t First = Events.size();
    const Expr *Bytes = Call->getNumArgs() == 3 ? Call->getArg(2) : nullptr;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      Access Mode = Access::None;
      memoryFunctionAccess(Callee, I, Mode);
      if (Mode == Access::None || !Arg->getType()->isPointerType()) {
        visitValue(Arg);
        continue;
      }
      size_t Before = Events.size();
      consumePointer(Arg, Use::Element, Mode);
      if (Events.size() != Before + 1 || Events.back().Escapes || !Bytes)
        continue;
      bool Exact = false;
      std::optional<RangeText> Offset = Ranges.offsetOf(Arg);
      std::optional<RangeText> Count =
          Offset ? Ranges.elementsIn(Bytes, ElementRanges::pointee(Arg), Exact)
                 : std::nullopt;
      if (Count)
        Events.back().Range =
            Ranges.span(Arg, *Offset, *Count, Mode == Access::Write && Exact);
    }
    stablePartition(Events, First, [](const HostEvent &E) {
      return E.Kind == HostEventKind::Access && !writes(E.Mode);
    });
  }

  /// An MPI call (MpiCalls.h): its counts, ranks and statuses are evaluated
  /// first; then what it sends is read and what it receives written, over
  /// [offset, offset + count) when the datatype is the buffer's element
  /// type (or MPI_BYTE), all of the buffer otherwise. Sends come before
  /// receives, so that one buffer both sent from and received into
  /// (`MPI_Sendrecv(p + N, …, p, …)`) is read before it is written.
  void visitMpiCall(const CallExpr *Call, const MpiFunction &M) {
    unsigned NumArgs = Call->getNumArgs();
    std::string Name = Call->getDirectCallee()->getNameAsString();
    std::set<unsigned> BufferArgs;
    for (const MpiBuffer &B : M.Buffers)
      BufferArgs.insert(B.Buffer);
    for (unsigned I = 0; I < NumArgs; ++I)
      if (!BufferArgs.count(I))
        visitValue(Call->getArg(I));
    bool InPlace = false;
    for (const MpiBuffer &B : M.Buffers)
      InPlace = InPlace || (B.MayBeInPlace && B.Buffer < NumArgs &&
                            isMpiInPlace(Call->getArg(B.Buffer), Ctx()));
    for (bool Sends : {true, false})
      for (const MpiBuffer &B : M.Buffers) {
        if ((B.Role == MpiRole::Send) != Sends || B.Buffer >= NumArgs ||
            B.Count >= NumArgs || B.Type >= NumArgs)
          continue;
        const Expr *Arg = Call->getArg(B.Buffer);
        if (isMpiInPlace(Arg, Ctx()))
          continue;
        Access Mode = Access::Read;
        bool Covers = false, CoversIfFull = false;
        std::string What = "sent by " + Name + "()";
        switch (B.Role) {
        case MpiRole::Send:
          break;
        case MpiRole::Receive:
          Mode = Access::Write;
          CoversIfFull = true;
          What = "received by " + Name + "()";
          break;
        case MpiRole::ReceiveAll:
          Mode = Access::Write;
          Covers = true;
          What = "received by " + Name + "()";
          break;
        case MpiRole::ReceiveAtRoot:
          Mode = Access::Write;
          What = "received by " + Name + "() at the root";
          break;
        case MpiRole::SendReceive:
          Mode = Access::ReadWrite;
          What = "sent and received by " + Name + "()";
          break;
        }
        // MPI_IN_PLACE: the receive buffer is the send buffer too.
        if (InPlace && Mode == Access::Write) {
          Mode = Access::ReadWrite;
          Covers = CoversIfFull = false;
          What = "sent and received (in place) by " + Name + "()";
        }
        // Counted in elements of the buffer, in its bytes, or not known.
        MpiDatatype Type = mpiDatatype(Call->getArg(B.Type), Ctx());
        QualType Element = ElementRanges::pointee(Arg);
        std::optional<RangeText> Count, Offset;
        bool Exact = false;
        if (!B.PerRank && Type.Known && Type.Bytes) {
          Count = Ranges.elementsIn(Call->getArg(B.Count), Element, Exact);
        } else if (!B.PerRank && Type.Known && !Element.isNull() &&
                   Ctx().hasSameUnqualifiedType(Type.Element, Element)) {
          // A negative count is an error MPI reports, not an empty range.
          Count = Ranges.spell(Call->getArg(B.Count));
          Exact = true;
        } else if (!B.PerRank && Mode == Access::Write) {
          // Elements of a type Ferry cannot size: any of them may change.
          Mode = Access::ReadWrite;
          Covers = CoversIfFull = false;
        }
        if (Count)
          Offset = Ranges.offsetOf(Arg);
        size_t Before = Events.size();
        consumePointer(Arg, Use::Element, Mode);
        for (size_t K = Before; K < Events.size(); ++K)
          Events[K].What = What;
        if (Events.size() != Before + 1 || Events.back().Escapes || !Offset)
          continue;
        ElementRange R = Ranges.span(Arg, *Offset, *Count, false);
        bool Always = Ranges.runsWhenever(Arg);
        R.Covers = Covers && Exact && Always;
        R.CoversIfFull = CoversIfFull && Exact && Always;
        Events.back().Range = R;
      }
  }

  /// The buffers a lambda's closure captures, read and written where it is
  /// made and again where it is called: named by the captured variable
  /// (an implicit capture has no text of its own to spell).
  void capturedBuffers(const CXXRecordDecl *Closure, const Expr *Site,
                       const char *What) {
    if (!Closure || !Closure->isLambda())
      return;
    for (const LambdaCapture &C : Closure->captures()) {
      const auto *V = C.capturesVariable()
                          ? dyn_cast<VarDecl>(C.getCapturedVar())
                          : nullptr;
      if (!V || !refersToBuffer(V->getType()))
        continue;
      QualType T = V->getType().getNonReferenceType();
      bool Pointer = T->isPointerType();
      HostEvent Ev;
      Ev.Site = Site;
      Ev.Spelling = (Pointer ? "*" : "") + V->getNameAsString();
      if (auto It = Facts.find(V); It != Facts.end())
        Ev.Targets = pointsToObjects(
            It->second, bufferElementType(Pointer ? T->getPointeeType() : T));
      else
        Ev.Targets = Table.anyBufferOf(
            bufferElementType(Pointer ? T->getPointeeType() : T));
      Ev.Mode = Access::ReadWrite;
      Ev.Escapes = true;
      Ev.What = What;
      push(std::move(Ev));
    }
  }

  /// A call that may run an override of its callee, which Ferry does not
  /// look at (`h.run(v)` through a reference or pointer to a base).
  static bool isVirtualCall(const CallExpr *Call) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
    if (!M || !M->isVirtual())
      return false;
    if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
        ME && ME->hasQualifier())
      return false; // `h.Base::run(v)` calls that very function
    return !M->hasAttr<FinalAttr>() && !M->getParent()->hasAttr<FinalAttr>();
  }

  /// A method called on an object (`bump()` on `this`, `sim.step(cc)`):
  /// what it does to the object's buffer members, by the method's summary;
  /// on an object Ferry cannot name (`sims[i].step(cc)`), to any buffer of
  /// each member's type.
  void memberEffects(const CallExpr *Call) {
    MemberCallTarget Target;
    if (!memberCallTarget(Call, Target))
      return;
    const ValueDecl *Base = Target.OnThis ? Table.thisKey() : Target.Variable;
    for (const auto &[Path, Mode] :
         Summaries.memberSummary(Target.Method, Target.Virtual)) {
      if (Mode == Access::None)
        continue;
      HostEvent E;
      E.Site = Call;
      const BufferObject *O = Base && !isOpaquePath(Path)
                                  ? Table.memberFor(Base, Path)
                                  : nullptr;
      if (O) {
        E.Targets.Ids = {O->Id};
        E.Targets.Exact = !O->Elements;
      } else {
        E.Targets = Table.anyBufferOf(pathElement(Path));
      }
      E.Mode = Mode;
      E.Escapes = Target.Virtual;
      E.What = "used by " + Target.Method->getNameAsString() + "()";
      if (!Target.Virtual && E.Targets.single())
        if (std::optional<ElementRange> R =
                Summaries.memberRange(Target.Method, Path))
          if (const FunctionDecl *Def = Target.Method->getDefinition())
            E.Range = atCall(*R, Call, Def,
                             isa<CXXOperatorCallExpr>(Call) ? 1 : 0);
      push(std::move(E));
    }
  }

  /// The global buffers the callee's bodies name, or every global buffer
  /// when it calls something Ferry cannot see: read and written there, as
  /// far as this function knows.
  void globalEffects(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    static const GlobalReach Anything{{}, true};
    const GlobalReach &Reach = Callee && !isVirtualCall(Call)
                                   ? Summaries.globals().of(Callee)
                                   : Anything;
    std::string What =
        "may be used by " + (Callee ? Callee->getNameAsString() + "()" : "a call");
    auto Touch = [&](ObjectRefs Targets) {
      HostEvent E;
      E.Site = Call;
      E.Targets = std::move(Targets);
      E.Mode = Access::ReadWrite;
      E.Escapes = true;
      E.What = What;
      push(std::move(E));
    };
    // A function Ferry cannot see may reach a global buffer by any name,
    // also one a parameter is bound to: every buffer the caller can see,
    // when the program has global buffers at all.
    auto EveryVisible = [&] {
      for (const BufferObject &O : Table.objects())
        if (O.callerVisible()) {
          ObjectRefs R;
          R.Ids = {O.Id};
          Touch(R);
        }
    };
    if (Reach.Unseen && Summaries.globals().anyGlobalBuffers(Ctx()))
      return EveryVisible();
    for (const BufferObject &O : Table.objects()) {
      const auto *V = dyn_cast_or_null<VarDecl>(
          O.Kind == ObjectKind::ParameterMember ? O.Base : O.Decl);
      if (!O.StaticStorage ||
          !(isGlobalBufferVariable(V) || isGlobalBufferHolder(V)) ||
          !Reach.Named.count(V))
        continue;
      ObjectRefs R;
      R.Ids = {O.Id};
      Touch(R);
    }
    // What a holder reaches beyond the members named as objects.
    for (const VarDecl *G : Reach.Named) {
      bool All = true;
      if (isGlobalBufferHolder(G))
        namedBufferFields(G, All);
      if (!All)
        return EveryVisible();
    }
  }

  void visitStdAlgorithm(const CallExpr *Call, llvm::StringRef Name) {
    unsigned NumArgs = Call->getNumArgs();
    // Whole-range writes: fill(b.begin(), b.end(), v) and friends.
    bool WholeRange = false;
    if (NumArgs >= 2 &&
        (Name == "fill" || Name == "generate" || Name == "iota")) {
      const auto *First =
          dyn_cast<CXXMemberCallExpr>(Call->getArg(0)->IgnoreParenImpCasts());
      const auto *Last =
          dyn_cast<CXXMemberCallExpr>(Call->getArg(1)->IgnoreParenImpCasts());
      if (isBufferMethod(First, "begin") && isBufferMethod(Last, "end")) {
        ObjectRefs A = Table.resolve(First->getImplicitObjectArgument(), Facts);
        ObjectRefs B = Table.resolve(Last->getImplicitObjectArgument(), Facts);
        WholeRange = A.single() && B.single() && A.Ids == B.Ids;
      }
    }
    // Writes of a run-time count from a buffer's start: the runtime decides
    // whether they cover it (ComputeContext::hostWrites(b, n)).
    CountedHostWrites::AlgorithmCount Count =
        Counts.algorithmCount(Call, Name, Facts);
    const Expr *CountExpr = Count.Count, *CountOf = Count.CountOf;
    unsigned CountedArg = Count.Arg;
    std::string What = "passed to std::" + Name.str();
    // Every argument is evaluated, and every source range read, before the
    // algorithm writes: `std::fill(a.begin(), a.end(), a[n - 1] * 2)` reads
    // a[n - 1] before it overwrites a. Reads are listed first.
    size_t First = Events.size();
    struct ReadsFirst {
      std::vector<HostEvent> &Events;
      size_t First;
      ~ReadsFirst() {
        stablePartition(Events, First, [](const HostEvent &E) {
          return E.Kind == HostEventKind::Access && !writes(E.Mode);
        });
      }
    } Order{Events, First};
    std::map<unsigned, AlgorithmSpan> Spans = algorithmSpans(Call, Name);
    for (unsigned I = 0; I < NumArgs; ++I) {
      size_t Before = Events.size();
      algorithmArgument(Call, Name, I, CountedArg, CountExpr, CountOf,
                        WholeRange, What);
      auto Span = Spans.find(I);
      if (Span == Spans.end() || Events.size() != Before + 1 ||
          Events.back().Kind != HostEventKind::Access || Events.back().Escapes)
        continue;
      HostEvent &E = Events.back();
      E.Range = Ranges.span(Call->getArg(I), Span->second.First,
                            Span->second.Count,
                            Span->second.Covers && E.Mode == Access::Write);
    }
  }

  /// The elements an algorithm's iterator arguments span: [first, last)
  /// of one buffer, the destination of a copy over as many, a counted
  /// algorithm's n from its iterator. Covers for the writes that store
  /// every element of their span.
  struct AlgorithmSpan {
    RangeText First, Count;
    bool Covers = false;
  };
  std::map<unsigned, AlgorithmSpan> algorithmSpans(const CallExpr *Call,
                                                   llvm::StringRef Name) {
    static const llvm::StringSet<> Counted = {"copy_n", "fill_n",
                                              "generate_n"};
    static const llvm::StringSet<> WithinRange = {
        "accumulate", "reduce", "inner_product", "transform_reduce", "count",
        "count_if", "find", "find_if", "find_if_not", "equal", "all_of",
        "any_of", "none_of", "max_element", "min_element", "minmax_element",
        "mismatch", "lexicographical_compare", "search", "adjacent_find",
        "is_sorted", "binary_search", "lower_bound", "upper_bound",
        "equal_range", "fill", "generate", "iota", "sort", "stable_sort",
        "reverse", "replace", "replace_if", "for_each", "unique"};
    // Copies that store every element of the destination's span, and those
    // that may store fewer (a hull).
    static const llvm::StringSet<> CopyAll = {
        "copy", "move", "reverse_copy", "replace_copy", "replace_copy_if",
        "partial_sum", "adjacent_difference", "exclusive_scan",
        "inclusive_scan", "copy_backward", "move_backward"};
    static const llvm::StringSet<> CopySome = {"copy_if", "remove_copy",
                                               "remove_copy_if", "unique_copy"};
    std::map<unsigned, AlgorithmSpan> Out;
    unsigned N = Call->getNumArgs();
    auto Offset = [&](unsigned I) -> std::optional<RangeText> {
      if (I >= N || !Call->getArg(I)->getType()->isPointerType())
        return std::nullopt;
      return Ranges.offsetOf(Call->getArg(I));
    };
    if (Counted.contains(Name)) {
      std::optional<RangeText> Len =
          N == 3 ? Ranges.countOf(Call->getArg(1)) : std::nullopt;
      if (!Len)
        return Out;
      if (std::optional<RangeText> F = Offset(0))
        Out[0] = {*F, *Len, Name != "copy_n"};
      if (Name == "copy_n")
        if (std::optional<RangeText> O = Offset(2))
          Out[2] = {*O, *Len, true};
      return Out;
    }
    bool Copy = CopyAll.contains(Name) || CopySome.contains(Name);
    if (N < 2 || !(Copy || WithinRange.contains(Name) || Name == "transform"))
      return Out;
    const void *K0 = bufferKey(Call->getArg(0));
    bool SameBuffer = K0 && K0 == bufferKey(Call->getArg(1));
    std::optional<RangeText> Len =
        Ranges.lengthOf(Call->getArg(0), Call->getArg(1), SameBuffer);
    if (!Len)
      return Out;
    bool Fills = Name == "fill" || Name == "generate" || Name == "iota";
    if (SameBuffer)
      if (std::optional<RangeText> F = Offset(0))
        Out[0] = Out[1] = {*F, *Len, Fills};
    unsigned Dest = N;
    if (Copy && N >= 3)
      Dest = 2;
    else if (Name == "transform" && (N == 4 || N == 5))
      Dest = N == 4 ? 2 : 3;
    if (Name == "transform" && N == 5)
      if (std::optional<RangeText> S = Offset(2))
        Out[2] = {*S, *Len, false};
    if (Dest >= N)
      return Out;
    std::optional<RangeText> O = Offset(Dest);
    // copy_backward's third argument is where the copy ends.
    if (O && (Name == "copy_backward" || Name == "move_backward"))
      O = minusText(*O, *Len);
    if (O)
      Out[Dest] = {*O, *Len, !CopySome.contains(Name)};
    return Out;
  }

  /// Which buffer an iterator argument points into, to tell whether two
  /// point into the same one: its object when the name denotes one, or the
  /// pointer variable it is read from.
  const void *bufferKey(const Expr *Arg) const {
    if (const Expr *Source = rawPointerSource(Arg)) {
      ObjectRefs R = Table.resolve(Source, Facts);
      return R.single() ? &Table.object(*R.Ids.begin()) : nullptr;
    }
    const Expr *E = Arg->IgnoreParenCasts();
    while (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (!B->isAdditiveOp() || !B->getType()->isPointerType())
        return nullptr;
      E = (B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS())
              ->IgnoreParenCasts();
    }
    const auto *R = dyn_cast<DeclRefExpr>(E);
    return R && R->getType()->isPointerType() ? R->getDecl() : nullptr;
  }

  /// One argument of a standard algorithm: its events.
  void algorithmArgument(const CallExpr *Call, llvm::StringRef Name,
                         unsigned I, unsigned CountedArg,
                         const Expr *CountExpr, const Expr *CountOf,
                         bool WholeRange, const std::string &What) {
    unsigned NumArgs = Call->getNumArgs();
    const Expr *Arg = Call->getArg(I);
    Access Mode = stdAlgorithmAccess(Name, I, NumArgs);
    if (I == CountedArg && Mode == Access::Write) {
      const auto *Dest = cast<CXXMemberCallExpr>(Arg->IgnoreParenImpCasts());
      add(Arg, Dest->getImplicitObjectArgument(), Mode,
          "written from its start by std::" + Name.str());
      if (!Events.empty() && Events.back().Site == Arg) {
        Events.back().WrittenCount = CountExpr;
        Events.back().WrittenCountOf = CountOf;
      }
      return;
    }
    std::set<ObjectId> Ids;
    if (const Expr *Source = rawPointerSource(Arg);
        Source && Arg->getType()->isPointerType()) {
      size_t Before = Events.size();
      consumePointer(Arg, Use::Element, Mode);
      for (size_t K = Before; K < Events.size(); ++K) {
        Events[K].What = What;
        Events[K].Overwrites = WholeRange && writes(Mode);
      }
    } else if (Arg->getType()->isPointerType() &&
               rawPointerTargets(Arg, Table, Facts, Ids)) {
      consumePointer(Arg, Use::Element, Mode);
    } else if (isBufferType(Arg->getType())) {
      visitAliasInit(Arg);
      add(Arg, Arg, Mode, What);
    } else {
      visitValue(Arg);
    }
  }

  // --- expressions -----------------------------------------------------------
  void visitChildren(const Expr *E) {
    for (const Stmt *Child : E->children())
      if (Child)
        walkStmt(Child);
  }

  void visitValue(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(E);
        CE && CE->getCastKind() == CK_ToVoid) {
      // `(void)b[0];` discards the value: an lvalue is not even loaded.
      if (CE->getSubExpr()->isGLValue())
        return visitLValue(CE->getSubExpr(), Access::None);
      return visitValue(CE->getSubExpr());
    }
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_LValueToRValue) {
        // A buffer pointer's value kept where Ferry does not follow it (an
        // aggregate's member, `Pair pr{p, q}`, a constructor's argument):
        // as the buffer's address.
        if (refersToBuffer(ICE->getType()) && ICE->getType()->isPointerType())
          return add(ICE, ICE, Access::ReadWrite, "its address is kept",
                     false, true);
        if (ICE->getType()->isPointerType())
          return consumePointer(ICE, Use::Store);
        return visitLValue(ICE->getSubExpr(), Access::Read);
      }
      if (ICE->getType()->isPointerType() &&
          ICE->getSubExpr()->getType()->isPointerType() &&
          !refersToBuffer(ICE->getType()))
        return consumePointer(ICE, Use::Store);
      if (ICE->getCastKind() == CK_PointerToBoolean)
        return consumePointer(ICE, Use::Compare);
      return visitValue(ICE->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      QualType LT = BO->getLHS()->getType();
      if (BO->getOpcode() == BO_Assign) {
        if (refersToBuffer(LT) && !isBufferType(LT))
          return visitAliasInit(BO->getRHS()); // `p = &b;` on Buffer<T>*
        // C++17 sequences the right operand of an assignment first.
        if (LT->isPointerType()) {
          const auto *R =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
          bindPointer(R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr,
                      BO->getRHS());
          return visitLValue(BO->getLHS(), Access::None);
        }
        visitValue(BO->getRHS());
        return visitLValue(BO->getLHS(), Access::Write);
      }
      if (BO->isCompoundAssignmentOp()) {
        visitValue(BO->getRHS());
        if (LT->isPointerType()) // `p += 2`: pointer arithmetic
          return;
        return visitLValue(BO->getLHS(), Access::ReadWrite);
      }
      // `p != &tmp` compares which buffer a pointer names: no element is
      // touched and no address is kept.
      if (BO->isComparisonOp() && LT->isPointerType() && refersToBuffer(LT)) {
        for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
          const auto *UO = dyn_cast<UnaryOperator>(Side->IgnoreParenImpCasts());
          const auto *Load = dyn_cast<ImplicitCastExpr>(Side->IgnoreParens());
          if ((UO && UO->getOpcode() == UO_AddrOf) ||
              (Load && Load->getCastKind() == CK_LValueToRValue))
            continue;
          visitValue(Side);
        }
        return;
      }
      if ((BO->isComparisonOp() ||
           (BO->getOpcode() == BO_Sub && !BO->getType()->isPointerType())) &&
          LT->isPointerType() && !refersToBuffer(LT)) {
        consumePointer(BO->getLHS(), Use::Compare);
        return consumePointer(BO->getRHS(), Use::Compare);
      }
      if (BO->isAdditiveOp() && BO->getType()->isPointerType())
        return consumePointer(BO, Use::Store);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp()) {
        if (UO->getSubExpr()->getType()->isPointerType())
          return; // pointer arithmetic on a pointer variable
        return visitLValue(UO->getSubExpr(), Access::ReadWrite);
      }
      if (UO->getOpcode() == UO_AddrOf) {
        if (refersToBuffer(E->getType())) {
          // A buffer's address handed somewhere Ferry does not follow.
          visitAliasInit(UO->getSubExpr());
          return add(E, UO->getSubExpr(), Access::ReadWrite,
                     "its address is kept", false, true);
        }
        return consumePointer(E, Use::Store);
      }
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getOperator() == OO_Subscript &&
          isBufferType(Op->getArg(0)->getType()))
        return visitLValue(E, Access::ReadWrite);
      if (Op->getOperator() == OO_Equal &&
          isBufferType(Op->getArg(0)->getType())) {
        addKind(HostEventKind::Reset, Op->getArg(0), "assigned");
        addKind(HostEventKind::Reset, Op->getArg(1), "moved from");
        return;
      }
      if (Op->isAssignmentOp()) {
        visitValue(Op->getArg(1));
        return visitLValue(Op->getArg(0), Op->getOperator() == OO_Equal
                                              ? Access::Write
                                              : Access::ReadWrite);
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return visitCall(Call);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        QualType PT;
        if (Ctor && I < Ctor->getNumParams())
          PT = Ctor->getParamDecl(I)->getType();
        bool ByRef = !PT.isNull() && PT->isReferenceType();
        bool Const = ByRef && PT.getNonReferenceType().isConstQualified();
        if (ByRef && isBufferType(CE->getType()) &&
            isBufferType(CE->getArg(I)->getType()))
          // A buffer moved into a parameter or a temporary.
          addKind(HostEventKind::Reset, CE->getArg(I), "moved from");
        else if (!ByRef && isStdIteratorParameter(Ctor, I) &&
            CE->getArg(I)->getType()->isPointerType())
          consumePointer(CE->getArg(I), Use::Element, Access::Read);
        else if (ByRef && refersToBuffer(CE->getArg(I)->getType()))
          add(CE->getArg(I), CE->getArg(I),
              Const ? Access::Read : Access::ReadWrite,
              "passed to a constructor", false, !Const);
        else if (ByRef)
          visitLValue(CE->getArg(I), Const ? Access::Read : Access::ReadWrite);
        else
          visitValue(CE->getArg(I));
      }
      return;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
      // A lambda that captures a buffer, or a pointer into one, may do
      // anything with it, here and wherever it is called (capturedBuffers).
      capturedBuffers(Lambda->getLambdaClass(), Lambda, "captured by a lambda");
      auto Init = Lambda->capture_init_begin();
      for (const LambdaCapture &C : Lambda->captures()) {
        const Expr *CapInit = Init != Lambda->capture_init_end() ? *Init : nullptr;
        if (Init != Lambda->capture_init_end())
          ++Init;
        if (!C.capturesVariable())
          continue;
        const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
        if (!V)
          continue;
        std::set<ObjectId> Ids;
        if (!refersToBuffer(V->getType()) && CapInit &&
            rawPointerTargets(CapInit, Table, Facts, Ids))
          addRaw(CapInit, Ids, Access::ReadWrite,
                 "a pointer into it is captured by a lambda", true);
      }
      return;
    }
    if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) ||
        isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
      // An lvalue whose use Ferry does not know: assume the worst.
      EscapeScope Scope(*this, refersToBuffer(E->getType()));
      return visitLValue(E, Access::ReadWrite);
    }
    visitChildren(E);
  }

  void visitLValue(const Expr *E, Access Mode) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
        ICE && ICE->getCastKind() != CK_LValueToRValue)
      return visitLValue(ICE->getSubExpr(), Mode);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
        Op && Op->getOperator() == OO_Subscript &&
        isBufferType(Op->getArg(0)->getType())) {
      visitAliasInit(Op->getArg(0));
      visitValue(Op->getArg(1));
      // A const buffer's operator[] hands out a const element.
      if (Op->getArg(0)->getType().isConstQualified() && Mode != Access::None)
        Mode = Access::Read;
      size_t Before = Events.size();
      add(E, Op->getArg(0), Mode, std::string("element ") + modeWord(Mode));
      if (Mode == Access::Write && Events.size() == Before + 1)
        Counts.countElementStore(Events.back(), Op);
      return elementRange(Before, E, nullptr, Op->getArg(1), Mode);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isBufferType(ME->getType())) {
        add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
            "used");
        return;
      }
      if (!isa<FieldDecl>(ME->getMemberDecl()))
        return visitValue(ME->getBase());
      return ME->isArrow() ? consumePointer(ME->getBase(), Use::Element, Mode)
                           : visitLValue(ME->getBase(), Mode);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      visitValue(AS->getIdx());
      size_t Before = Events.size();
      consumePointer(AS->getBase(), Use::Element, Mode);
      return elementRange(Before, E, AS->getBase(), AS->getIdx(), Mode);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      if (refersToBuffer(E->getType())) {
        add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
            "used");
        return;
      }
      size_t Before = Events.size();
      consumePointer(UO->getSubExpr(), Use::Element, Mode);
      return elementRange(Before, E, UO->getSubExpr(), nullptr, Mode);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      QualType T = DRE->getDecl()->getType();
      if (refersToBuffer(T)) {
        if (!T->isPointerType())
          add(E, E, Mode == Access::None ? Access::None : Access::ReadWrite,
              "used");
        return;
      }
      // A reference bound to a buffer's element (`float &r = b[2];`); the
      // variable of a range-for over a buffer is the loop's event.
      std::set<ObjectId> Ids;
      if (T->isReferenceType() && !LoopElements.count(DRE->getDecl()) &&
          rawPointerTargets(DRE, Table, Facts, Ids))
        addRaw(E, Ids, Mode,
               std::string("element ") + modeWord(Mode) + " through '" +
                   DRE->getDecl()->getNameAsString() + "'");
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      visitLValue(CO->getTrueExpr(), Mode);
      return visitLValue(CO->getFalseExpr(), Mode);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->isGLValue())
      return callResult(Call, Use::Element, Mode);
    visitValue(E);
  }

  const ObjectTable &Table;
  PointsTo &Facts;
  HostSummaryCache &Summaries;
  bool Escaping = false;
  /// The followed pointer a value is being bound to (bindPointer).
  const VarDecl *Binding = nullptr;
  std::set<const ValueDecl *> LoopElements;
  /// Which stores of the loops being walked write a counted prefix.
  CountedHostWrites Counts;
  /// The elements each event touches, as texts before the walk's root.
  ElementRanges Ranges;
};

} // namespace

const char *hostEventName(const HostEvent &E) {
  switch (E.Kind) {
  case HostEventKind::Access:
    return E.Escapes ? "escape" : accessName(E.Mode);
  case HostEventKind::Create:
    return "create";
  case HostEventKind::Swap:
    return "swap";
  case HostEventKind::Reset:
    return "move";
  }
  return "?";
}

std::vector<HostEvent> collectHostEvents(const Stmt *S,
                                         const ObjectTable &Table,
                                         PointsTo &Facts,
                                         HostSummaryCache &Summaries) {
  HostWalker Walker(Table, Facts, Summaries, S);
  Walker.walkStmt(S);
  return std::move(Walker.Events);
}

} // namespace ferry
