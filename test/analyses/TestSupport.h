#pragma once
// Parses an in-memory Ferry source with clang::tooling and runs the analyses
// on it, keeping every diagnostic they report.

#include "analyses/paths/ObjectTable.h"
#include "analyses/CallGraphs.h"
#include "analyses/host/HostAccess.h"
#include "analyses/kernel/KernelAccess.h"
#include "model/ProgramModel.h"

#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>
#include <vector>

namespace ferry::test {

struct Diagnostic {
  std::string Level; ///< "error", "warning", "note"
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
};

/// One parsed source. Construction fails the test (REQUIREs) when Clang
/// reports an error while parsing.
class Source {
public:
  explicit Source(const std::string &Code,
                  const std::vector<std::string> &ExtraArgs = {});
  ~Source();

  clang::ASTContext &context();
  /// The function definition named `Name` (qualified or not).
  const clang::FunctionDecl *function(const std::string &Name);
  /// The program model (kernels and compute functions).
  ProgramModel model();

  /// Runs the kernel analysis for `Name`.
  KernelAccessSummary kernel(const std::string &Name);
  /// Access of the buffer parameter called `Param` of kernel `Name`.
  ParamAccess param(const std::string &Kernel, const std::string &Param);

  /// Every host event of a function's body, in program order.
  std::vector<HostEvent> events(const std::string &Function);
  /// The events of the statement of `Function` on the line of `Marker` (the
  /// outermost one that starts there, or else the one inside every loop
  /// around that line that spans it), walked as the planner walks it: with
  /// the points-to facts that hold before it, and it as the root the
  /// events' ranges are spelled before. With IntoBranches, down into the
  /// branch of an if that holds the line too, as the planner walks (its
  /// lines for a statement in a branch go inside the branch).
  std::vector<HostEvent> eventsAt(const std::string &Function,
                                  const std::string &Marker,
                                  bool IntoBranches = false);
  /// The object table the last events() call used.
  const ObjectTable &table() const { return *Table; }
  /// The points-to facts after the last events() call.
  const PointsTo &factsAfter() const { return Facts; }
  /// Host summary of a helper's parameters.
  std::vector<Access> hostSummary(const std::string &Function);

  /// The 1-based line of a location.
  unsigned line(clang::SourceLocation L);
  /// The line of the first occurrence of `Marker` in the code (1-based).
  unsigned lineOf(const std::string &Marker) const;

  /// Spellings of the objects an event targets, sorted, joined with `|`.
  std::string targets(const HostEvent &E) const;
  std::string others(const HostEvent &E) const;

  /// "line mode targets" for each event: a compact, readable trace.
  std::vector<std::string> trace(const std::string &Function);

  std::vector<Diagnostic> Diagnostics;
  std::vector<Diagnostic> errors() const;

private:
  std::string Code;
  std::unique_ptr<clang::DiagnosticConsumer> Consumer;
  std::unique_ptr<clang::ASTUnit> AST;
  FunctionAccessCache Pointers;
  HostSummaryCache Host{Pointers};
  std::unique_ptr<ObjectTable> Table;
  PointsTo Facts;
};

/// The text of an event's kind and mode: "read", "write", "read-write",
/// "create", "swap", "move"; "escape" when the event lets the buffer escape.
std::string eventName(const HostEvent &E);

/// "from FIRST count COUNT" and ", covers" / ", covers if full" of an
/// event's range, or "whole" without one.
std::string rangeText(const HostEvent &E);

/// A file under the source tree (scenarios and samples), as text.
std::string readFile(const std::string &Path);

} // namespace ferry::test
