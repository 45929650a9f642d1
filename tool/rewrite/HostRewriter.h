#pragma once
// Prints the plan into the user's source: every dispatch becomes an OpenCL
// launch, every planned transfer a line with its reason, and the kernels'
// OpenCL C is embedded at the top. Decides nothing.

#include "analyses/lifetime/KeptBetweenComputes.h"
#include "emit/OpenCLEmitter.h"
#include "plan/TransferPlan.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>
#include <vector>

namespace ferry {

/// Each #include the preprocessor skipped, and the file it names.
using SkippedIncludes =
    std::vector<std::pair<clang::SourceLocation, const clang::FileEntry *>>;

/// The rewritten main file, or std::nullopt after reporting an error (an
/// insertion that falls inside a macro expansion, say). A header that
/// defines a planned function is rewritten too, and its text replaces the
/// main file's #include of it; `Skipped` says where it is included again.
/// Before each compute of `Kept`, a line keeps its buffers on the device;
/// each loop of `Loops` gets a block whose first line leaves its buffers on
/// the device until it ends.
std::optional<std::string>
rewriteMainFile(clang::ASTContext &Ctx, const std::vector<FunctionPlan> &Plans,
                const EmittedProgram &Program,
                const SkippedIncludes &Skipped = {},
                const std::vector<KeptAtCompute> &Kept = {},
                const std::vector<LeftOnDeviceInLoop> &Loops = {});

} // namespace ferry
