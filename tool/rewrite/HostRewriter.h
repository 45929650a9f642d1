#pragma once
// Prints the plan into the user's source: every dispatch becomes an OpenCL
// launch, every planned transfer a line with its reason, and the kernels'
// OpenCL C is embedded at the top. Decides nothing.

#include "emit/OpenCLEmitter.h"
#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// The rewritten main file, or std::nullopt after reporting an error (an
/// insertion that falls inside a macro expansion, say).
std::optional<std::string>
rewriteMainFile(clang::ASTContext &Ctx, const std::vector<FunctionPlan> &Plans,
                const EmittedProgram &Program);

} // namespace ferry
