// Host events: the calls Ferry knows by name. Standard algorithms read or
// write according to the iterators they get, over the span those give;
// memcpy, memmove, memset and memcmp over the bytes their count says; MPI's
// functions send and receive over their counts (MpiCalls.h). What such a
// call reads is listed before what it writes.

#include "analyses/host/HostEventWalker.h"

#include "analyses/host/HostAccessInternal.h"
#include "analyses/paths/ObjectTable.h"
#include "model/FerryTypes.h"
#include "model/StableOrder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace ferry {

namespace {

/// A standard algorithm that reads the elements of its iterator ranges and
/// no others, and writes none (`std::count`, `std::lower_bound`).
bool readsWithinRange(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = {
      "accumulate", "reduce", "inner_product", "transform_reduce", "count",
      "count_if", "find", "find_if", "find_if_not", "equal", "all_of",
      "any_of", "none_of", "max_element", "min_element", "minmax_element",
      "mismatch", "lexicographical_compare", "search", "adjacent_find",
      "is_sorted", "binary_search", "lower_bound", "upper_bound",
      "equal_range"};
  return Names.contains(Name);
}

/// What a standard algorithm does through the iterator in argument `Index`.
Access stdAlgorithmAccess(llvm::StringRef Name, unsigned Index,
                          unsigned NumArgs) {
  static const llvm::StringSet<> ReadOnly = {"distance", "max", "min",
                                             "begin",    "end", "size"};
  static const llvm::StringSet<> CopyToThird = {
      "copy", "copy_if", "copy_backward", "move", "move_backward", "copy_n",
      "reverse_copy", "remove_copy", "remove_copy_if", "replace_copy",
      "replace_copy_if", "unique_copy", "partial_sum", "adjacent_difference",
      "exclusive_scan", "inclusive_scan"};
  static const llvm::StringSet<> FillRange = {"fill", "generate", "iota",
                                              "fill_n", "generate_n"};
  if (readsWithinRange(Name) || ReadOnly.contains(Name))
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

} // namespace

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

void HostWalker::visitMemoryCall(const CallExpr *Call) {
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

void HostWalker::visitMpiCall(const CallExpr *Call, const MpiFunction &M) {
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

void HostWalker::visitStdAlgorithm(const CallExpr *Call, llvm::StringRef Name) {
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

std::map<unsigned, HostWalker::AlgorithmSpan>
HostWalker::algorithmSpans(const CallExpr *Call, llvm::StringRef Name) {
  static const llvm::StringSet<> Counted = {"copy_n", "fill_n",
                                            "generate_n"};
  // Besides those that only read within their range, those that write
  // within it.
  static const llvm::StringSet<> WithinRange = {
      "fill",    "generate", "iota",       "sort",     "stable_sort",
      "reverse", "replace",  "replace_if", "for_each", "unique"};
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
  if (N < 2 || !(Copy || readsWithinRange(Name) || WithinRange.contains(Name) ||
                 Name == "transform"))
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

const void *HostWalker::bufferKey(const Expr *Arg) const {
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

void HostWalker::algorithmArgument(const CallExpr *Call, llvm::StringRef Name,
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

} // namespace ferry
