#pragma once
// The names Ferry gives C++ functions in emitted OpenCL C, and the names the
// rewriter uses for what it adds. Shared by the emitter and the rewriter, so
// a dispatch and the kernel it names always agree.

#include "clang/AST/Decl.h"

#include <string>

namespace ferry {

/// `ns::Cls::f` becomes `ns__Cls__f`: namespaces and classes are flattened
/// with a double underscore, which C++ names cannot contain, so two different
/// C++ functions never share an OpenCL name. Template arguments, where present,
/// are appended the same way (`f<float, 3>` becomes `f__float__3`).
/// `ns::Cls::name` as `ns__Cls__name` for any declaration (class template
/// specialisations get their arguments too): the emitter's names for
/// structs, enums and constants.
std::string flatName(const clang::NamedDecl *D);

/// A name that is an OpenCL C keyword, type or built-in function gets the
/// prefix `ferry_` (`step` becomes `ferry_step`).
std::string openclName(const clang::FunctionDecl *F);

/// OpenCL C keywords, reserved type names and the built-in functions a user
/// name is likely to collide with.
bool isReservedInOpenCL(llvm::StringRef Name);

/// How reports name a host function: its name, or `lambda` for the call
/// operator of a lambda given to Accelerator::compute (reports add lines).
std::string functionLabel(const clang::FunctionDecl *F);

/// `::ns::k<float>`: a function (a kernel instantiation), spelled from the
/// global scope, for the rewriter's table of kernel names.
std::string spelledFromGlobalScope(const clang::FunctionDecl *F);

/// The `static const char[]` in the rewritten file holding the OpenCL C program.
inline constexpr const char *ProgramVariableName = "ferry_opencl_program";

} // namespace ferry
