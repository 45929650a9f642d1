// Types on the device: built-in types, pointers and arrays with their
// address spaces, structs with the host's layout (and the checks that keep
// the two sides equal), enums, and constant globals.

#include "emit/Emitter.h"
#include "model/FerryTypes.h"
#include "model/Naming.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecordLayout.h"

using namespace clang;

namespace ferry {
namespace emit {

std::string Emitter::builtinName(const BuiltinType *BT, SourceLocation Loc,
                                 bool AsStorage) {
  switch (BT->getKind()) {
  case BuiltinType::Void:
    return "void";
  case BuiltinType::Bool:
    // OpenCL's bool has no defined size: in memory shared with the host
    // (kernel arguments, struct members) it is the host's one byte.
    return AsStorage ? "uchar" : "bool";
  case BuiltinType::Char_S:
  case BuiltinType::SChar:
    return "char";
  case BuiltinType::Char_U:
  case BuiltinType::UChar:
  case BuiltinType::Char8:
    return "uchar";
  case BuiltinType::Short:
    return "short";
  case BuiltinType::UShort:
  case BuiltinType::Char16:
    return "ushort";
  case BuiltinType::Int:
    return "int";
  case BuiltinType::UInt:
  case BuiltinType::Char32:
    return "uint";
  case BuiltinType::WChar_S:
  case BuiltinType::WChar_U: {
    unsigned W = Ctx.getTypeSize(BT);
    bool S = BT->isSignedInteger();
    return W == 16 ? (S ? "short" : "ushort") : (S ? "int" : "uint");
  }
  case BuiltinType::Long:
  case BuiltinType::LongLong:
    return Ctx.getTypeSize(BT) == 64 ? "long" : "int";
  case BuiltinType::ULong:
  case BuiltinType::ULongLong:
    return Ctx.getTypeSize(BT) == 64 ? "ulong" : "uint";
  case BuiltinType::Float:
    return "float";
  case BuiltinType::Double:
    UsesDouble = true;
    return "double";
  case BuiltinType::LongDouble:
    error(Loc, "'long double' has no OpenCL C equivalent; use 'double'");
    return "double";
  case BuiltinType::NullPtr:
    error(Loc, "Ferry cannot translate 'std::nullptr_t' to OpenCL C");
    return "void*";
  default:
    error(Loc, "Ferry cannot translate type '" +
                   QualType(BT, 0).getAsString(Policy) + "' to OpenCL C");
    return "int";
  }
}


bool inStdNamespace(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "std" &&
          NS->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}


std::string Emitter::typeName(QualType T, SourceLocation Loc, bool AsStorage) {
  std::string Prefix;
  if (T.isConstQualified())
    Prefix = "const ";
  if (T.isVolatileQualified())
    Prefix += "volatile ";
  QualType C = T.getCanonicalType();
  if (const auto *BT = dyn_cast<BuiltinType>(C))
    return Prefix + builtinName(BT, Loc, AsStorage);
  if (const auto *ET = C->getAs<EnumType>())
    return Prefix + enumName(ET->getDecl(), Loc);
  if (const auto *RT = C->getAs<RecordType>())
    return Prefix + recordName(RT->getDecl(), Loc);
  if (C->isPointerType() || C->isArrayType() || C->isReferenceType())
    return Prefix + declare(T, "", Loc);
  if (C->isFunctionType() || C->isFunctionPointerType()) {
    error(Loc, "function pointers cannot be translated to OpenCL C");
    return "void*";
  }
  error(Loc, "Ferry cannot translate type '" + T.getAsString(Policy) +
                 "' to OpenCL C");
  return "int";
}

std::string Emitter::declare(QualType T, const std::string &Name,
                             SourceLocation Loc, Space PointerSpace,
                             bool AsStorage) {
  QualType C = T.getCanonicalType();
  std::string Sep = Name.empty() ? "" : " ";
  if (const auto *AT = Ctx.getAsArrayType(T)) {
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      return declare(CAT->getElementType(),
                     Name + "[" + std::to_string(CAT->getSize().getZExtValue()) +
                         "]",
                     Loc, PointerSpace, AsStorage);
    if (isa<VariableArrayType>(AT))
      error(Loc, "variable-length arrays cannot be translated to OpenCL C; "
                 "use a fixed size");
    else
      error(Loc, "Ferry cannot translate array type '" +
                     T.getAsString(Policy) + "' to OpenCL C");
    return "int" + Sep + Name;
  }
  if (const auto *PT = C->getAs<PointerType>()) {
    QualType P = PT->getPointeeType();
    if (P->isFunctionType()) {
      error(Loc, "function pointers cannot be translated to OpenCL C");
      return "void*" + Sep + Name;
    }
    if (P->isPointerType() || P->isArrayType()) {
      error(Loc, "pointers to pointers or arrays cannot be translated to "
                 "OpenCL C");
      return "void*" + Sep + Name;
    }
    std::string Q = T.isConstQualified() ? " const" : "";
    // bool in memory the host shares is the host's byte.
    return spaceQualifier(PointerSpace) +
           typeName(P, Loc, PointerSpace != Space::Private) + "*" + Q + Sep +
           Name;
  }
  if (C->isReferenceType()) {
    error(Loc, "Ferry cannot translate reference type '" +
                   T.getAsString(Policy) + "' here");
    return "int" + Sep + Name;
  }
  return typeName(T, Loc, AsStorage) + Sep + Name;
}

std::string Emitter::hostTypeName(const RecordDecl *RD) {
  QualType T = Ctx.getRecordType(RD);
  std::string Name = TypeName::getFullyQualifiedName(
      T, Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  // An anonymous namespace's members are named from the enclosing scope.
  for (size_t At; (At = Name.find("(anonymous namespace)::")) !=
                  std::string::npos;)
    Name.erase(At, strlen("(anonymous namespace)::"));
  return Name;
}

std::string Emitter::recordName(const RecordDecl *RD, SourceLocation Loc) {
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  auto It = RecordNames.find(RD);
  if (It != RecordNames.end())
    return It->second;
  if (isKernelContextType(Ctx.getRecordType(RD))) {
    NeedsKernelContext = true;
    return "ferry_KernelContext";
  }
  if (isVectorType(Ctx.getRecordType(RD)))
    return vectorTypeName(Ctx.getRecordType(RD), Loc);
  std::string Name = flatName(RD);
  if (inStdNamespace(RD) ||
      (isa<NamespaceDecl>(RD->getDeclContext()) &&
       cast<NamespaceDecl>(RD->getDeclContext())->getName() == "ferry")) {
    if (isReducerType(Ctx.getRecordType(RD))) {
      error(Loc, "a ferry reducer exists only as a kernel's parameter: "
                 "combine into that parameter itself");
      RecordNames[RD] = Name;
      return Name;
    }
    std::string Shown = RD->getQualifiedNameAsString();
    if (Shown == "std::basic_string" || Shown == "std::__cxx11::basic_string")
      Shown = "std::string";
    error(Loc, "'" + Shown +
                   "' cannot be used in OpenCL C (no std:: containers, "
                   "strings or library types on the device)");
    RecordNames[RD] = Name;
    return Name;
  }
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD); CXX && CXX->isLambda()) {
    error(Loc, "lambdas cannot be translated to OpenCL C; use a helper "
               "function");
    RecordNames[RD] = Name;
    return Name;
  }
  RecordNames[RD] = Name; // also guards against self-reference
  const auto *CXX = dyn_cast<CXXRecordDecl>(RD);
  if (!RD->isCompleteDefinition()) {
    error(Loc, "struct '" + RD->getNameAsString() + "' is incomplete");
    return Name;
  }
  if (CXX && (CXX->getNumBases() || CXX->isPolymorphic())) {
    error(Loc, "Ferry cannot translate struct '" + RD->getNameAsString() +
                   "' to OpenCL C: it has base classes or virtual functions");
    return Name;
  }
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  UsedNames.insert(Name);
  RecordNames[RD] = Name;

  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  std::string Body;
  std::vector<std::pair<std::string, uint64_t>> Offsets;
  uint64_t Off = 0, MaxAlign = 1;
  unsigned Pad = 0;
  bool Ok = true;
  for (const FieldDecl *FD : RD->fields()) {
    SourceLocation FLoc = FD->getLocation();
    if (FD->isBitField()) {
      error(FLoc, "bit-fields cannot be translated to OpenCL C");
      Ok = false;
      continue;
    }
    if (FD->getName().empty()) {
      error(FLoc, "anonymous struct or union members cannot be translated "
                  "to OpenCL C; give the member a name");
      Ok = false;
      continue;
    }
    QualType FT = FD->getType();
    if (FT->isPointerType() || FT->isReferenceType()) {
      error(FLoc, "struct members that are pointers or references cannot be "
                  "shared with the device");
      Ok = false;
      continue;
    }
    std::string FName = FD->getName().str();
    if (isReservedInOpenCL(FName))
      FName += "_";
    std::string Decl = declare(FT.getUnqualifiedType(), FName, FLoc,
                               Space::Private, /*AsStorage=*/true);
    uint64_t At = L.getFieldOffset(FD->getFieldIndex()) / 8;
    TypeInfoChars TI = Ctx.getTypeInfoInChars(FT);
    uint64_t Align =
        Ctx.getTypeAlignInChars(FT->isArrayType()
                                    ? QualType(Ctx.getBaseElementType(FT))
                                    : FT)
            .getQuantity();
    if (FD->hasAttr<AlignedAttr>())
      Align = std::max<uint64_t>(Align, 1); // host layout decides below
    if (RD->isUnion()) { // every member at 0
      MaxAlign = std::max(MaxAlign, Align);
      Body += std::string(IndentWidth, ' ') + Decl + ";\n";
      Offsets.push_back({FName, 0});
      Off = std::max<uint64_t>(Off, TI.Width.getQuantity());
      continue;
    }
    uint64_t Natural = llvm::alignTo(Off, Align);
    if (At > Natural) {
      uint64_t Gap = At - Off;
      // Pad up to the host offset; if alignment would still move the member,
      // the member alignment is what differs and the checks will catch it.
      Body += std::string(IndentWidth, ' ') + "uchar ferry_pad" +
              std::to_string(Pad++) + "[" + std::to_string(Gap) + "];\n";
      Off = At;
    } else if (At < Natural) {
      error(FLoc, "the host layout of '" + RD->getNameAsString() +
                      "' (packed or under-aligned member '" +
                      FD->getNameAsString() +
                      "') cannot be reproduced in OpenCL C");
      Ok = false;
    }
    MaxAlign = std::max(MaxAlign, Align);
    Body += std::string(IndentWidth, ' ') + Decl + ";\n";
    Offsets.push_back({FName, At});
    Off = At + TI.Width.getQuantity();
  }
  uint64_t Size = L.getSize().getQuantity();
  uint64_t HostAlign = L.getAlignment().getQuantity();
  std::string Attr;
  if (HostAlign > MaxAlign) {
    Attr = " __attribute__((aligned(" + std::to_string(HostAlign) + ")))";
    MaxAlign = HostAlign;
  }
  if (llvm::alignTo(Off, MaxAlign) < Size)
    Body += std::string(IndentWidth, ' ') + "uchar ferry_pad" +
            std::to_string(Pad++) + "[" + std::to_string(Size - Off) + "];\n";
  if (RD->field_empty()) {
    error(RD->getLocation(), "empty structs cannot be translated to OpenCL C");
    Ok = false;
  }
  if (!Ok)
    return Name;

  const char *Kw = RD->isUnion() ? "union" : "struct";
  std::string Text;
  Text += "#line " + std::to_string(lineOf(RD->getBeginLoc())) + " " +
          quoted(fileOf(RD->getBeginLoc())) + "\n";
  Text += "typedef " + std::string(Kw) + Attr + " " + Name + " {\n" + Body +
          "} " + Name + ";\n";
  NeedsOffsetof = true;
  // The terms are joined with `&`, not `&&`: clang 15 (PoCL 3.1's) warns
  // "use of logical '&&' with constant operand" on every OpenCL C build.
  std::string Check = "(sizeof(" + Name + ") == " + std::to_string(Size) + ")";
  // offsetof is a macro: a template's name (`Vec<float, 3>`) goes through
  // an alias so its comma does not split the argument.
  std::string HostName = hostTypeName(RD);
  std::string HostAlias;
  if (HostName.find(',') != std::string::npos) {
    HostAlias = "using ferry_layout_" + Name + " = " + HostName + ";\n";
    HostName = "ferry_layout_" + Name;
  }
  std::string HostCheck =
      "sizeof(" + HostName + ") == " + std::to_string(Size);
  for (size_t I = 0; I < Offsets.size(); ++I) {
    Check += " & (FERRY_OFFSETOF(" + Name + ", " + Offsets[I].first +
             ") == " + std::to_string(Offsets[I].second) + ")";
  }
  unsigned I = 0;
  for (const FieldDecl *FD : RD->fields())
    HostCheck += " && offsetof(" + HostName + ", " +
                 FD->getNameAsString() + ") == " +
                 std::to_string(Offsets[I++].second);
  Text += "typedef char ferry_check_" + Name + "[(" + Check + ") ? 1 : -1];\n\n";
  Types += Text;
  // A struct local to a function cannot be named at namespace scope, where
  // the host checks go: the OpenCL C check alone compares it with the host.
  if (!RD->getDeclContext()->isFunctionOrMethod() &&
      !RD->getParentFunctionOrMethod()) {
    std::string ShownName = hostTypeName(RD);
    llvm::StringRef Shown = ShownName;
    Shown.consume_front("::");
    HostChecks += HostAlias + "static_assert(" + HostCheck +
                  ", \"ferry: the layout of '" + Shown.str() +
                  "' differs from the OpenCL C struct\");\n";
  }
  return Name;
}

std::string Emitter::enumName(const EnumDecl *ED, SourceLocation Loc) {
  ED = ED->getDefinition() ? ED->getDefinition() : ED;
  auto It = EnumNames.find(ED);
  if (It != EnumNames.end())
    return It->second;
  std::string Name = flatName(ED);
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  UsedNames.insert(Name);
  EnumNames[ED] = Name;
  QualType Under = ED->getIntegerType();
  if (Under.isNull())
    Under = Ctx.IntTy;
  std::string Text = "#line " + std::to_string(lineOf(ED->getBeginLoc())) +
                     " " + quoted(fileOf(ED->getBeginLoc())) + "\n";
  Text += "typedef " + typeName(Under, Loc) + " " + Name + ";\n";
  Text += "enum {";
  bool First = true;
  for (const EnumConstantDecl *EC : ED->enumerators()) {
    const llvm::APSInt &V = EC->getInitVal();
    std::string CName = flatName(EC);
    if (ED->isScoped())
      CName = Name + "__" + EC->getName().str();
    if (V.getSignificantBits() > 32 && !(V.isUnsigned() && V.getActiveBits() <= 31)) {
      error(EC->getLocation(), "enumerator value does not fit OpenCL C's "
                               "'int' enumeration constants");
    }
    Text += First ? " " : ", ";
    First = false;
    Text += CName + " = " + llvm::toString(V, 10);
  }
  Text += " };\n\n";
  Types += Text;
  return Name;
}

std::string Emitter::globalName(const VarDecl *VD, SourceLocation Loc) {
  auto It = GlobalNames.find(VD);
  if (It != GlobalNames.end())
    return It->second;
  std::string Name = flatName(VD);
  if (UsedNames.count(Name) || isReservedInOpenCL(Name))
    Name += "_";
  GlobalNames[VD] = Name;
  UsedNames.insert(Name);
  QualType T = VD->getType();
  const VarDecl *Def = VD->getDefinition() ? VD->getDefinition() : VD;
  const APValue *V = Def->evaluateValue();
  QualType Elem = Ctx.getBaseElementType(T);
  if (!V || !(Elem->isArithmeticType() || Elem->isEnumeralType())) {
    error(Loc, "the global '" + VD->getQualifiedNameAsString() +
                   "' cannot be used on the device: only constant globals of "
                   "arithmetic or enum type (or arrays of them) can");
    return Name;
  }
  std::string Text = "#line " + std::to_string(lineOf(VD->getBeginLoc())) +
                     " " + quoted(fileOf(VD->getBeginLoc())) + "\n";
  Text += "__constant " + declare(T.getUnqualifiedType(), Name, Loc) + " = " +
          apValue(*V, T, Loc) + ";\n";
  Constants += Text;
  return Name;
}


bool Emitter::checkDeviceType(QualType T, SourceLocation Loc) {
  QualType C = Ctx.getBaseElementType(T.getNonReferenceType()).getCanonicalType();
  if (const auto *RT = C->getAs<RecordType>())
    if (inStdNamespace(RT->getDecl())) {
      recordName(RT->getDecl(), Loc);
      return false;
    }
  return true;
}

} // namespace emit
} // namespace ferry
