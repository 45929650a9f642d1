#include "analyses/HostAccess.h"

#include "analyses/CallGraphs.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringSet.h"

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

bool isBufferMethod(const CXXMemberCallExpr *MC, llvm::StringRef Name) {
  return MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
         MC->getMethodDecl()->getName() == Name &&
         isBufferType(MC->getImplicitObjectArgument()->getType());
}

class HostWalker {
public:
  HostWalker(const ObjectTable &Table, PointsTo &Facts,
             HostSummaryCache &Summaries)
      : Table(Table), Facts(Facts), Summaries(Summaries) {}

  std::vector<HostEvent> Events;

  void walkStmt(const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      visitValue(E);
      applyAliasing(S, Table, Facts);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          visitVarDecl(V);
      applyAliasing(S, Table, Facts);
      return;
    }
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      const Expr *Range = RF->getRangeInit();
      if (Range && isBufferType(Range->getType())) {
        QualType VarType = RF->getLoopVariable()->getType();
        bool MayWrite = VarType->isReferenceType() &&
                        !VarType.getNonReferenceType().isConstQualified();
        add(Range, Range, MayWrite ? Access::ReadWrite : Access::Read,
            MayWrite ? "iterated by reference" : "iterated");
      } else if (Range) {
        visitValue(Range);
      }
      return walkStmt(RF->getBody());
    }
    bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S);
    if (Loop)
      applyAliasing(S, Table, Facts); // settle pointer facts for the body
    for (const Stmt *Child : S->children())
      walkStmt(Child);
  }

private:
  void add(const Expr *Site, const Expr *Buffer, Access Mode,
           std::string What, bool Overwrites = false) {
    HostEvent E;
    E.Site = Site;
    E.Buffer = Buffer;
    E.Targets = Table.resolve(Buffer, Facts);
    E.Mode = Mode;
    E.Overwrites = Overwrites;
    E.What = std::move(What);
    if (!E.Targets.Ids.empty())
      Events.push_back(std::move(E));
  }

  /// Uses of a raw element pointer or iterator taken from a buffer earlier.
  bool rawAlias(const Expr *E, ObjectRefs &Out) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    if (!DRE || isBufferType(DRE->getType().getNonReferenceType()) ||
        refersToBuffer(DRE->getType()))
      return false;
    auto It = Facts.find(DRE->getDecl());
    if (It == Facts.end())
      return false;
    Out.Ids = It->second;
    return !Out.Ids.empty();
  }

  void addRaw(const Expr *Site, const ObjectRefs &Targets, Access Mode,
              std::string What) {
    HostEvent E;
    E.Site = Site;
    E.Targets = Targets;
    E.Mode = Mode;
    E.What = std::move(What);
    Events.push_back(std::move(E));
  }

  void visitVarDecl(const VarDecl *V) {
    const Expr *Init = V->getInit();
    if (isBufferType(V->getType())) {
      const BufferObject *Local = Table.localFor(V);
      const auto *Construct =
          Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
      bool FromBuffer = Construct && Construct->getNumArgs() == 1 &&
                        isBufferType(Construct->getArg(0)->getType());
      if (Local) {
        HostEvent E;
        E.Kind = FromBuffer ? HostEventKind::Reset : HostEventKind::Create;
        E.Targets.Ids = {Local->Id};
        E.What = FromBuffer ? "moved into" : "created";
        Events.push_back(E);
      }
      if (FromBuffer)
        addKind(HostEventKind::Reset, Construct->getArg(0), "moved from");
      else if (Init)
        visitValue(Init);
      return;
    }
    if (!Init)
      return;
    QualType T = V->getType();
    if (T->isReferenceType() || T->isPointerType())
      return visitLValue(Init, Access::None);
    visitValue(Init);
  }

  void addKind(HostEventKind Kind, const Expr *Buffer, std::string What) {
    HostEvent E;
    E.Kind = Kind;
    E.Site = Buffer;
    E.Buffer = Buffer;
    E.Targets = Table.resolve(Buffer, Facts);
    E.What = std::move(What);
    if (!E.Targets.Ids.empty())
      Events.push_back(std::move(E));
  }

  void visitChildren(const Expr *E) {
    for (const Stmt *Child : E->children())
      if (Child)
        walkStmt(Child);
  }

  void visitCall(const CallExpr *Call) {
    // A dispatch's buffers are the planner's business, not host accesses.
    if (isDispatchCall(Call))
      return;
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned NumArgs = Call->getNumArgs();
    if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
        Callee->getName() == "swap" && NumArgs == 2 &&
        isBufferType(Call->getArg(0)->getType())) {
      HostEvent E;
      E.Kind = HostEventKind::Swap;
      E.Site = Call;
      E.Targets = Table.resolve(Call->getArg(0), Facts);
      E.Others = Table.resolve(Call->getArg(1), Facts);
      E.What = "swapped";
      Events.push_back(E);
      return;
    }
    if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier()) {
      llvm::StringRef Name = Callee->getName();
      // Whole-range writes: fill(b.begin(), b.end(), v) and friends.
      bool WholeRange = false;
      if (NumArgs >= 2 && (Name == "fill" || Name == "generate" || Name == "iota")) {
        const auto *First = dyn_cast<CXXMemberCallExpr>(Call->getArg(0)->IgnoreParenImpCasts());
        const auto *Last = dyn_cast<CXXMemberCallExpr>(Call->getArg(1)->IgnoreParenImpCasts());
        if (isBufferMethod(First, "begin") && isBufferMethod(Last, "end")) {
          ObjectRefs A = Table.resolve(First->getImplicitObjectArgument(), Facts);
          ObjectRefs B = Table.resolve(Last->getImplicitObjectArgument(), Facts);
          WholeRange = A.single() && B.single() && A.Ids == B.Ids;
        }
      }
      // Writes of a run-time count from a buffer's start: the runtime decides
      // whether they cover it (ComputeContext::hostWrites(b, n)).
      const Expr *CountExpr = nullptr, *CountOf = nullptr;
      unsigned CountedArg = NumArgs;
      if ((Name == "copy" || Name == "move") && NumArgs == 3) {
        const auto *First = dyn_cast<CXXMemberCallExpr>(Call->getArg(0)->IgnoreParenImpCasts());
        const auto *Last = dyn_cast<CXXMemberCallExpr>(Call->getArg(1)->IgnoreParenImpCasts());
        if (isBufferMethod(First, "begin") && isBufferMethod(Last, "end") &&
            Table.resolve(First->getImplicitObjectArgument(), Facts).Ids ==
                Table.resolve(Last->getImplicitObjectArgument(), Facts).Ids) {
          CountOf = First->getImplicitObjectArgument();
          CountedArg = 2;
        }
      } else if ((Name == "copy_n" && NumArgs == 3) ||
                 (Name == "fill_n" && NumArgs == 3)) {
        CountExpr = Call->getArg(1);
        CountedArg = Name == "copy_n" ? 2 : 0;
      }
      if (CountedArg < NumArgs) {
        const auto *Dest = dyn_cast<CXXMemberCallExpr>(
            Call->getArg(CountedArg)->IgnoreParenImpCasts());
        if (!isBufferMethod(Dest, "begin"))
          CountExpr = CountOf = nullptr, CountedArg = NumArgs;
      }
      for (unsigned I = 0; I < NumArgs; ++I) {
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
          continue;
        }
        ObjectRefs Raw;
        if (const Expr *Source = rawPointerSource(Arg)) {
          visitIndexes(Arg);
          add(Arg, Source, Mode, "passed to std::" + Name.str(),
              WholeRange && writes(Mode));
        } else if (rawAlias(Arg, Raw)) {
          addRaw(Arg, Raw, Mode, "passed to std::" + Name.str());
        } else if (isBufferType(Arg->getType())) {
          add(Arg, Arg, Mode, "passed to std::" + Name.str());
        } else {
          visitValue(Arg);
        }
      }
      return;
    }

    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
      const Expr *Object = MC->getImplicitObjectArgument();
      if (isBufferType(Object->getType())) {
        llvm::StringRef Name = MC->getMethodDecl()->getIdentifier()
                                   ? MC->getMethodDecl()->getName()
                                   : "";
        if (Name == "size" || Name == "bytes" || Name == "empty")
          return;
        // data()/begin()/end() hand out the elements: whatever happens to
        // the pointer in this expression happens to the buffer.
        bool Const = MC->getMethodDecl()->isConst() &&
                     MC->getType()->isPointerType() &&
                     MC->getType()->getPointeeType().isConstQualified();
        add(Call, Object, Const ? Access::Read : Access::ReadWrite,
            Name.str() + "() used");
        return;
      }
    }

    // A function Ferry can see: its own summary. One it cannot: read, and
    // written too unless the parameter is const.
    const std::vector<Access> *Summary = nullptr;
    if (Callee && Callee->getDefinition() && Callee->getDefinition()->hasBody())
      Summary = &Summaries.summary(Callee->getDefinition());
    unsigned ArgBase = isa<CXXOperatorCallExpr>(Call) &&
                               isa<CXXMethodDecl>(Callee)
                           ? 1
                           : 0;
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
           (ParamType->isPointerType() &&
            ParamType->getPointeeType().isConstQualified()));
      Access Mode = ConstParam ? Access::Read : Access::ReadWrite;
      if (Summary && P < Summary->size())
        Mode = (*Summary)[P];
      // A variadic argument (printf's) has no parameter: a non-pointer
      // prvalue there is a copy, so `b[1]` is only read.
      bool ByValue = ParamType.isNull()
                         ? Arg->isPRValue() && !Arg->getType()->isPointerType()
                         : !ParamType->isReferenceType() &&
                               !ParamType->isPointerType();
      ObjectRefs Raw;
      if (refersToBuffer(Arg->getType()) && !ByValue) {
        if (Mode != Access::None)
          add(Arg, Arg, Mode, "passed to " + Name + "()");
      } else if (const Expr *Source = rawPointerSource(Arg);
                 Source && !ByValue) {
        visitIndexes(Arg);
        if (Mode != Access::None)
          add(Arg, Source, Mode, "passed to " + Name + "()");
      } else if (rawAlias(Arg, Raw) && !ByValue) {
        if (Mode != Access::None)
          addRaw(Arg, Raw, Mode, "passed to " + Name + "()");
      } else {
        visitValue(Arg);
      }
    }
  }

  /// Index expressions inside `&b[i]`, `b.data() + i`.
  void visitIndexes(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getOperator() == OO_Subscript)
        visitValue(Op->getArg(1));
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      bool LeftPtr = BO->getLHS()->getType()->isPointerType();
      visitIndexes(LeftPtr ? BO->getLHS() : BO->getRHS());
      visitValue(LeftPtr ? BO->getRHS() : BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      visitIndexes(UO->getSubExpr());
    }
  }

  void visitValue(const Expr *E) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      if (ICE->getCastKind() == CK_LValueToRValue)
        return visitLValue(ICE->getSubExpr(), Access::Read);
      return visitValue(ICE->getSubExpr());
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Assign) {
        visitLValue(BO->getLHS(), Access::Write);
        return visitValue(BO->getRHS());
      }
      if (BO->isCompoundAssignmentOp()) {
        visitLValue(BO->getLHS(), Access::ReadWrite);
        return visitValue(BO->getRHS());
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->isIncrementDecrementOp())
        return visitLValue(UO->getSubExpr(), Access::ReadWrite);
      if (UO->getOpcode() == UO_AddrOf)
        return visitLValue(UO->getSubExpr(), Access::ReadWrite);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getOperator() == OO_Subscript &&
          isBufferType(Op->getArg(0)->getType()))
        return visitLValue(E, Access::ReadWrite);
      if (Op->getOperator() == OO_Equal && isBufferType(Op->getArg(0)->getType())) {
        addKind(HostEventKind::Reset, Op->getArg(0), "assigned");
        addKind(HostEventKind::Reset, Op->getArg(1), "moved from");
        return;
      }
      if (Op->isAssignmentOp()) {
        visitLValue(Op->getArg(0), Op->getOperator() == OO_Equal
                                       ? Access::Write
                                       : Access::ReadWrite);
        return visitValue(Op->getArg(1));
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return visitCall(Call);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
        bool ByRef = Ctor && I < Ctor->getNumParams() &&
                     Ctor->getParamDecl(I)->getType()->isReferenceType();
        bool Const = ByRef && Ctor->getParamDecl(I)
                                  ->getType()
                                  .getNonReferenceType()
                                  .isConstQualified();
        if (ByRef)
          visitLValue(CE->getArg(I), Const ? Access::Read : Access::ReadWrite);
        else
          visitValue(CE->getArg(I));
      }
      return;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E)) {
      // A lambda that captures a buffer may do anything with it later.
      for (const LambdaCapture &C : Lambda->captures())
        if (C.capturesVariable())
          if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
              V && refersToBuffer(V->getType()))
            for (const Expr *Init : Lambda->capture_inits())
              if (Init && refersToBuffer(Init->getType()))
                add(Init, Init, Access::ReadWrite, "captured by a lambda");
      return;
    }
    if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<ArraySubscriptExpr>(E))
      return visitLValue(E, Access::ReadWrite);
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
      visitValue(Op->getArg(1));
      if (Mode != Access::None)
        add(E, Op->getArg(0), Mode,
            std::string("element ") +
                (Mode == Access::Read    ? "read"
                 : Mode == Access::Write ? "written"
                                         : "read and written"));
      return;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isBufferType(ME->getType())) {
        if (Mode != Access::None)
          add(E, E, Access::ReadWrite, "used");
        return;
      }
      return ME->isArrow() ? visitValue(ME->getBase())
                           : visitLValue(ME->getBase(), Mode);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      visitValue(AS->getIdx());
      ObjectRefs Raw;
      if (rawAlias(AS->getBase(), Raw)) {
        if (Mode != Access::None)
          addRaw(E, Raw, Mode, "accessed through a pointer");
        return;
      }
      return visitValue(AS->getBase());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      ObjectRefs Raw;
      if (rawAlias(UO->getSubExpr(), Raw)) {
        if (Mode != Access::None)
          addRaw(E, Raw, Mode, "accessed through a pointer");
        return;
      }
      if (refersToBuffer(E->getType())) {
        if (Mode != Access::None)
          add(E, E, Access::ReadWrite, "used");
        return;
      }
      return visitValue(UO->getSubExpr());
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      ObjectRefs Raw;
      if (rawAlias(DRE, Raw)) {
        if (Mode != Access::None)
          addRaw(E, Raw, Mode == Access::Read ? Access::Read : Access::ReadWrite,
                 "accessed through '" + DRE->getDecl()->getNameAsString() + "'");
      } else if (isBufferType(DRE->getType().getNonReferenceType()) &&
                 Mode != Access::None) {
        add(E, E, Access::ReadWrite, "used");
      }
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      visitValue(CO->getCond());
      visitLValue(CO->getTrueExpr(), Mode);
      return visitLValue(CO->getFalseExpr(), Mode);
    }
    visitValue(E);
  }

  const ObjectTable &Table;
  PointsTo &Facts;
  HostSummaryCache &Summaries;
};

} // namespace

const std::vector<Access> &HostSummaryCache::summary(const FunctionDecl *F) {
  auto It = Cache.find(F);
  if (It != Cache.end())
    return It->second;
  std::vector<Access> Result(F->getNumParams(), Access::None);
  if (InProgress[F]) {
    static std::vector<Access> Worst;
    Worst.assign(F->getNumParams(), Access::ReadWrite);
    return Worst;
  }
  InProgress[F] = true;
  // Element pointers and references (`float *p`, `float &x`): the kernel-side
  // summary already follows them.
  const std::vector<Access> &PointerSummary = Pointers.summary(F);
  ObjectTable Table(F);
  PointsTo Facts = Table.entryPointsTo();
  HostWalker Walker(Table, Facts, *this);
  Walker.walkStmt(F->getBody());
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    if (!refersToBuffer(P->getType())) {
      Result[I] = PointerSummary[I];
      continue;
    }
    auto Entry = Table.entryPointsTo().find(P);
    if (Entry == Table.entryPointsTo().end())
      continue;
    for (const HostEvent &E : Walker.Events)
      for (ObjectId Id : E.Targets.Ids)
        if (Entry->second.count(Id))
          Result[I] |= E.Kind == HostEventKind::Access ? E.Mode
                                                       : Access::ReadWrite;
  }
  // A helper that dispatches is planned on its own; to its callers it both
  // reads and writes what it is given.
  if (dispatchesDirectly(F))
    for (unsigned I = 0; I < F->getNumParams(); ++I)
      if (refersToBuffer(F->getParamDecl(I)->getType()))
        Result[I] = Access::ReadWrite;
  InProgress[F] = false;
  return Cache[F] = Result;
}

std::vector<HostEvent> collectHostEvents(const Stmt *S,
                                         const ObjectTable &Table,
                                         PointsTo &Facts,
                                         HostSummaryCache &Summaries) {
  HostWalker Walker(Table, Facts, Summaries);
  Walker.walkStmt(S);
  return std::move(Walker.Events);
}

} // namespace ferry
