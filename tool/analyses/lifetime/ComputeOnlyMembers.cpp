#include "analyses/lifetime/ComputeOnlyMembers.h"

#include "analyses/paths/AccessPath.h"
#include "analyses/paths/ObjectTable.h"
#include "model/FerryTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

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
  struct FieldUse {
    const FunctionDecl *From = nullptr;
    bool ReadsOnly = false;
  };
  std::map<const FunctionDecl *, std::vector<Use>> OfFunction;
  std::map<const FieldDecl *, std::vector<FieldUse>> OfField;
  std::set<const FieldDecl *> AddressTaken;
  const FunctionDecl *Current = nullptr;
  const Expr *Callee = nullptr;
  // Expressions whose parent (visited first) only reads them: the object of
  // a const method, or bound as a const reference.
  std::set<const Expr *> ReadThrough;
  // The program's own code casts const away somewhere: what a const
  // accessor handed out may be written after all.
  bool DropsConst = false;
  const SourceManager *SM = nullptr;

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
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
    if (!M || !M->isConst())
      return true;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      ReadThrough.insert(Member->getImplicitObjectArgument()->IgnoreParenImpCasts());
    else if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0)
      ReadThrough.insert(Call->getArg(0)->IgnoreParenImpCasts());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    QualType T = IC->getType();
    if (IC->getCastKind() == CK_NoOp && T.isConstQualified())
      ReadThrough.insert(IC->getSubExpr()->IgnoreParens());
    // `b[i]` as a value: the non-const operator[] of a buffer, only read.
    if (IC->getCastKind() == CK_LValueToRValue)
      if (const auto *Op =
              dyn_cast<CXXOperatorCallExpr>(IC->getSubExpr()->IgnoreParens());
          Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
          isBufferType(Op->getArg(0)->getType()))
        ReadThrough.insert(Op->getArg(0)->IgnoreParenImpCasts());
    return true;
  }
  // `for (float v : b)`, `for (const float &v : b)`: the elements are
  // copied or bound const, so the buffer is only read.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *RF) {
    QualType Var = RF->getLoopVariable()->getType();
    if (!Var->isReferenceType() || Var.getNonReferenceType().isConstQualified())
      if (const Expr *Range = RF->getRangeInit())
        if (isBufferType(Range->getType()))
          ReadThrough.insert(Range->IgnoreParenImpCasts());
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *EC) {
    if (!DropsConst && castsAwayConst(EC) && SM &&
        !SM->isInSystemHeader(EC->getBeginLoc()) && !inFerryRuntime())
      DropsConst = true;
    return true;
  }
  /// Code of the runtime's headers (namespace ferry), whose casts write only
  /// their own bookkeeping.
  bool inFerryRuntime() const {
    if (!Current)
      return false;
    const DeclContext *DC = Current->getDeclContext();
    for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
      if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
          NS && NS->getName() == "ferry" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
    return false;
  }
  /// `const_cast`, or a C-style or functional cast that does its work: from
  /// a const object (a reference) or a pointer to const, to one that is not.
  static bool castsAwayConst(const ExplicitCastExpr *EC) {
    if (isa<CXXConstCastExpr>(EC))
      return true;
    if (!isa<CStyleCastExpr>(EC) && !isa<CXXFunctionalCastExpr>(EC))
      return false;
    QualType To = EC->getTypeAsWritten();
    QualType From = EC->getSubExpr()->getType();
    if (To->isReferenceType())
      return From.isConstQualified() &&
             !To.getNonReferenceType().isConstQualified();
    return To->isPointerType() && From->isPointerType() &&
           From->getPointeeType().isConstQualified() &&
           !To->getPointeeType().isConstQualified();
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
    // What is done to `grid_.cur` is done to `grid_`: the member's object
    // (not a pointer's target) inherits how it is used.
    if (!ME->isArrow())
      if (const auto *Base =
              dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (ReadThrough.count(ME))
          ReadThrough.insert(Base);
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      OfField[FD].push_back(
          {Current,
           ME->getType().isConstQualified() || ReadThrough.count(ME) != 0});
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

/// A private field of a class that is no template, holding buffers by
/// value: a `Buffer<T>`, or an object with buffer members at some depth
/// (`grid_` of `struct Grid { Buffer<float> cur, next; }`).
bool candidateField(const FieldDecl *FD) {
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  if (FD->getAccess() != AS_private || !RD ||
      RD->getDescribedClassTemplate() ||
      isa<ClassTemplateSpecializationDecl>(RD) || RD->isDependentContext())
    return false;
  if (isBufferType(FD->getType()))
    return true;
  const auto *Held = FD->getType()->getAsCXXRecordDecl();
  return Held && Held->hasDefinition() && !bufferPathsOf(Held).empty();
}

bool ownLifetime(const FunctionDecl *From, const CXXRecordDecl *RD) {
  return From && (isa<CXXConstructorDecl>(From) ||
                  isa<CXXDestructorDecl>(From)) &&
         cast<CXXMethodDecl>(From)->getParent()->getCanonicalDecl() ==
             RD->getCanonicalDecl();
}

/// What the uses of one of RD's private fields outside `Inside` (and RD's
/// constructors and destructor, which make and end the buffer) may do.
/// Reads only where the program never casts const away: otherwise what a
/// const method hands out may be written through a cast anywhere.
OutsideUse outsideUse(const Uses &U, const FieldDecl *FD,
                      const std::vector<Uses::FieldUse> &FieldUses,
                      const std::set<const FunctionDecl *> &Inside) {
  const auto *RD = cast<CXXRecordDecl>(FD->getParent());
  if (U.AddressTaken.count(FD))
    return OutsideUse::Any;
  OutsideUse Result = OutsideUse::None;
  for (const Uses::FieldUse &Use : FieldUses) {
    if (ownLifetime(Use.From, RD) || Inside.count(Use.From))
      continue;
    if (!Use.ReadsOnly || U.DropsConst)
      return OutsideUse::Any;
    Result = OutsideUse::Reads;
  }
  return Result;
}

} // namespace

PrivateFieldFacts
privateFieldFacts(ASTContext &Ctx,
                  const std::set<const FunctionDecl *> &Planned) {
  Uses U;
  U.SM = &Ctx.getSourceManager();
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
    const OutsideUse Use = outsideUse(U, FD, Users, Inside);
    Facts.Fields.push_back(
        {FD, Use != OutsideUse::None, Use == OutsideUse::Any});
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
  Facts.CastsAwayConst = U.DropsConst;
  return Facts;
}

PrivateMembers
computeOnlyMembers(ASTContext &Ctx,
                   const std::set<const FunctionDecl *> &Planned,
                   const ComputeOnlyElsewhere &Elsewhere) {
  Uses U;
  U.SM = &Ctx.getSourceManager();
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

  PrivateMembers Result;
  for (const auto &[FD, Users] : U.OfField) {
    if (!candidateField(FD) || U.AddressTaken.count(FD))
      continue;
    const auto *RD = cast<CXXRecordDecl>(FD->getParent());
    // Where its members are spread over the target's files, theirs decide.
    OutsideUse Use = allMembersHere(RD) ? outsideUse(U, FD, Users, Inside)
                     : Elsewhere        ? Elsewhere(FD)
                                        : OutsideUse::Any;
    // Another file of the target may cast const away (and it need not name
    // the member to write what a const accessor handed out).
    if (Use == OutsideUse::Reads && Elsewhere && Elsewhere(FD) == OutsideUse::Any)
      Use = OutsideUse::Any;
    if (Use == OutsideUse::None)
      Result.ComputeOnly.insert(FD);
    else if (Use == OutsideUse::Reads)
      Result.HostReadsOnly.insert(FD);
  }
  return Result;
}

bool isComputeOnlyMember(const BufferObject &O,
                         const std::set<const FieldDecl *> &Members) {
  // A buffer held by value at any depth below the private member: a path
  // through a pointer or reference member ends before it, so none is here.
  return O.Kind == ObjectKind::ParameterMember && !O.Elements &&
         !O.Path.empty() && !isOpaquePath(O.Path) &&
         isBufferType(O.Path.back()->getType()) &&
         Members.count(O.Path.front());
}

} // namespace ferry
