// Per-function host summaries (see HostAccess.h): a helper's events,
// folded into what it does to each Buffer parameter and buffer member.

#include "analyses/HostAccess.h"

#include "analyses/CallGraphs.h"
#include "analyses/MemberBuffers.h"
#include "model/FerryTypes.h"

using namespace clang;

namespace ferry {

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
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    if (!refersToBuffer(P->getType())) {
      Result[I] = PointerSummary[I];
      continue;
    }
    auto Entry = Table.entryPointsTo().find(P);
    if (Entry == Table.entryPointsTo().end())
      continue;
    for (const HostEvent &E : Events)
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

std::map<const FieldDecl *, Access>
HostSummaryCache::memberSummary(const CXXMethodDecl *M, bool Virtual) {
  std::map<const FieldDecl *, Access> Result;
  const FunctionDecl *Def = M->getDefinition();
  bool Seen = Def && Def->hasBody() && !Virtual;
  if (Seen) {
    if (auto It = MemberCache.find(Def); It != MemberCache.end())
      return It->second;
  }
  std::vector<const FieldDecl *> Reached = bufferFieldsReached(M, Virtual);
  // Unseen, recursive, or planned on its own (it dispatches): everything it
  // reaches is read and written, as far as its callers know.
  if (!Seen || InProgress[Def] || dispatchesDirectly(Def)) {
    for (const FieldDecl *FD : Reached)
      Result[FD] = Access::ReadWrite;
    return Result;
  }
  InProgress[Def] = true;
  for (const FieldDecl *FD : Reached)
    Result[FD] = Access::None;
  ObjectTable Table(Def);
  PointsTo Facts = Table.entryPointsTo();
  std::vector<HostEvent> Events =
      collectHostEvents(Def->getBody(), Table, Facts, *this);
  for (const HostEvent &E : Events)
    for (ObjectId Id : E.Targets.Ids) {
      const BufferObject &O = Table.object(Id);
      if (O.Base == Table.thisKey())
        if (const auto *FD = dyn_cast_or_null<FieldDecl>(O.Decl))
          Result[FD] |=
              E.Kind == HostEventKind::Access ? E.Mode : Access::ReadWrite;
    }
  InProgress[Def] = false;
  return MemberCache[Def] = Result;
}

} // namespace ferry
