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
std::string openclName(const clang::FunctionDecl *F);

/// The `static const char[]` in the rewritten file holding the OpenCL C program.
inline constexpr const char *ProgramVariableName = "ferry_opencl_program";

} // namespace ferry
