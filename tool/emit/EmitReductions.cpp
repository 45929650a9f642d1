// Kernels with reductions (ferry::Sum, Min, Max parameters; see
// <ferry/reduction.hpp>). Such a kernel is printed in three parts:
//  * its body, as the helper `<kernel>_ferry_item`, run once per work-item
//    of the dispatch's range with a ferry_KernelContext made for it, each
//    reducer a pointer to a private value that `r += v` and `r.combine(v)`
//    fold into;
//  * the kernel `<kernel>`, whose work-items stride over the range calling
//    the item, then fold their values in local memory, one value per group
//    and reducer left in the runtime's partials buffer;
//  * the kernel `<kernel>_ferry_finish`, one group, that folds the partials
//    into element 0 of each reducer's buffer.
// The runtime (Launch.cpp, enqueueReduction) binds the arguments in the
// order printed here.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "analyses/CallGraphs.h"
#include "analyses/kernel/WorkGroupUse.h"

using namespace clang;

namespace ferry {
namespace emit {

namespace {

struct Reduction {
  const ParmVarDecl *Param;
  std::string Element; // the OpenCL C type
  bool Floating;
  std::string Operation; // plus, minimum, maximum
  std::string Partials, Scratch, Value;
};

std::string identityOf(const Reduction &R) {
  if (R.Operation == "plus")
    return "0";
  const bool Min = R.Operation == "minimum";
  if (R.Floating)
    return std::string(Min ? "" : "-") + "(" + R.Element + ")INFINITY";
  if (R.Element == "uint")
    return Min ? "UINT_MAX" : "0u";
  return Min ? "INT_MAX" : "INT_MIN";
}

/// The lines that fold the work-group's values of each reduction into its
/// scratch[0], with `Indent` before each line.
std::string groupTree(const std::vector<Reduction> &Rs,
                      const std::string &Indent,
                      llvm::function_ref<std::string(const Reduction &,
                                                     const std::string &,
                                                     const std::string &)>
                          combined) {
  std::string S;
  for (const Reduction &R : Rs)
    S += Indent + R.Scratch + "[ferry_l] = " + R.Value + ";\n";
  S += Indent + "for (int ferry_half = (int)get_local_size(0) / 2; "
                "ferry_half > 0; ferry_half /= 2) {\n";
  S += Indent + Indent + "barrier(CLK_LOCAL_MEM_FENCE);\n";
  S += Indent + Indent + "if (ferry_l < ferry_half) {\n";
  for (const Reduction &R : Rs)
    S += Indent + Indent + Indent + R.Scratch + "[ferry_l] = " +
         combined(R, R.Scratch + "[ferry_l]",
                  R.Scratch + "[ferry_l + ferry_half]") +
         ";\n";
  S += Indent + Indent + "}\n" + Indent + "}\n";
  return S;
}

} // namespace

// `A op B` as the reference's ferry::plus/minimum/maximum computes it (the
// same comparison, so NaNs fall as on the host), min and max through a
// function so that each operand is evaluated once.
std::string Emitter::reducerFold(const std::string &Operation,
                                 const std::string &Element,
                                 const std::string &A, const std::string &B) {
  if (Operation == "plus")
    return A + " + " + B;
  ReducerOps.insert({Operation, Element});
  return "ferry_" + Operation + "_" + Element + "(" + A + ", " + B + ")";
}

bool hasReducerParam(const FunctionDecl *F) {
  return llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
    return isReducerType(P->getType());
  });
}

void Emitter::emitReductionKernel(const FunctionDecl *K) {
  const std::string Name = openclName(K);
  const SourceLocation KLoc = K->getLocation();
  if (std::optional<WorkGroupUse> Use =
          firstWorkGroupUse(kernelReachableGraph(K))) {
    error(Use->Loc, "kernel '" + K->getNameAsString() +
                        "' has a reduction, so Ferry chooses its work-groups; "
                        "it cannot use " + Use->What);
    return;
  }
  // The item's parameters: every pointer a buffer in global memory.
  std::vector<Space> Spaces;
  std::vector<Reduction> Rs;
  std::vector<std::string> Params, Passed;
  for (unsigned I = 0; I < K->getNumParams(); ++I) {
    const ParmVarDecl *P = K->getParamDecl(I);
    QualType T = P->getType();
    const std::string PName = P->getName().str();
    if (I == 0 && isKernelContextType(T)) {
      Passed.push_back("ferry_kc");
      continue;
    }
    if (isReducerType(T)) {
      if (T->isReferenceType()) {
        error(P->getLocation(), "a reducer parameter is taken by value: "
                                "'ferry::Sum<T> " + PName + "'");
        return;
      }
      ReducerKind RK = reducerKind(T);
      Reduction R{P,
                  typeName(RK.Element, P->getLocation()),
                  RK.Element->isRealFloatingType(),
                  RK.Operation,
                  "ferry_partials_" + PName,
                  "ferry_scratch_" + PName,
                  "ferry_value_" + PName};
      Params.push_back("__global " + R.Element + "* restrict " + R.Partials);
      Params.push_back("__local " + R.Element + "* " + R.Scratch);
      Passed.push_back("&" + R.Value);
      Rs.push_back(std::move(R));
      continue;
    }
    if (T->isReferenceType() || isLocalSpanType(T) || isLocalArrayType(T)) {
      error(P->getLocation(),
            T->isReferenceType()
                ? "kernel parameters cannot be references; pass buffers as "
                  "pointers and scalars by value"
                : "a kernel with a reduction cannot take local memory, since "
                  "Ferry chooses its work-groups");
      return;
    }
    if (T->isPointerType()) {
      Spaces.push_back(Space::Global);
      std::string Decl =
          declare(T.getUnqualifiedType(), PName, P->getLocation(), Space::Global);
      if (Restrict.isRestrict(K, I) &&
          llvm::StringRef(Decl).ends_with("* " + PName))
        Decl.insert(Decl.size() - PName.size(), "restrict ");
      Params.push_back(Decl);
      Passed.push_back(PName);
    } else if (T->isBooleanType()) {
      // OpenCL forbids bool kernel arguments: the host passes the byte.
      Params.push_back("uchar ferry_" + PName);
      Passed.push_back("(bool)ferry_" + PName);
    } else {
      Params.push_back(
          declare(T.getUnqualifiedType(), PName, P->getLocation()));
      Passed.push_back(PName);
    }
  }
  for (const char *N : {"ferry_n0", "ferry_n1", "ferry_n2"})
    Params.push_back(std::string("int ") + N);

  // The body, as a helper taking the context whole.
  NeedsKernelContext = true;
  Version Item;
  Item.Name = Name + "_ferry_item";
  while (UsedNames.count(Item.Name))
    Item.Name += "_";
  UsedNames.insert(Item.Name);
  Stack.clear();
  Stack.push_back({K, nullptr});
  ReductionItem = K;
  emitFunction(K, Spaces, Item.Name, /*IsKernel=*/false, Item);
  ReductionItem = nullptr;
  if (HadError)
    return;

  auto combined = [&](const Reduction &R, const std::string &A,
                      const std::string &B) {
    return reducerFold(R.Operation, R.Element, A, B);
  };
  const std::string In(IndentWidth, ' ');
  const std::string In2 = In + In, In3 = In2 + In;
  const std::string Line =
      "#line " + std::to_string(SM.getExpansionLineNumber(KLoc)) + " " +
      quoted(fileOf(KLoc)) + "\n";
  auto Signature = [&](const std::string &KName,
                       const std::vector<std::string> &Ps) {
    std::string Sig = "__kernel void " + KName + "(";
    const std::string Align(Sig.size(), ' ');
    size_t LineStart = 0;
    for (size_t I = 0; I < Ps.size(); ++I) {
      if (I && Sig.size() - LineStart + Ps[I].size() + 3 > 80) {
        Sig += ",\n";
        LineStart = Sig.size();
        Sig += Align;
      } else if (I) {
        Sig += ", ";
      }
      Sig += Ps[I];
    }
    return Sig + ") {\n";
  };
  std::string Call = Item.Name + "(";
  for (size_t I = 0; I < Passed.size(); ++I)
    Call += (I ? ", " : "") + Passed[I];
  Call += ");\n";

  // The kernel: a stride loop over the range (a plain one over x when the
  // range is one-dimensional, sparing the divisions), then the group's tree.
  std::string S = Line + Signature(Name, Params);
  for (const Reduction &R : Rs)
    S += In + R.Element + " " + R.Value + " = " + identityOf(R) + ";\n";
  S += In + "const int ferry_step = (int)get_global_size(0);\n";
  S += In + "if (ferry_n1 == 1 && ferry_n2 == 1) {\n";
  S += In2 + "for (int ferry_i = (int)get_global_id(0); ferry_i < ferry_n0; "
             "ferry_i += ferry_step) {\n";
  S += In3 + "const ferry_KernelContext ferry_kc = {ferry_i, 0, 0, ferry_n0, "
             "1, 1, 0, 0, 0, 1, 1, 1,\n";
  S += In3 + "                                     ferry_i, 0, 0, ferry_n0, "
             "1, 1" + std::string(WideContext ? ", ferry_i, 0, 0,\n" : "};\n");
  if (WideContext)
    S += In3 + "                                     ferry_n0, 1, 1};\n";
  S += In3 + Call + In2 + "}\n";
  S += In + "} else {\n";
  S += In2 + "const int ferry_count = ferry_n0 * ferry_n1 * ferry_n2;\n";
  S += In2 + "for (int ferry_i = (int)get_global_id(0); ferry_i < "
             "ferry_count; ferry_i += ferry_step) {\n";
  S += In3 + "const int ferry_x = ferry_i % ferry_n0;\n";
  S += In3 + "const int ferry_y = ferry_i / ferry_n0 % ferry_n1;\n";
  S += In3 + "const int ferry_z = ferry_i / ferry_n0 / ferry_n1;\n";
  S += In3 + "const ferry_KernelContext ferry_kc = {ferry_x, ferry_y, "
             "ferry_z, ferry_n0, ferry_n1,\n";
  S += In3 + "                                     ferry_n2, 0, 0, 0, 1, 1, "
             "1, ferry_x, ferry_y,\n";
  S += In3 + "                                     ferry_z, ferry_n0, "
             "ferry_n1, ferry_n2" +
       std::string(WideContext ? ", ferry_x,\n" : "};\n");
  if (WideContext)
    S += In3 + "                                     ferry_y, ferry_z, ferry_n0, "
               "ferry_n1, ferry_n2};\n";
  S += In3 + Call + In2 + "}\n" + In + "}\n";
  S += In + "const int ferry_l = (int)get_local_id(0);\n";
  S += groupTree(Rs, In, combined);
  S += In + "if (ferry_l == 0) {\n";
  for (const Reduction &R : Rs)
    S += In2 + R.Partials + "[get_group_id(0)] = " + R.Scratch + "[0];\n";
  S += In + "}\n}\n\n";

  // The finishing kernel: each reducer's partials, its buffer, its scratch.
  std::vector<std::string> FinishParams;
  for (const Reduction &R : Rs) {
    const std::string Target = R.Param->getName().str();
    FinishParams.push_back("const __global " + R.Element + "* restrict " +
                           R.Partials);
    FinishParams.push_back("__global " + R.Element + "* restrict " + Target);
    FinishParams.push_back("__local " + R.Element + "* " + R.Scratch);
  }
  FinishParams.push_back("int ferry_groups");
  std::string F = Line + Signature(Name + "_ferry_finish", FinishParams);
  F += In + "const int ferry_l = (int)get_local_id(0);\n";
  for (const Reduction &R : Rs)
    F += In + R.Element + " " + R.Value + " = " + identityOf(R) + ";\n";
  F += In + "for (int ferry_g = ferry_l; ferry_g < ferry_groups; "
            "ferry_g += (int)get_local_size(0)) {\n";
  for (const Reduction &R : Rs)
    F += In2 + R.Value + " = " +
         combined(R, R.Value, R.Partials + "[ferry_g]") + ";\n";
  F += In + "}\n";
  F += groupTree(Rs, In, combined);
  F += In + "if (ferry_l == 0) {\n";
  for (const Reduction &R : Rs) {
    const std::string Target = R.Param->getName().str() + "[0]";
    F += In2 + Target + " = " + combined(R, Target, R.Scratch + "[0]") +
         ";\n";
  }
  F += In + "}\n}\n\n";

  Funcs.push_back({S + F, SM.getExpansionLoc(K->getBeginLoc()), {Item.Index}});
}

// `r += v` and `r.combine(v)` on a reducer parameter of the item being
// printed: fold v into its private value.
std::optional<std::string> Emitter::reducerCall(const CallExpr *CE) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!M || !isReducerType(QualType(M->getParent()->getTypeForDecl(), 0)))
    return std::nullopt;
  const Expr *Object = nullptr;
  const Expr *Value = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Object = MC->getImplicitObjectArgument();
    Value = MC->getNumArgs() == 1 ? MC->getArg(0) : nullptr;
  } else if (isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() == 2) {
    Object = CE->getArg(0);
    Value = CE->getArg(1);
  }
  const auto *DRE =
      Object ? dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts()) : nullptr;
  auto It = DRE ? Cur->Vars.find(DRE->getDecl()) : Cur->Vars.end();
  if (!Value || It == Cur->Vars.end() || !It->second.Reducer) {
    error(CE->getBeginLoc(),
          "a reducer can be combined into only in its kernel's own body, "
          "by its parameter's name ('r += v' or 'r.combine(v)')",
          CE->getSourceRange());
    return "0";
  }
  Cur->Used.insert(DRE->getDecl());
  const std::string Target = "*" + It->second.Name;
  ReducerKind RK = reducerKind(Object->getType());
  const std::string V = expr(Value);
  if (RK.Operation == "plus")
    return Target + " += " + V;
  // The call is a statement (it returns void): no parentheses needed.
  return Target + " = " +
         reducerFold(RK.Operation, typeName(RK.Element, CE->getBeginLoc()),
                     Target, V);
}

} // namespace emit
} // namespace ferry
