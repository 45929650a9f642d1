// ferry: the command line. Subcommands share the front half (driver/Frontend)
// and differ only in what they do with the parsed translation unit.

#include "driver/Commands.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
cl::OptionCategory FerryCategory("ferry options");

cl::SubCommand RewriteCmd("rewrite",
                          "Rewrite a Ferry source: OpenCL dispatches, planned "
                          "transfers, embedded OpenCL C");
cl::SubCommand AnalyzeCmd("analyze", "Print the call graphs, kernel access "
                                     "summaries and host buffer events");
cl::SubCommand EmitCmd("emit", "Print the kernels translated to OpenCL C");
cl::SubCommand SummarizeCmd(
    "summarize", "Write a Ferry source's function summaries (JSON), for the "
                 "rewrite of the other Ferry sources of its target");

cl::opt<std::string> InputFile(cl::Positional, cl::desc("<source file>"),
                               cl::Required, cl::sub(RewriteCmd),
                               cl::sub(AnalyzeCmd), cl::sub(EmitCmd),
                               cl::sub(SummarizeCmd),
                               cl::cat(FerryCategory));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory holding compile_commands.json"),
    cl::value_desc("build-dir"), cl::sub(RewriteCmd), cl::sub(AnalyzeCmd),
    cl::sub(EmitCmd), cl::sub(SummarizeCmd), cl::cat(FerryCategory));
cl::opt<std::string> OutputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::sub(RewriteCmd),
                                cl::sub(EmitCmd), cl::sub(SummarizeCmd),
                                cl::cat(FerryCategory));
cl::opt<std::string>
    OpenCLFile("cl", cl::desc("Also write the emitted OpenCL C to this file"),
               cl::value_desc("file"), cl::sub(RewriteCmd),
               cl::cat(FerryCategory));
cl::opt<std::string>
    DepFile("depfile",
            cl::desc("Write a Makefile-style depfile naming every header the "
                     "source includes (for the CMake pre-build step)"),
            cl::value_desc("file"), cl::sub(RewriteCmd), cl::sub(SummarizeCmd),
            cl::cat(FerryCategory));
cl::list<std::string> Summaries(
    "summaries",
    cl::desc("Summaries (ferry summarize) of the target's Ferry sources: calls "
             "into them are planned as calls within this file"),
    cl::value_desc("file,..."), cl::CommaSeparated, cl::sub(RewriteCmd),
    cl::sub(AnalyzeCmd), cl::cat(FerryCategory));
cl::opt<ferry::AnalyzeFormat> Format(
    "format", cl::desc("Output format"),
    cl::values(clEnumValN(ferry::AnalyzeFormat::Text, "text", "tables"),
               clEnumValN(ferry::AnalyzeFormat::Json, "json", "JSON"),
               clEnumValN(ferry::AnalyzeFormat::Dot, "dot", "Graphviz")),
    cl::init(ferry::AnalyzeFormat::Text), cl::sub(AnalyzeCmd),
    cl::cat(FerryCategory));

void printVersion(raw_ostream &OS) {
  OS << "ferry " << FERRY_VERSION << " (Clang " << LLVM_VERSION_STRING
     << ")\n";
}
} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM Init(Argc, Argv);
  cl::HideUnrelatedOptions(FerryCategory);
  cl::SetVersionPrinter(printVersion);

  // Everything after `--` is the compiler command line for the source.
  std::string Error;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv,
                                                                   Error);
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "Ferry: plans host/device transfers for annotated C++ and emits its "
          "kernels as OpenCL C.\n\n"
          "  ferry rewrite FILE -o OUT.cpp [--cl OUT.cl] -- COMPILER-FLAGS\n"
          "  ferry analyze FILE [--format=text|json|dot] -- COMPILER-FLAGS\n"
          "  ferry emit FILE -- COMPILER-FLAGS\n"
          "  ferry summarize FILE -o FILE.summary.json -- COMPILER-FLAGS\n",
          &errs()))
    return 1;

  if (!Database && !BuildPath.empty()) {
    Database = clang::tooling::CompilationDatabase::autoDetectFromDirectory(
        BuildPath, Error);
    if (!Database) {
      errs() << "ferry: " << Error << "\n";
      return 1;
    }
  }
  if (!Database)
    Database = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>{"-std=c++17"});

  ferry::CommandInputs Inputs{*Database, InputFile};
  if (RewriteCmd)
    return ferry::runRewrite(Inputs, OutputFile, OpenCLFile, DepFile,
                             Summaries);
  if (AnalyzeCmd)
    return ferry::runAnalyze(Inputs, Format, Summaries);
  if (SummarizeCmd)
    return ferry::runSummarize(Inputs, OutputFile, DepFile);
  if (EmitCmd)
    return ferry::runEmit(Inputs, OutputFile);
  cl::PrintHelpMessage();
  return 1;
}
