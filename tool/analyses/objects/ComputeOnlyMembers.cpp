#include "analyses/objects/ComputeOnlyMembers.h"

#include "analyses/objects/BufferObjects.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <vector>

using namespace clang;

namespace ferry {
namespace {

const FunctionDecl *canonicalDefinition(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = F->getDefinition();
  return (Def ? Def : F)->getCanonicalDecl();
}

/// Who names each function and each private buffer field, and from where.
struct Uses : RecursiveASTVisitor<Uses> {
  struct Use {
    const FunctionDecl *From = nullptr; // null: outside any function
    bool DirectCall = false;
  };
  std::map<const FunctionDecl *, std::vector<Use>> OfFunction;
  std::map<const FieldDecl *, std::vector<const FunctionDecl *>> OfField;
  std::set<const FieldDecl *> AddressTaken;
  const FunctionDecl *Current = nullptr;
  const Expr *Callee = nullptr;

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    const FunctionDecl *Saved = Current;
    if (const auto *F = dyn_cast_or_null<FunctionDecl>(D))
      Current = canonicalDefinition(F);
    else if (D && (isa<RecordDecl>(D) || isa<VarDecl>(D)) &&
             !D->getParentFunctionOrMethod())
      Current = nullptr; // a class's or a global's initialisers
    RecursiveASTVisitor::TraverseDecl(D);
    Current = Saved;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    const FunctionDecl *Saved = Current;
    // The lambda's body runs where the lambda is called, not where it is
    // written: its call operator is a function of its own, named here.
    OfFunction[canonicalDefinition(L->getCallOperator())].push_back(
        Use{Current, false});
    Current = canonicalDefinition(L->getCallOperator());
    RecursiveASTVisitor::TraverseLambdaExpr(L);
    Current = Saved;
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (Call->getDirectCallee())
      Callee = Call->getCallee()->IgnoreParenImpCasts();
    return true;
  }
  void function(const ValueDecl *D, const Expr *E) {
    if (const auto *F = dyn_cast<FunctionDecl>(D))
      OfFunction[canonicalDefinition(F)].push_back(Use{Current, E == Callee});
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    function(Ref->getDecl(), Ref);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    function(ME->getMemberDecl(), ME);
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      OfField[FD].push_back(Current);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const auto *ME =
              dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
        if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
          AddressTaken.insert(FD);
    return true;
  }
};

/// Only code of this translation unit can call F: a private method (its
/// class's members and friends, all here when the class qualifies), a
/// function of internal linkage, or a lambda's call operator. Not a virtual
/// method: a call through a base reaches it unnamed.
bool callersAllHere(const FunctionDecl *F) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(F)) {
    if (M->getParent()->isLambda())
      return true;
    if (M->isVirtual())
      return false;
    return M->getAccess() == AS_private;
  }
  return !F->isExternallyVisible();
}

/// Every function that could name RD's private members has its body here:
/// its methods, those of the classes nested in it, its friend functions. A
/// friend class, a template, or a method defined elsewhere: not known.
bool allMembersHere(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition() || RD->getDescribedClassTemplate() ||
      isa<ClassTemplateSpecializationDecl>(RD) || RD->isDependentContext())
    return false;
  RD = RD->getDefinition();
  for (const CXXMethodDecl *M : RD->methods())
    if (!M->isImplicit() && !M->isDefaulted() && !M->isDeleted() &&
        !M->isPureVirtual() && !M->hasBody())
      return false;
  for (const FriendDecl *Friend : RD->friends()) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(Friend->getFriendDecl());
    if (!F || !F->hasBody())
      return false;
  }
  for (const Decl *D : RD->decls())
    if (const auto *Nested = dyn_cast<CXXRecordDecl>(D))
      if (Nested->isThisDeclarationADefinition() && !allMembersHere(Nested))
        return false;
  return true;
}

/// A private `Buffer<T>` field, held by value, of a class that is no
/// template.
bool candidateField(const FieldDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  return FD->getAccess() == AS_private && isBufferType(FD->getType()) && RD &&
         !RD->getDescribedClassTemplate() &&
         !isa<ClassTemplateSpecializationDecl>(RD) && !RD->isDependentContext();
}

bool ownLifetime(const FunctionDecl *From, const CXXRecordDecl *RD) {
  return From && (isa<CXXConstructorDecl>(From) ||
                  isa<CXXDestructorDecl>(From)) &&
         cast<CXXMethodDecl>(From)->getParent()->getCanonicalDecl() ==
             RD->getCanonicalDecl();
}

} // namespace

PrivateFieldFacts
privateFieldFacts(ASTContext &Ctx,
                  const std::set<const FunctionDecl *> &Planned) {
  Uses U;
  U.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::set<const FunctionDecl *> Inside;
  for (const FunctionDecl *F : Planned)
    Inside.insert(canonicalDefinition(F));
  PrivateFieldFacts Facts;
  std::set<const CXXRecordDecl *> Classes;
  for (const auto &[FD, Users] : U.OfField) {
    if (!candidateField(FD))
      continue;
    const auto *RD = cast<CXXRecordDecl>(FD->getParent());
    bool Outside = U.AddressTaken.count(FD) != 0;
    for (const FunctionDecl *From : Users)
      Outside = Outside || !(ownLifetime(From, RD) || Inside.count(From));
    Facts.Fields.push_back({FD, Outside});
    Classes.insert(RD->getCanonicalDecl());
  }
  for (const CXXRecordDecl *RD : Classes) {
    PrivateFieldFacts::Class C;
    C.Decl = RD;
    const CXXRecordDecl *Def = RD->getDefinition();
    C.Open = !Def || !Def->friends().empty();
    if (Def)
      for (const CXXMethodDecl *M : Def->methods()) {
        if (M->isImplicit() || M->isDefaulted() || M->isDeleted() ||
            M->isPureVirtual())
          continue;
        C.Declared.push_back(M);
        if (M->hasBody())
          C.Defined.push_back(M);
      }
    for (const Decl *D : Def ? Def->decls() : RD->decls())
      if (const auto *Nested = dyn_cast<CXXRecordDecl>(D))
        if (Nested->isThisDeclarationADefinition())
          C.Open = true; // its methods may name the members too
    Facts.Classes.push_back(std::move(C));
  }
  return Facts;
}

std::set<const FieldDecl *>
computeOnlyMembers(ASTContext &Ctx,
                   const std::set<const FunctionDecl *> &Planned,
                   const ComputeOnlyElsewhere &Elsewhere) {
  Uses U;
  U.TraverseDecl(Ctx.getTranslationUnitDecl());

  std::set<const FunctionDecl *> PlannedCanonical;
  for (const FunctionDecl *F : Planned)
    PlannedCanonical.insert(canonicalDefinition(F));
  // The greatest set of functions that run only inside a compute: planned
  // ones, and those only this file can call whose every use is a direct
  // call from one of the set.
  std::set<const FunctionDecl *> Inside = PlannedCanonical;
  for (const auto &[F, Users] : U.OfFunction)
    if (F && callersAllHere(F))
      Inside.insert(F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Inside.begin(); It != Inside.end();) {
      bool Keep = PlannedCanonical.count(*It) != 0;
      if (!Keep) {
        Keep = true;
        auto Users = U.OfFunction.find(*It);
        if (Users != U.OfFunction.end())
          for (const Uses::Use &Use : Users->second)
            Keep = Keep && Use.DirectCall && Use.From && Inside.count(Use.From);
      }
      if (Keep) {
        ++It;
      } else {
        It = Inside.erase(It);
        Changed = true;
      }
    }
  }

  std::set<const FieldDecl *> Result;
  for (const auto &[FD, Users] : U.OfField) {
    if (!candidateField(FD) || U.AddressTaken.count(FD))
      continue;
    const auto *RD = cast<CXXRecordDecl>(FD->getParent());
    if (!allMembersHere(RD)) {
      // Its members are spread over the target's files: theirs decide.
      if (Elsewhere && Elsewhere(FD))
        Result.insert(FD);
      continue;
    }
    bool OnlyCompute = true;
    for (const FunctionDecl *From : Users)
      OnlyCompute = OnlyCompute && (ownLifetime(From, RD) || Inside.count(From));
    if (OnlyCompute)
      Result.insert(FD);
  }
  return Result;
}

bool isComputeOnlyMember(const BufferObject &O,
                         const std::set<const FieldDecl *> &Members) {
  const auto *Field = dyn_cast_or_null<FieldDecl>(O.Decl);
  return O.Kind == ObjectKind::ParameterMember && Field &&
         O.Path.size() == 1 && Members.count(Field);
}

} // namespace ferry
