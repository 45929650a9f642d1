// Host events: calls. A dispatch's scalars; a function Ferry can see, by its
// summary (HostAccess.h) and the element ranges it gives, in the call's
// arguments; one it cannot, read and (unless const) written; buffer members
// of a struct argument, containers of buffers; what a member function does
// to its object's members; the global buffers a callee reaches; what a
// lambda captured. Calls Ferry knows by name are HostEventLibraryCalls.cpp's.

#include "analyses/host/HostEventWalker.h"

#include "analyses/CallGraphs.h"
#include "analyses/host/HostAccess.h"
#include "analyses/host/HostAccessInternal.h"
#include "analyses/paths/AccessPath.h"
#include "analyses/paths/ElementSteps.h"
#include "analyses/paths/StaticRoots.h"
#include "analyses/paths/MemberSteps.h"
#include "model/FerryTypes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <set>
#include <cctype>

using namespace clang;

namespace ferry {

namespace {

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

/// A parameter (or argument) through which the callee may hand a pointer
/// back (`float **out`, `float *&out`): whatever buffer the call is handed
/// may be pointed to, and written, after it returns.
bool handsOutPointers(const CallExpr *Call) {
  auto Out = [](QualType T) {
    if (T.isNull())
      return false;
    QualType Inner = T->isReferenceType() ? T.getNonReferenceType()
                     : T->isPointerType() ? T->getPointeeType()
                                          : QualType();
    return !Inner.isNull() && !Inner.isConstQualified() &&
           Inner->isPointerType();
  };
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    for (const ParmVarDecl *P : Callee->parameters())
      if (Out(P->getType()))
        return true;
  for (const Expr *Arg : Call->arguments())
    if (Out(Arg->getType()))
      return true;
  return false;
}

} // namespace

bool HostWalker::unseenCallable(const CallExpr *Call) {
  if (isDispatchCall(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return !isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParens());
  if (!inSystemHeader(Callee))
    return false;
  if (Callee->getOverloadedOperator() == OO_Call)
    return true; // std::function, a library functor
  return Callee->getIdentifier() &&
         (Callee->getName() == "invoke" || Callee->getName() == "apply");
}

const std::vector<const LambdaExpr *> &HostWalker::lambdasMadeAround() {
  if (MadeAround)
    return *MadeAround;
  MadeAround.emplace();
  // The function around the compute lambda (or compute function) whose
  // code this is: lambdas are made there.
  const FunctionDecl *Outer = enclosingNonLambda(Table.function());
  if (!Outer || !Outer->hasBody())
    return *MadeAround;
  struct Find : RecursiveASTVisitor<Find> {
    std::vector<const LambdaExpr *> Lambdas;
    std::set<const LambdaExpr *> Computes;
    bool VisitLambdaExpr(LambdaExpr *L) {
      Lambdas.push_back(L);
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (isAcceleratorCompute(Call) && Call->getNumArgs() == 1)
        if (const auto *L =
                dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit()))
          Computes.insert(L);
      return true;
    }
  } F;
  F.TraverseStmt(Outer->getBody());
  for (const LambdaExpr *L : F.Lambdas)
    if (!F.Computes.count(L) && L->getCallOperator() != Table.function())
      MadeAround->push_back(L);
  return *MadeAround;
}

bool HostWalker::opaqueComputeCall(const CallExpr *Call) const {
  if (isUnseenCallWithContext(Call))
    return true;
  // One declared only that no summary describes.
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getDefinition() || !handsComputeContext(Call))
    return false;
  return !Summaries.Elsewhere || !Summaries.Elsewhere(Callee);
}

void HostWalker::visitCall(const CallExpr *Call) {
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
  // A call Ferry cannot see into that is handed the ComputeContext may
  // dispatch: what it touches may then have a valid device copy.
  struct MarkMayRunKernels {
    std::vector<HostEvent> &Events;
    size_t First;
    bool Marks;
    ~MarkMayRunKernels() {
      for (size_t I = First; Marks && I < Events.size(); ++I)
        Events[I].MayRunKernels = true;
    }
  } MayRun{Events, Events.size(), opaqueComputeCall(Call)};
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
  // A callable Ferry cannot see into (a std::function, a function
  // pointer) may run any lambda the enclosing function made that is no
  // compute's: what those captured by reference is touched now.
  // Lambdas and function objects made elsewhere (a constructor's
  // `poke = [this](int v) {…}`, another file's): any buffer of the types
  // they reach. (A call through a pointer to member runs a method, which
  // memberEffects counts.)
  if (unseenCallable(Call)) {
    for (const LambdaExpr *Lambda : lambdasMadeAround())
      capturedBuffers(Lambda->getLambdaClass(), Call,
                      "used by a lambda this call may run");
    const auto *PM = dyn_cast<BinaryOperator>(Call->getCallee()->IgnoreParens());
    if (const FunctionDecl *Outer = enclosingNonLambda(Table.function());
        Outer && !(PM && PM->isPtrMemOp()))
      for (QualType Element : Summaries.callableElements(Outer))
        addEscaping(Call, Table.anyBufferOf(Element),
                    "may be used by a lambda or function object made "
                    "elsewhere that this call may run");
  }
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
  bool OutPointers = handsOutPointers(Call);
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
    bool Escapes = (!Summary && !ConstParam) || OutPointers;
    // A function of another file that may keep what it is handed.
    if (Summary && Callee && !Callee->getDefinition() &&
        Summaries.ElsewhereKeeps && !ParamType.isNull() &&
        refersToBuffer(ParamType) && Summaries.ElsewhereKeeps(Callee, P))
      Escapes = true;
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
    if (objectArgument(Arg, Mode, Escapes, What))
      continue;
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

bool HostWalker::objectArgument(const Expr *Arg, Access Mode, bool Escapes,
                                const std::string &What) {
  std::vector<FieldPath> Paths;
  std::vector<ObjectRefs> Members = Table.membersOf(Arg, Facts, &Paths);
  if (Members.empty())
    return false;
  visitAliasInit(Arg);
  for (std::size_t M = 0; M < Members.size(); ++M) {
    HostEvent E;
    E.Site = Arg;
    // A member this function may not name (private) has no spelling: the
    // run-time state reaches it (TransferFunction's safety net).
    if (pathNameableIn(Paths[M], Table.function()))
      E.Spelling = memberSpelling(Arg, Paths[M]);
    E.Targets = Members[M];
    E.Mode = Mode;
    E.Escapes = Escapes;
    E.What = What + ", a buffer member";
    if (Mode != Access::None)
      push(std::move(E));
  }
  return true;
}

std::optional<ElementRange> HostWalker::calleeRange(const CallExpr *Call,
                                                    const FunctionDecl *Callee,
                                                    unsigned Param,
                                                    unsigned ArgBase) {
  const std::vector<std::optional<ElementRange>> &Ranges =
      Summaries.ranges(Callee);
  if (Param >= Ranges.size() || !Ranges[Param])
    return std::nullopt;
  return atCall(*Ranges[Param], Call, Callee, ArgBase);
}

std::optional<ElementRange> HostWalker::atCall(ElementRange R,
                                               const CallExpr *Call,
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

void HostWalker::capturedBuffers(const CXXRecordDecl *Closure, const Expr *Site,
                                 const char *What) {
  if (!Closure || !Closure->isLambda())
    return;
  for (const LambdaCapture &C : Closure->captures()) {
    const auto *V = C.capturesVariable()
                        ? dyn_cast<VarDecl>(C.getCapturedVar())
                        : nullptr;
    if (V && C.getCaptureKind() == LCK_ByRef && !refersToBuffer(V->getType()))
      capturedObject(V, Site, What);
    if (!V || !refersToBuffer(V->getType()))
      continue;
    QualType T = V->getType().getNonReferenceType();
    bool Pointer = T->isPointerType();
    QualType Element = bufferElementType(Pointer ? T->getPointeeType() : T);
    auto It = Facts.find(V);
    addEscaping(Site,
                It != Facts.end() ? pointsToObjects(It->second, Element)
                                  : Table.anyBufferOf(Element),
                What, (Pointer ? "*" : "") + V->getNameAsString());
  }
}

// An object holding buffers by value, captured by reference: each of its
// buffers, by its path where the table has it, else any of its type.
void HostWalker::capturedObject(const VarDecl *V, const Expr *Site,
                                const char *What) {
  QualType T = V->getType().getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || isBufferType(T) || !holdsBuffers(T))
    return;
  std::vector<FieldPath> Paths = bufferPathsOf(RD);
  // A container of such objects (`std::vector<Body> &objs`): its elements'
  // buffers, of the type they hold (any type where they hold several).
  if (Paths.empty() || RD->isInStdNamespace())
    return addEscaping(Site, Table.anyBufferOf(heldBufferElement(T)), What);
  for (const FieldPath &P : Paths) {
    const BufferObject *O = isOpaquePath(P) ? nullptr : Table.memberFor(V, P);
    if (!O) {
      addEscaping(Site, Table.anyBufferOf(pathElement(P)), What);
      continue;
    }
    ObjectRefs Member;
    Member.Ids = {O->Id};
    addEscaping(Site, std::move(Member), What,
                pathNameableIn(P, Table.function())
                    ? V->getNameAsString() + "." + pathSpelling(P)
                    : std::string());
  }
}

void HostWalker::memberEffects(const CallExpr *Call) {
  // `(o.*pm)(cc, v)`: whichever method the pointer holds, of the class or
  // of one derived from it, on whichever of their buffers: any buffer.
  if (const auto *PM =
          dyn_cast<BinaryOperator>(Call->getCallee()->IgnoreParens());
      PM && PM->isPtrMemOp()) {
    const auto *MPT = PM->getRHS()->getType()->getAs<MemberPointerType>();
    const CXXRecordDecl *RD = MPT ? MPT->getMostRecentCXXRecordDecl() : nullptr;
    if (RD && RD->hasDefinition() &&
        (RD->isPolymorphic() ||
         holdsBuffers(QualType(RD->getTypeForDecl(), 0))))
      addEscaping(Call, Table.anyBufferOf(QualType()),
                  "may be used by a method called through a pointer to "
                  "member");
    return;
  }
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
    // (A body here: the flow's keptPointers follows it into the call.)
    E.Escapes = Target.Virtual || handsOutPointers(Call) ||
                (!Target.Method->getDefinition() &&
                 Summaries.memberEscapes(Target.Method, Path));
    E.What = "used by " + Target.Method->getNameAsString() + "()";
    if (!Target.Virtual && E.Targets.single())
      if (std::optional<ElementRange> R =
              Summaries.memberRange(Target.Method, Path))
        if (const FunctionDecl *Def = Target.Method->getDefinition())
          E.Range = atCall(*R, Call, Def,
                           isa<CXXOperatorCallExpr>(Call) ? 1 : 0);
    push(std::move(E));
  }
  // An override may reach buffers of a class derived from the one the call
  // names, which no path of that class shows
  // (`static_cast<Base &>(bodies[i]).step(cc)`): any of their types.
  if (Target.Virtual)
    for (QualType Element : Summaries.overriderBufferElements(Target.Method))
      addEscaping(Call, Table.anyBufferOf(Element),
                  "may be used by an override of " +
                      Target.Method->getNameAsString() + "()");
}

void HostWalker::globalEffects(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  static const GlobalReach Anything{{}, true};
  const GlobalReach &Reach = Callee && !isVirtualCall(Call)
                                 ? Summaries.globals().of(Callee)
                                 : Anything;
  std::string What =
      "may be used by " + (Callee ? Callee->getNameAsString() + "()" : "a call");
  auto Touch = [&](ObjectRefs Targets) {
    addEscaping(Call, std::move(Targets), What);
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
  // A virtual call handed the ComputeContext may run an override's kernels
  // on buffers of an object whose class the static type does not show
  // (`Base &b = d; b.step(cc)`): every buffer the caller can see.
  if (isVirtualCall(Call) && handsComputeContext(Call))
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

} // namespace ferry
