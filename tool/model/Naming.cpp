#include "model/Naming.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"

using namespace clang;

namespace ferry {

static void appendSanitised(std::string &Out, llvm::StringRef Text) {
  for (char C : Text)
    Out += (isalnum(static_cast<unsigned char>(C)) || C == '_') ? C : '_';
}

std::string openclName(const FunctionDecl *F) {
  std::string Name;
  llvm::SmallVector<const DeclContext *, 4> Scopes;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (isa<NamespaceDecl>(DC) || isa<RecordDecl>(DC))
      Scopes.push_back(DC);
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    const auto *ND = cast<NamedDecl>(*It);
    appendSanitised(Name, ND->getName().empty() ? "anon" : ND->getName());
    Name += "__";
  }
  appendSanitised(Name, F->getNameAsString());
  if (const TemplateArgumentList *Args = F->getTemplateSpecializationArgs()) {
    PrintingPolicy Policy(F->getASTContext().getLangOpts());
    Policy.SuppressTagKeyword = true;
    for (const TemplateArgument &Arg : Args->asArray()) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      Arg.print(Policy, OS, /*IncludeType=*/false);
      Name += "__";
      appendSanitised(Name, OS.str());
    }
  }
  return Name;
}

} // namespace ferry
