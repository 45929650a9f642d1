// The located errors for a kc.barrier() that some work-items of a group may
// not reach, and for a ferry::Local only some of them declare (the reference
// execution needs all of them to; the device would not notice). A barrier: a barrier (or a call of a helper that reaches one) under a
// condition that depends on the work-item's id, or after a return, break or
// continue that only some work-items take. Every work-item of a group must
// reach a barrier, or none; otherwise the device hangs or computes garbage.
//
// Which values differ between the work-items of a group is the divergence
// analysis of tool/analyses/kernel/WorkItemVariance: kc.x/y/z and kc.localX/Y/Z and
// what is computed from them differ; sizes and kc.groupX/Y/Z do not. A
// helper is analysed at each call with what the caller passes it.

#include "emit/Emitter.h"
#include "analyses/kernel/WorkGroupUse.h"
#include "analyses/kernel/WorkItemVariance.h"
#include "model/FerryTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <functional>

using namespace clang;

namespace ferry {
namespace emit {

namespace {
bool isBarrier(const CallExpr *CE) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  return M && M->getIdentifier() && M->getName() == "barrier" &&
         isKernelContextType(M->getASTContext().getRecordType(M->getParent()));
}

/// The calls in a function body, in source order (lambdas left out: the
/// emitter refuses them anyway).
class Calls : public RecursiveASTVisitor<Calls> {
public:
  std::vector<const CallExpr *> Found;
  /// The declarations of ferry::Local arrays.
  std::vector<const DeclStmt *> Locals;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitDeclStmt(DeclStmt *DS) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && isLocalArrayType(V->getType()))
        Locals.push_back(DS);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    Found.push_back(CE);
    return true;
  }
};

std::vector<const CallExpr *> callsIn(const FunctionDecl *F) {
  Calls C;
  C.TraverseStmt(const_cast<Stmt *>(F->getBody()));
  return C.Found;
}

std::vector<const DeclStmt *> localsIn(const FunctionDecl *F) {
  Calls C;
  C.TraverseStmt(const_cast<Stmt *>(F->getBody()));
  return C.Locals;
}

/// A helper with a body the emitter translates.
const FunctionDecl *helperOf(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() ||
      Def->getASTContext().getSourceManager().isInSystemHeader(
          Def->getLocation()))
    return nullptr;
  return Def;
}

class BarrierCheck {
public:
  using Path_ = std::vector<std::pair<const FunctionDecl *, const Expr *>>;
  BarrierCheck(
      std::function<void(const CallExpr *, const FunctionDecl *,
                         const Path_ &)>
          Report,
      std::function<void(const DeclStmt *, const Path_ &)> ReportLocal)
      : Report(std::move(Report)), ReportLocal(std::move(ReportLocal)) {}

  /// Does F, or a helper it calls, contain a barrier or a ferry::Local?
  bool reaches(const FunctionDecl *F) {
    auto It = Reaches.find(F);
    if (It != Reaches.end())
      return It->second;
    Reaches[F] = false; // recursion: reported by the emitter
    bool Found = !localsIn(F).empty();
    for (const CallExpr *CE : callsIn(F)) {
      if (isBarrier(CE))
        Found = true;
      else if (const FunctionDecl *H = helperOf(CE); H && !isBarrier(CE))
        Found |= reaches(H);
    }
    return Reaches[F] = Found;
  }

  void check(const FunctionDecl *F, CallContext Context) {
    if (!reaches(F))
      return;
    if (llvm::count_if(Path, [&](const auto &Fr) { return Fr.first == F; }) > 1)
      return; // recursion: reported by the emitter
    static const std::set<const ParmVarDecl *> NoReadOnly;
    WorkItemVariance V(F, Context, NoReadOnly);
    if (V.gaveUp())
      return;
    for (const DeclStmt *DS : localsIn(F))
      if (join(Context.Control, V.control(DS)) == Variance::Item)
        ReportLocal(DS, Path);
    for (const CallExpr *CE : callsIn(F)) {
      Variance Control = join(Context.Control, V.control(CE));
      if (isBarrier(CE)) {
        if (Control == Variance::Item)
          Report(CE, F, Path);
        continue;
      }
      const FunctionDecl *H = helperOf(CE);
      if (!H || !reaches(H))
        continue;
      CallContext Inner;
      Inner.Control = Control;
      unsigned Offset = isa<CXXOperatorCallExpr>(CE) &&
                                isa<CXXMethodDecl>(H) &&
                                !cast<CXXMethodDecl>(H)->isStatic()
                            ? 1
                            : 0;
      for (unsigned I = Offset; I < CE->getNumArgs(); ++I) {
        ParamFact P;
        P.Value = V.of(CE->getArg(I));
        P.Buffer = V.bufferOf(CE->getArg(I));
        Inner.Params.push_back(P);
      }
      Path.push_back({H, CE});
      check(H, Inner);
      Path.pop_back();
    }
  }

  std::vector<std::pair<const FunctionDecl *, const Expr *>> Path;

private:
  std::function<void(const CallExpr *, const FunctionDecl *,
                     const std::vector<std::pair<const FunctionDecl *,
                                                 const Expr *>> &)>
      Report;
  std::function<void(const DeclStmt *, const Path_ &)> ReportLocal;
  std::map<const FunctionDecl *, bool> Reaches;
};
} // namespace

void Emitter::checkBarriers(const FunctionDecl *Kernel) {
  // The notes that locate a helper's construct follow the call path.
  auto At = [&](const BarrierCheck::Path_ &Path, SourceLocation Loc,
                const char *Message, SourceRange Range) {
    std::vector<Frame> Saved = Stack;
    Stack.clear();
    for (const auto &[F, Site] : Path)
      Stack.push_back({F, Site});
    error(Loc, Message, Range);
    Stack = std::move(Saved);
  };
  BarrierCheck Check(
      [&](const CallExpr *Barrier, const FunctionDecl *, const auto &Path) {
        At(Path, Barrier->getBeginLoc(),
           "kc.barrier() under a condition that depends on the work-item's "
           "id: every work-item of a group must reach it, or none",
           Barrier->getSourceRange());
      },
      [&](const DeclStmt *DS, const auto &Path) {
        // The reference execution gives each declaration one array per
        // group, which needs every work-item of the group to declare it.
        At(Path, DS->getBeginLoc(),
           "a ferry::Local declared under a condition that depends on the "
           "work-item's id: every work-item of a group must declare it; "
           "declare it before the condition",
           DS->getSourceRange());
      });
  Check.Path.push_back({Kernel, nullptr});
  Check.check(Kernel, CallContext{});
}

} // namespace emit
} // namespace ferry
