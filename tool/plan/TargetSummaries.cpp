#include "plan/TargetSummaries.h"

namespace ferry {

TargetSummaries::TargetSummaries(std::vector<FileSummary> Others,
                                 FileSummary Self, bool Incomplete)
    : Incomplete(Incomplete) {
  Files.reserve(Others.size() + 1);
  for (FileSummary &F : Others)
    if (F.Source != Self.Source)
      Files.push_back(std::move(F));
  Files.push_back(std::move(Self));
  const FileSummary &SelfFile = Files.back();

  // An inline function of a header is in every file that includes it: any
  // copy will do (the same body gives the same facts), this file's first.
  for (auto It = Files.rbegin(); It != Files.rend(); ++It)
    for (const FunctionSummary &F : It->Functions)
      Functions.emplace(F.Usr, Entry{&F, &*It == &SelfFile});
  auto Find = [&](const std::string &Usr) -> const FunctionSummary * {
    auto It = Functions.find(Usr);
    return It == Functions.end() ? nullptr : It->second.Summary;
  };

  // Reaches a dispatch, through any file.
  std::set<std::string> Dispatching;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (auto &[Usr, E] : Functions) {
      if (Dispatching.count(Usr))
        continue;
      bool D = E.Summary->Dispatches;
      for (const SummaryCall &C : E.Summary->Calls)
        D = D || Dispatching.count(C.Callee);
      if (D)
        Grew = Dispatching.insert(Usr).second || Grew;
    }
  }
  // Planned, as plan/ProgramPlan.cpp decides it within one file: compute
  // functions, what they reach that reaches a dispatch, and acc.compute
  // lambdas that call planned functions and do more than call one compute
  // function.
  std::vector<std::string> Work;
  std::set<std::string> Reached;
  // An unknown file may call any dispatching function it can name.
  auto Root = [&](const FunctionSummary &F) {
    return F.Compute || (Incomplete && F.Dispatches && F.External);
  };
  for (auto &[Usr, E] : Functions)
    if (Root(*E.Summary) && Reached.insert(Usr).second)
      Work.push_back(Usr);
  while (!Work.empty()) {
    std::string Usr = Work.back();
    Work.pop_back();
    if (const FunctionSummary *F = Find(Usr))
      for (const SummaryCall &C : F->Calls)
        if (Find(C.Callee) && Reached.insert(C.Callee).second)
          Work.push_back(C.Callee);
  }
  for (const std::string &Usr : Reached)
    if (Root(*Find(Usr)) || Dispatching.count(Usr))
      Planned.insert(Usr);
  // A plain helper that a compute function or an acc.compute lambda
  // reaches and that calls a planned function (`drive(cc, body)` calling
  // `body.step(cc)` twice, with host code between) is planned too, as
  // within one file, wherever its callee is defined: its host code runs
  // between the callee's device work.
  std::set<std::string> Callers = Reached;
  for (auto &[Usr, E] : Functions)
    if (E.Summary->Lambda)
      for (const SummaryCall &C : E.Summary->Calls)
        if (Find(C.Callee) && Callers.insert(C.Callee).second)
          Work.push_back(C.Callee);
  while (!Work.empty()) {
    std::string Usr = Work.back();
    Work.pop_back();
    for (const SummaryCall &C : Find(Usr)->Calls)
      if (Find(C.Callee) && Callers.insert(C.Callee).second)
        Work.push_back(C.Callee);
  }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const std::string &Usr : Callers) {
      if (Planned.count(Usr))
        continue;
      bool CallsPlanned = Dispatching.count(Usr) > 0;
      for (const SummaryCall &C : Find(Usr)->Calls)
        CallsPlanned = CallsPlanned || Planned.count(C.Callee);
      if (CallsPlanned)
        Grew = Planned.insert(Usr).second || Grew;
    }
  }
  for (auto &[Usr, E] : Functions) {
    const FunctionSummary &F = *E.Summary;
    if (!F.Lambda || F.Dispatches)
      continue;
    bool CallsPlanned = false;
    for (const SummaryCall &C : F.Calls)
      CallsPlanned = CallsPlanned || Planned.count(C.Callee);
    const FunctionSummary *Single = Find(F.SingleCallee);
    if (CallsPlanned && !(Single && Single->Compute))
      Planned.insert(Usr);
  }

  // Host access: least fixpoint of each function's own facts joined with
  // its callees' at the parameters its arguments name. Recursion across
  // files only joins the same facts again.
  for (auto &[Usr, E] : Functions)
    if (!E.Summary->Opaque && !Planned.count(Usr))
      Access_[Usr] = E.Summary->Params;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (auto &[Usr, Mine] : Access_) {
      const FunctionSummary &F = *Find(Usr);
      for (const SummaryCall &C : F.Calls) {
        auto Callee = Access_.find(C.Callee);
        for (std::size_t K = 0; K < C.Args.size(); ++K) {
          int P = C.Args[K];
          if (P < 0 || static_cast<std::size_t>(P) >= Mine.size())
            continue;
          Access A = C.Unseen[K];
          if (Callee != Access_.end())
            A = K < Callee->second.size() ? Callee->second[K] : Access::None;
          Access Joined = Mine[P] | A;
          if (Joined != Mine[P]) {
            Mine[P] = Joined;
            Grew = true;
          }
        }
      }
    }
  }

  // Runs hidden code: its own file says so, or it may run a function that
  // no summary describes or that runs hidden code (least fixpoint: a cycle
  // adds nothing of its own).
  for (auto &[Usr, E] : Functions)
    if (E.Summary->RunsHidden)
      Hidden.insert(Usr);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (auto &[Usr, E] : Functions) {
      if (Hidden.count(Usr))
        continue;
      for (const std::string &C : E.Summary->RunsElsewhere)
        if (!Functions.count(C) || Hidden.count(C)) {
          Hidden.insert(Usr);
          Grew = true;
          break;
        }
    }
  }

  for (const FileSummary &F : Files) {
    bool IsSelf = &F == &SelfFile;
    for (const std::string &U : F.OtherUses)
      (IsSelf ? UsedHere : OtherUsesElsewhere).insert(U);
    if (IsSelf)
      for (const FunctionSummary &Fn : F.Functions)
        for (const SummaryCall &C : Fn.Calls)
          UsedHere.insert(C.Callee);
  }
}

const std::vector<Access> *
TargetSummaries::hostAccess(const std::string &Usr) const {
  auto It = Access_.find(Usr);
  return It == Access_.end() ? nullptr : &It->second;
}

const std::vector<std::optional<ElementRange>> *
TargetSummaries::hostRanges(const std::string &Usr) const {
  auto It = Functions.find(Usr);
  if (It == Functions.end() || !Access_.count(Usr))
    return nullptr;
  return &It->second.Summary->Ranges;
}

bool TargetSummaries::calledByPlannedElsewhere(const std::string &Usr) const {
  if (Incomplete)
    return true;
  for (std::size_t I = 0; I + 1 < Files.size(); ++I)
    for (const FunctionSummary &F : Files[I].Functions)
      if (Planned.count(F.Usr))
        for (const SummaryCall &C : F.Calls)
          if (C.Callee == Usr)
            return true;
  return false;
}

bool TargetSummaries::onlyPlannedCallsElsewhere(const std::string &Usr) const {
  if (Incomplete || OtherUsesElsewhere.count(Usr))
    return false;
  for (std::size_t I = 0; I + 1 < Files.size(); ++I)
    for (const FunctionSummary &F : Files[I].Functions)
      for (const SummaryCall &C : F.Calls)
        if (C.Callee == Usr && (!Planned.count(F.Usr) || !C.ExactArgs))
          return false;
  return true;
}

std::optional<std::set<unsigned>>
TargetSummaries::deadAnywhere(const std::string &Usr) const {
  return deadIn(Usr, Files.size());
}

std::optional<std::set<unsigned>>
TargetSummaries::deadIn(const std::string &Usr, std::size_t Count) const {
  std::optional<std::set<unsigned>> Dead;
  if (Incomplete)
    return std::set<unsigned>{};
  for (std::size_t I = 0; I < Count; ++I) {
    const FileSummary &F = Files[I];
    bool Names = llvm::is_contained(F.OtherUses, Usr);
    for (const FunctionSummary &Fn : F.Functions)
      for (const SummaryCall &C : Fn.Calls)
        Names = Names || C.Callee == Usr;
    if (!Names)
      continue;
    std::set<unsigned> Here;
    bool Confirmed = true;
    for (const auto &[Callee, Index] : F.DeadAssumes)
      Confirmed = Confirmed && keepsNothing(Callee, Index);
    if (auto It = F.DeadAfterCompute.find(Usr);
        Confirmed && It != F.DeadAfterCompute.end())
      Here.insert(It->second.begin(), It->second.end());
    if (!Dead) {
      Dead = Here;
      continue;
    }
    std::set<unsigned> Both;
    for (unsigned P : *Dead)
      if (Here.count(P))
        Both.insert(P);
    Dead = Both;
  }
  return Dead;
}

std::set<unsigned> TargetSummaries::keptOnDevice(const std::string &Usr,
                                                 bool AndHere) const {
  std::set<unsigned> Kept;
  for (std::size_t I = 0; I < Files.size(); ++I) {
    if (!AndHere && I + 1 == Files.size())
      continue; // the file being rewritten is the last
    auto It = Files[I].KeptOnDevice.find(Usr);
    if (It != Files[I].KeptOnDevice.end())
      Kept.insert(It->second.begin(), It->second.end());
  }
  return Kept;
}

OutsideUse TargetSummaries::privateFieldUse(const std::string &Field,
                                            const std::string &Class) const {
  if (Incomplete)
    return OutsideUse::Any;
  OutsideUse Use = OutsideUse::None;
  bool CastsAwayConst = false;
  std::set<std::string> Declared, Defined;
  for (const FileSummary &F : Files) {
    for (const PrivateFieldUse &U : F.PrivateFields)
      if (U.Field == Field && U.OutsideWrites)
        return OutsideUse::Any;
      else if (U.Field == Field && U.Outside)
        Use = OutsideUse::Reads;
    CastsAwayConst = CastsAwayConst || F.CastsAwayConst;
    for (const ClassMethods &M : F.Classes)
      if (M.Class == Class) {
        if (M.Open)
          return OutsideUse::Any;
        Declared.insert(M.Declared.begin(), M.Declared.end());
        Defined.insert(M.Defined.begin(), M.Defined.end());
      }
  }
  if (Declared.empty())
    return OutsideUse::Any; // no file describes the class
  for (const std::string &M : Declared)
    if (!Defined.count(M))
      return OutsideUse::Any;
  return Use == OutsideUse::Reads && CastsAwayConst ? OutsideUse::Any : Use;
}

const KernelOnlyPath *
TargetSummaries::kernelOnly(const std::string &Usr, int Param,
                            const std::vector<std::string> &Path) const {
  auto It = Functions.find(Usr);
  if (It == Functions.end() || It->second.Self)
    return nullptr;
  for (const KernelOnlyPath &P : It->second.Summary->KernelOnly)
    if (P.Param == Param && P.Path == Path)
      return &P;
  return nullptr;
}

std::optional<MemberPathAccess>
TargetSummaries::memberAccess(const std::string &Usr,
                              const std::vector<std::string> &Path) const {
  auto It = Functions.find(Usr);
  if (It == Functions.end() || It->second.Self || Planned.count(Usr) ||
      !It->second.Summary->Members)
    return std::nullopt;
  for (const MemberPathAccess &P : *It->second.Summary->Members)
    if (P.Path == Path)
      return P;
  MemberPathAccess None;
  None.Path = Path;
  return None;
}

bool TargetSummaries::pointerPlaceElsewhere(const std::string &Elem,
                                            bool ReadsToo) const {
  for (std::size_t I = 0; I + 1 < Files.size(); ++I) {
    const std::vector<std::string> &Types =
        ReadsToo ? Files[I].PointerReads : Files[I].PointerWrites;
    if (llvm::is_contained(Types, "*") || llvm::is_contained(Types, Elem))
      return true;
  }
  return false;
}

std::vector<std::string> TargetSummaries::derivedElementsElsewhere(
    const std::string &Base,
    const std::set<std::string> &BaseAndAncestors) const {
  if (Incomplete)
    return {"*"};
  std::vector<std::string> Out;
  for (std::size_t I = 0; I + 1 < Files.size(); ++I)
    for (const PolymorphicHolder &H : Files[I].PolymorphicHolders) {
      if (!llvm::is_contained(H.Bases, Base))
        continue;
      for (const auto &[Class, Elements] : H.Holds)
        if (!BaseAndAncestors.count(Class))
          for (const std::string &E : Elements)
            if (!llvm::is_contained(Out, E))
              Out.push_back(E);
    }
  return Out;
}

std::vector<std::string> TargetSummaries::callableElementsElsewhere() const {
  if (Incomplete)
    return {"*"};
  std::vector<std::string> Out;
  for (std::size_t I = 0; I + 1 < Files.size(); ++I)
    for (const std::string &E : Files[I].CallableElements)
      if (!llvm::is_contained(Out, E))
        Out.push_back(E);
  return Out;
}

bool TargetSummaries::keepsNothing(const std::string &Usr,
                                   unsigned Index) const {
  auto It = Functions.find(Usr);
  return It != Functions.end() &&
         llvm::is_contained(It->second.Summary->KeepsNothing, Index);
}

bool TargetSummaries::unusedHere(const std::string &Usr) const {
  return !UsedHere.count(Usr);
}

} // namespace ferry
