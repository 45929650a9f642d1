#include "model/Naming.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace ferry {

/// OpenCL C keywords, reserved type names and the built-in functions a user
/// name is likely to collide with.
bool isReservedInOpenCL(llvm::StringRef N) {
  static const llvm::StringSet<> Words = {
      // keywords and qualifiers
      "kernel", "__kernel", "global", "__global", "local", "__local",
      "constant", "__constant", "private", "__private", "read_only",
      "write_only", "read_write", "__read_only", "__write_only", "restrict",
      "complex", "imaginary", "half", "uchar", "ushort", "uint", "ulong",
      "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "image2d_t",
      "image3d_t", "sampler_t", "event_t", "quad", "vec_type_hint",
      "typedef", "bool", "true", "false", "main",
      // built-in functions
      "abs", "abs_diff", "acos", "acosh", "acospi", "add_sat", "all", "any",
      "asin", "asinh", "asinpi", "atan", "atan2", "atan2pi", "atanh",
      "atanpi", "barrier", "bitselect", "cbrt", "ceil", "clamp", "clz",
      "copysign", "cos", "cosh", "cospi", "cross", "degrees", "distance",
      "dot", "erf", "erfc", "exp", "exp10", "exp2", "expm1", "fabs", "fast_distance",
      "fast_length", "fast_normalize", "fdim", "floor", "fma", "fmax",
      "fmin", "fmod", "fract", "frexp", "get_global_id", "get_global_size",
      "get_local_id", "get_local_size", "get_group_id", "get_num_groups",
      "get_work_dim", "get_global_offset", "hadd", "hypot", "ilogb",
      "isequal", "isfinite", "isgreater", "isinf", "isnan", "isnormal",
      "ldexp", "length", "lgamma", "log", "log10", "log1p", "log2", "logb",
      "mad", "mad24", "mad_hi", "mad_sat", "max", "maxmag", "mem_fence",
      "min", "minmag", "mix", "modf", "mul24", "mul_hi", "nan", "nextafter",
      "normalize", "popcount", "pow", "pown", "powr", "radians",
      "remainder", "remquo", "rhadd", "rint", "rootn", "rotate", "round",
      "rsqrt", "select", "sign", "signbit", "sin", "sincos", "sinh", "sinpi",
      "smoothstep", "sqrt", "step", "sub_sat", "tan", "tanh", "tanpi",
      "tgamma", "trunc", "upsample", "printf", "shuffle", "shuffle2",
      "convert_int", "as_int", "as_float"};
  if (Words.count(N))
    return true;
  // float4, int2, uchar16 ...
  static const char *Vec[] = {"char", "uchar", "short", "ushort", "int",
                              "uint", "long", "ulong", "float", "double",
                              "half"};
  for (const char *V : Vec) {
    llvm::StringRef R = N;
    if (R.consume_front(V) &&
        (R == "2" || R == "3" || R == "4" || R == "8" || R == "16"))
      return true;
  }
  return false;
}


static void appendSanitised(std::string &Out, llvm::StringRef Text) {
  for (char C : Text)
    Out += (isalnum(static_cast<unsigned char>(C)) || C == '_') ? C : '_';
}

static void appendTemplateArguments(std::string &Name, const Decl *D,
                                    llvm::ArrayRef<TemplateArgument> Args) {
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  Policy.SuppressTagKeyword = true;
  for (const TemplateArgument &Arg : Args) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    Arg.print(Policy, OS, /*IncludeType=*/false);
    Name += "__";
    appendSanitised(Name, OS.str());
  }
}

std::string flatName(const NamedDecl *D) {
  std::string Name;
  llvm::SmallVector<const DeclContext *, 4> Scopes;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (isa<NamespaceDecl>(DC) || isa<RecordDecl>(DC))
      Scopes.push_back(DC);
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    const auto *ND = cast<NamedDecl>(*It);
    appendSanitised(Name, ND->getName().empty() ? "anon" : ND->getName());
    Name += "__";
  }
  std::string Own = D->getNameAsString();
  if (Own.empty())
    if (const auto *TD = dyn_cast<TagDecl>(D))
      if (const TypedefNameDecl *Alias = TD->getTypedefNameForAnonDecl())
        Own = Alias->getName().str(); // typedef struct { ... } Name;
  appendSanitised(Name, Own.empty() ? "anon" : Own);
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D))
    appendTemplateArguments(Name, D, Spec->getTemplateArgs().asArray());
  return Name;
}

std::string openclName(const FunctionDecl *F) {
  std::string Name = flatName(F);
  if (const TemplateArgumentList *Args = F->getTemplateSpecializationArgs())
    appendTemplateArguments(Name, F, Args->asArray());
  // An OpenCL C compiler mangles a function named like an overloaded
  // built-in (`step`), and the host's look-up by name then fails.
  if (isReservedInOpenCL(Name))
    Name = "ferry_" + Name;
  return Name;
}

std::string functionLabel(const clang::FunctionDecl *F) {
  const auto *M = llvm::dyn_cast<clang::CXXMethodDecl>(F);
  return M && M->getParent()->isLambda() ? "lambda" : F->getNameAsString();
}

std::string spelledFromGlobalScope(const clang::FunctionDecl *F) {
  clang::PrintingPolicy Policy(F->getASTContext().getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  std::string S;
  llvm::raw_string_ostream OS(S);
  F->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return "::" + OS.str();
}

} // namespace ferry
