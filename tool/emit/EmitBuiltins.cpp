// OpenCL C built-ins: the <cmath> functions (MathBuiltins.h has the table),
// the work-item functions behind `kc`, kc.barrier(), the OpenCL C 1.2
// atomics behind ferry::atomicAdd and friends, printf, and assert.

#include "emit/Emitter.h"
#include "emit/MathBuiltins.h"
#include "model/FerryTypes.h"

#include "clang/Basic/Builtins.h"
#include "llvm/Support/ConvertUTF.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::mathCall(const CallExpr *CE, const FunctionDecl *Callee,
                              const MathBuiltin &B) {
  QualType R =
      CE->getType().getNonReferenceType().getUnqualifiedType().getCanonicalType();
  SourceLocation Loc = CE->getBeginLoc();
  if (CE->getNumArgs() != B.Arity)
    return cannot(CE);
  if (R->isSpecificBuiltinType(BuiltinType::LongDouble)) {
    typeName(R, Loc);
    return "0";
  }
  auto Args = [&](QualType T) {
    std::string S;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      S += (I ? ", " : "") + converted(CE->getArg(I), T);
    return S;
  };
  switch (B.Kind) {
  case MathKind::SameType:
    if (!R->isRealFloatingType())
      return cannot(CE);
    typeName(R, Loc); // marks double use
    return B.OpenCLName + "(" + Args(R) + ")";
  case MathKind::FloatInt:
    typeName(R, Loc);
    return cat({B.OpenCLName, "(", converted(CE->getArg(0), R), ", ",
                converted(CE->getArg(1), Ctx.IntTy), ")"});
  case MathKind::Classify: {
    QualType A = skipTransparent(CE->getArg(0))
                     ->getType()
                     .getUnqualifiedType()
                     .getCanonicalType();
    if (!A->isRealFloatingType())
      A = Ctx.DoubleTy;
    typeName(A, Loc);
    return B.OpenCLName + "(" + converted(CE->getArg(0), A) + ")";
  }
  case MathKind::Abs:
    if (R->isRealFloatingType()) {
      typeName(R, Loc);
      return "fabs(" + converted(CE->getArg(0), R) + ")";
    }
    return cat({"(", typeName(R, Loc), ")abs(", converted(CE->getArg(0), R), ")"});
  case MathKind::MinMax: {
    std::string Name = B.OpenCLName;
    if (R->isRealFloatingType() && Name != "clamp")
      Name = "f" + Name;
    typeName(R, Loc);
    return Name + "(" + Args(R) + ")";
  }
  }
  return cannot(CE);
}

namespace {
struct WorkItemField {
  const char *Field;
  const char *Function;
  int Dimension;
  /// A 64-bit field (kc.x64): `long`, the work-item function's size_t as a
  /// signed value; the others are `int`.
  bool Wide = false;
};
// The KernelContext fields are int; the work-item functions return size_t.
const WorkItemField WorkItemFields[] = {
    {"x", "get_global_id", 0},        {"y", "get_global_id", 1},
    {"z", "get_global_id", 2},        {"maxX", "get_global_size", 0},
    {"maxY", "get_global_size", 1},   {"maxZ", "get_global_size", 2},
    {"localX", "get_local_id", 0},    {"localY", "get_local_id", 1},
    {"localZ", "get_local_id", 2},    {"localSizeX", "get_local_size", 0},
    {"localSizeY", "get_local_size", 1}, {"localSizeZ", "get_local_size", 2},
    {"groupX", "get_group_id", 0},    {"groupY", "get_group_id", 1},
    {"groupZ", "get_group_id", 2},    {"groupsX", "get_num_groups", 0},
    {"groupsY", "get_num_groups", 1}, {"groupsZ", "get_num_groups", 2},
    {"x64", "get_global_id", 0, true},    {"y64", "get_global_id", 1, true},
    {"z64", "get_global_id", 2, true},    {"maxX64", "get_global_size", 0, true},
    {"maxY64", "get_global_size", 1, true}, {"maxZ64", "get_global_size", 2, true},
};

/// ferry::atomicAdd and friends: the OpenCL C 1.2 built-in of each.
const std::pair<const char *, const char *> Atomics[] = {
    {"atomicAdd", "atomic_add"},       {"atomicSub", "atomic_sub"},
    {"atomicMin", "atomic_min"},       {"atomicMax", "atomic_max"},
    {"atomicAnd", "atomic_and"},       {"atomicOr", "atomic_or"},
    {"atomicXor", "atomic_xor"},       {"atomicExchange", "atomic_xchg"},
    {"atomicCompareExchange", "atomic_cmpxchg"},
};

bool inFerryNamespace(const Decl *D) {
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getName() == "ferry" &&
         NS->getParent()->getRedeclContext()->isTranslationUnit();
}
/// ferry::native::sqrt and friends (workgroup.hpp).
bool inFerryNativeNamespace(const Decl *D) {
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getName() == "native" && inFerryNamespace(NS);
}
} // namespace

// ferry::native::f(x) is OpenCL C's native_f on float; each argument is
// converted to float first, as the C++ declaration converts it, so that the
// overload OpenCL picks is the float one.
std::string Emitter::nativeMathCall(const CallExpr *CE,
                                    const FunctionDecl *Callee) {
  std::string S = "native_" + Callee->getName().str() + "(";
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    S += std::string(I ? ", " : "") + "(float)(" + expr(CE->getArg(I)) + ")";
  return S + ")";
}

llvm::ArrayRef<const char *> kernelContextFields() {
  static const std::vector<const char *> Fields = [] {
    std::vector<const char *> F;
    for (const WorkItemField &W : WorkItemFields)
      F.push_back(W.Field);
    return F;
  }();
  return Fields;
}

std::vector<const char *> Emitter::contextFields() const {
  std::vector<const char *> Fields;
  for (const char *F : kernelContextFields())
    if (WideContext || !isWideContextField(F))
      Fields.push_back(F);
  return Fields;
}

bool isWideContextField(llvm::StringRef Field) {
  for (const WorkItemField &W : WorkItemFields)
    if (Field == W.Field)
      return W.Wide;
  return false;
}

std::optional<std::string> Emitter::workItemField(llvm::StringRef Field) {
  for (const WorkItemField &W : WorkItemFields)
    if (Field == W.Field)
      return std::string(W.Wide ? "(long)" : "(int)") + W.Function + "(" +
             std::to_string(W.Dimension) + ")";
  return std::nullopt;
}

std::optional<std::string> Emitter::builtinCall(const CallExpr *CE,
                                                const FunctionDecl *Callee) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && M->getName() == "barrier" &&
      isKernelContextType(Ctx.getRecordType(M->getParent()))) {
    // The contract promises the others' writes to local memory and to
    // buffers; the global fence is left out only where the analysis found
    // that no buffer crosses this function's barriers
    // (analyses/kernel/BarrierFences.h). kc.barrier(ferry::globalFence)
    // keeps it whatever the analysis says.
    const bool Global = CE->getNumArgs() > 0 || Fences.globalFenceIn(Cur->F);
    return std::string(Global
                           ? "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)"
                           : "barrier(CLK_LOCAL_MEM_FENCE)");
  }
  if (Callee->getIdentifier() && inFerryNativeNamespace(Callee))
    return nativeMathCall(CE, Callee);
  if (Callee->getIdentifier() && inFerryNamespace(Callee))
    for (const auto &[Name, Builtin] : Atomics)
      if (Callee->getName() == Name)
        return atomicCall(CE, Builtin);
  unsigned ID = Callee->getBuiltinID();
  if (ID == Builtin::BIprintf || (Callee->getIdentifier() &&
                                  Callee->getName() == "printf" &&
                                  SM.isInSystemHeader(Callee->getLocation())))
    return printfCall(CE);
  // What assert() calls when its condition fails (glibc, BSD/macOS, MSVC).
  if (Callee->getIdentifier() &&
      (Callee->getName() == "__assert_fail" ||
       Callee->getName() == "__assert_rtn" || Callee->getName() == "_wassert" ||
       Callee->getName() == "__assert"))
    return assertFailCall(CE);
  return std::nullopt;
}

std::string Emitter::atomicCall(const CallExpr *CE, llvm::StringRef Builtin) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (CE->getNumArgs() < 2)
    return cannot(CE);
  const Expr *P = CE->getArg(0);
  QualType Element = P->getType()->getPointeeType();
  QualType C = Element.getUnqualifiedType().getCanonicalType();
  const bool Floating = C->isSpecificBuiltinType(BuiltinType::Float) ||
                        C->isSpecificBuiltinType(BuiltinType::Double);
  const bool Adds = Builtin == "atomic_add" || Builtin == "atomic_sub";
  if (Floating && Adds)
    return floatAtomicCall(CE, Builtin == "atomic_sub",
                           C->isSpecificBuiltinType(BuiltinType::Double));
  if (!C->isSpecificBuiltinType(BuiltinType::Int) &&
      !C->isSpecificBuiltinType(BuiltinType::UInt)) {
    error(CE->getBeginLoc(),
          "OpenCL 1.2 has no atomic on '" +
              Element.getUnqualifiedType().getAsString(Policy) +
              "'; 'ferry::" + Callee->getName() +
              "' takes int or unsigned elements",
          CE->getSourceRange());
    return "0";
  }
  Space S = pointerSpace(P);
  if (S != Space::Global && S != Space::Local) {
    error(P->getBeginLoc(),
          "'ferry::" + Callee->getName().str() +
              "' needs a pointer into a buffer or a ferry::Local ('&buf[i]', "
              "'&tile[i]'); OpenCL C has no atomics on " + spaceWord(S) +
              " memory",
          P->getSourceRange());
    return "0";
  }
  std::string S2 = Builtin.str() + "(" + expr(P);
  for (unsigned I = 1; I < CE->getNumArgs(); ++I)
    S2 += ", " + expr(CE->getArg(I));
  return S2 + ")";
}

// OpenCL C 1.2 has integer atomics only. A floating add is a
// compare-and-swap loop on the element's bits: 32-bit atomic_cmpxchg for
// float, and atom_cmpxchg of cl_khr_int64_base_atomics for double (which
// NVIDIA's and PoCL's devices have; the program says so if one does not).
std::string Emitter::floatAtomicCall(const CallExpr *CE, bool Subtract,
                                     bool Double) {
  const Expr *P = CE->getArg(0);
  Space S = pointerSpace(P);
  if (S != Space::Global && S != Space::Local) {
    error(P->getBeginLoc(),
          "'ferry::" + CE->getDirectCallee()->getName().str() +
              "' needs a pointer into a buffer or a ferry::Local ('&buf[i]', "
              "'&tile[i]'); OpenCL C has no atomics on " + spaceWord(S) +
              " memory",
          P->getSourceRange());
    return "0";
  }
  if (Double)
    UsesDouble = true;
  std::string Name = std::string("ferry_atomic_add_") +
                     (Double ? "double_" : "float_") + spaceWord(S);
  FloatAtomics.insert(Name);
  std::string Value = expr(CE->getArg(1));
  return Name + "(" + expr(P) + ", " +
         (Subtract ? "-(" + Value + ")" : Value) + ")";
}

std::string floatAtomicDefinition(llvm::StringRef Name) {
  const bool Double = Name.contains("double");
  const std::string Space = Name.ends_with("global") ? "__global" : "__local";
  const std::string T = Double ? "double" : "float";
  const std::string Bits = Double ? "ulong" : "uint";
  const std::string Swap = Double ? "atom_cmpxchg" : "atomic_cmpxchg";
  return T + " " + Name.str() + "(volatile " + Space + " " + T +
         "* p, " + T + " v) {\n"
         "  union { " + Bits + " bits; " + T + " value; } old, next;\n"
         "  do {\n"
         "    old.value = *p;\n"
         "    next.value = old.value + v;\n"
         "  } while (" + Swap + "((volatile " + Space + " " + Bits +
         "*)p, old.bits, next.bits) != old.bits);\n"
         "  return old.value;\n"
         "}\n";
}

std::string Emitter::stringLiteral(llvm::StringRef Bytes) {
  std::string Out = "\"";
  for (unsigned char C : Bytes) {
    switch (C) {
    case '\n': Out += "\\n"; break;
    case '\t': Out += "\\t"; break;
    case '\r': Out += "\\r"; break;
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    default:
      if (C < 32 || C >= 127) {
        char Buf[8];
        snprintf(Buf, sizeof Buf, "\\%03o", C);
        Out += Buf;
      } else {
        Out += char(C);
      }
    }
  }
  return Out + "\"";
}

namespace {
/// The format string with C's length modifiers for 64-bit and size types
/// (`%zu`, `%lld`, `%jd`, `%td`) rewritten to OpenCL C's `l`, since Ferry
/// prints C++'s size_t and long long as OpenCL's 64-bit ulong and long.
std::string openclFormat(llvm::StringRef F) {
  std::string Out;
  for (size_t I = 0; I < F.size(); ++I) {
    Out += F[I];
    if (F[I] != '%')
      continue;
    if (I + 1 < F.size() && F[I + 1] == '%') {
      Out += '%';
      ++I;
      continue;
    }
    // Flags, width, precision: as they are.
    size_t J = I + 1;
    while (J < F.size() && llvm::StringRef("-+ #0123456789.*").contains(F[J]))
      Out += F[J++];
    if (F.substr(J).starts_with("ll")) {
      Out += 'l';
      J += 2;
    } else if (J < F.size() &&
               (F[J] == 'z' || F[J] == 'j' || F[J] == 't')) {
      Out += 'l';
      ++J;
    }
    I = J - 1;
  }
  return Out;
}
} // namespace

std::string Emitter::printfCall(const CallExpr *CE) {
  const auto *Format = CE->getNumArgs()
                           ? dyn_cast<StringLiteral>(skipTransparent(
                                 CE->getArg(0)->IgnoreParenImpCasts()))
                           : nullptr;
  if (!Format || !Format->isOrdinary()) {
    error(CE->getBeginLoc(), "printf in a kernel needs a string literal as "
                             "its format (OpenCL C has no other strings)",
          CE->getSourceRange());
    return "0";
  }
  std::string S =
      "printf(" + stringLiteral(openclFormat(Format->getString()));
  for (unsigned I = 1; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    // Default argument promotions (float to double) are left to OpenCL C,
    // so a float prints as a float on a device without doubles.
    const Expr *Shown = skipTransparent(A);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Shown);
        ICE && ICE->getCastKind() == CK_FloatingCast)
      Shown = ICE->getSubExpr();
    QualType T = Shown->getType();
    if (const auto *SL = dyn_cast<StringLiteral>(Shown->IgnoreParenImpCasts());
        SL && SL->isOrdinary()) {
      S += ", " + stringLiteral(SL->getString());
      continue;
    }
    if (!T->isArithmeticType() && !T->isEnumeralType() &&
        !T->isPointerType()) {
      error(A->getBeginLoc(),
            "printf in a kernel cannot print a '" +
                T.getUnqualifiedType().getAsString(Policy) +
                "'; print its members",
            A->getSourceRange());
      return "0";
    }
    S += "," + gap(CE->getArg(I - 1)->getEndLoc(), A->getBeginLoc()) +
         expr(Shown);
  }
  return S + ")";
}

std::string Emitter::assertFailCall(const CallExpr *CE) {
  // assert(c) is `c ? (void)0 : __assert_fail("c", __FILE__, __LINE__, f)`:
  // on the device a failed assertion is reported on standard output, as
  // the host's message, and the kernel goes on (OpenCL C cannot abort).
  std::string Condition = "?";
  if (CE->getNumArgs() > 0)
    if (const auto *SL = dyn_cast<StringLiteral>(
            CE->getArg(0)->IgnoreParenImpCasts());
        SL && SL->isOrdinary())
      Condition = SL->getString().str();
  SourceLocation Loc = SM.getExpansionLoc(CE->getBeginLoc());
  std::string Message = fileOf(Loc) + ":" + std::to_string(lineOf(Loc)) +
                        ": " + Cur->F->getNameAsString() +
                        ": Assertion `" + Condition + "' failed.\n";
  std::string Escaped;
  for (char C : Message) {
    Escaped += C;
    if (C == '%')
      Escaped += '%';
  }
  return "(void)printf(" + stringLiteral(Escaped) + ")";
}

} // namespace emit
} // namespace ferry
