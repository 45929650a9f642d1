// What one Ferry source tells the others about host code (plan/FileSummary.h):
// a member function's effects on its object's paths (`members`), whether a
// function may run code no summary describes (`runs`), which element types
// the file's long-lived places can point into (`pointer_places`), and the
// constructors that make their buffers anew (`makes_fresh`); and how
// TargetSummaries composes `runs` across files. test/multifile/
// host_member_calls and stashed_pointer check the same by the bytes moved.
#include "../analyses/TestSupport.h"

#include "analyses/lifetime/HiddenWriters.h"
#include "model/FerryTypes.h"
#include "plan/FileSummary.h"
#include "plan/TargetSummaries.h"

#include <catch2/catch.hpp>

using ferry::test::Source;

namespace {

const char *Model = R"(
#include <ferry/ferry.hpp>
struct Part { float x; };
class Model {
public:
  Model(int n);
  Model(int n, int);
  double total() const;
  void perturb();
  void both();
  void delegate();
  virtual void hook();
  void callsHook();
  int count() const;
  Model(float);
  void viaSelf();
  float *keep();
private:
  ferry::Buffer<float> u_, v_;
  struct { ferry::Buffer<int> cur; } grid_;
};
Model::Model(int n) : u_(n, 1.0f), v_(n), grid_{ferry::Buffer<int>(n)} {
  for (int i = 0; i < n; ++i) u_[i] = i;
}
void elsewhere(ferry::Buffer<float> &b);
Model::Model(int n, int) : u_(n), v_(n), grid_{ferry::Buffer<int>(n)} {
  elsewhere(u_);
}
double Model::total() const { return u_[0] + v_[1]; }
void Model::perturb() { u_[3] += 1.0f; }
void Model::both() { perturb(); grid_.cur[0] = v_[0]; }
void Model::delegate() { elsewhere(v_); }
void Model::hook() {}
void Model::callsHook() { hook(); }
int Model::count() const { return static_cast<int>(u_.size()); }
ferry::Buffer<float> pool(4);
Model::Model(float) : u_(1), v_(1), grid_{ferry::Buffer<int>(1)} {
  u_ = static_cast<ferry::Buffer<float> &&>(pool);
}
void Model::viaSelf() { Model *self = this; self->v_[0] = 1; }
float *Model::keep() { return u_.data(); }
static Part *lastPart = nullptr;
static const double *lastRead = nullptr;
void run(void (*f)()) { f(); }
)";

const ferry::FunctionSummary &fn(const ferry::FileSummary &S,
                                 const std::string &Name) {
  for (const ferry::FunctionSummary &F : S.Functions)
    if (F.Name == Name)
      return F;
  FAIL("no function " << Name);
  static ferry::FunctionSummary None;
  return None;
}

/// "u_:read grid_.cur:write" for a member summary, each path by its members
/// names (from their USRs).
std::string members(const ferry::FunctionSummary &F) {
  if (!F.Members)
    return "(none)";
  std::string Out;
  for (const ferry::MemberPathAccess &P : *F.Members) {
    std::string Path;
    for (const std::string &U : P.Path)
      Path += (Path.empty() ? "" : ".") + U.substr(U.rfind('@') + 1);
    const char *Mode = P.Mode == ferry::Access::Read    ? "read"
                       : P.Mode == ferry::Access::Write ? "write"
                                                        : "read-write";
    Out += (Out.empty() ? "" : " ") + Path + ":" + Mode;
  }
  return Out;
}

} // namespace

TEST_CASE("a member function's summary states its effects on its object",
          "[plan][summary]") {
  Source S(Model);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "model.cpp");
  CHECK(members(fn(Sum, "Model::total")) == "u_:read v_:read");
  CHECK(members(fn(Sum, "Model::perturb")) == "u_:read-write");
  // Through a member function of the same file, and a nested member.
  CHECK(members(fn(Sum, "Model::both")) == "grid_.cur:write u_:read-write v_:read");
  // Handed to a function without a body here: the rule for a call Ferry
  // cannot see.
  CHECK(members(fn(Sum, "Model::delegate")) == "v_:read-write");
  CHECK(members(fn(Sum, "Model::count")).empty());
  // Through an alias of `this`: every buffer, and each escapes.
  CHECK(members(fn(Sum, "Model::viaSelf")) ==
        "grid_.cur:read-write u_:read-write v_:read-write");
  for (const ferry::MemberPathAccess &P : *fn(Sum, "Model::viaSelf").Members)
    CHECK(P.Escapes);
  // A pointer handed out: `u_` escapes; `total` keeps nothing.
  REQUIRE(fn(Sum, "Model::keep").Members->size() == 1);
  CHECK(fn(Sum, "Model::keep").Members->front().Escapes);
  for (const ferry::MemberPathAccess &P : *fn(Sum, "Model::total").Members)
    CHECK_FALSE(P.Escapes);
  // Constructors have none: the object is made there.
  CHECK(members(fn(Sum, "Model::Model")) == "(none)");
}

TEST_CASE("a summary says what running a function may run",
          "[plan][summary]") {
  Source S(Model);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "model.cpp");
  CHECK_FALSE(fn(Sum, "Model::total").RunsHidden);
  CHECK(fn(Sum, "Model::total").RunsElsewhere.empty());
  // A call to a function without a body here goes to the reader.
  CHECK_FALSE(fn(Sum, "Model::delegate").RunsHidden);
  REQUIRE(fn(Sum, "Model::delegate").RunsElsewhere.size() == 1);
  CHECK(fn(Sum, "Model::delegate").RunsElsewhere[0].find("elsewhere") !=
        std::string::npos);
  // A virtual call and a call through a pointer run what no summary says.
  CHECK(fn(Sum, "Model::callsHook").RunsHidden);
  CHECK(fn(Sum, "run").RunsHidden);
}

TEST_CASE("a summary lists the types its long-lived places point into",
          "[plan][summary]") {
  Source S(Model);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "model.cpp");
  // `Part *` for writing; `const double *` for reading only. `void (*)()`
  // is a function pointer, which points into no buffer.
  CHECK(Sum.PointerWrites == std::vector<std::string>{"struct Part"});
  CHECK(Sum.PointerReads ==
        std::vector<std::string>{"double", "struct Part"});
}

TEST_CASE("a constructor that makes its buffers anew says so",
          "[plan][summary]") {
  Source S(Model);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "model.cpp");
  std::vector<bool> Fresh;
  for (const ferry::FunctionSummary &F : Sum.Functions)
    if (F.Name == "Model::Model")
      Fresh.push_back(F.MakesFresh);
  // The first calls only the runtime; the second hands `u_` to a function
  // without a body here, which could run a compute on it; the third moves
  // another buffer (and its device copy) into `u_`.
  CHECK(Fresh == std::vector<bool>{true, false, false});
}

TEST_CASE("the new fields survive JSON, and an older summary assumes the worst",
          "[plan][summary]") {
  Source S(Model);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "model.cpp");
  std::string Error;
  std::optional<ferry::FileSummary> Back =
      ferry::summaryFromJSON(ferry::toJSON(Sum), Error);
  REQUIRE(Back);
  CHECK(members(fn(*Back, "Model::both")) == members(fn(Sum, "Model::both")));
  CHECK(fn(*Back, "Model::callsHook").RunsHidden);
  CHECK_FALSE(fn(*Back, "Model::total").RunsHidden);
  CHECK(fn(*Back, "Model::delegate").RunsElsewhere ==
        fn(Sum, "Model::delegate").RunsElsewhere);
  CHECK(Back->PointerReads == Sum.PointerReads);

  llvm::json::Value Old = ferry::toJSON(Sum);
  llvm::json::Object &O = *Old.getAsObject();
  O.erase("pointer_places");
  for (llvm::json::Value &F : *O.getArray("functions")) {
    F.getAsObject()->erase("runs");
    F.getAsObject()->erase("members");
    F.getAsObject()->erase("makes_fresh");
  }
  std::optional<ferry::FileSummary> Older = ferry::summaryFromJSON(Old, Error);
  REQUIRE(Older);
  CHECK(fn(*Older, "Model::total").RunsHidden);
  CHECK_FALSE(fn(*Older, "Model::total").Members);
  CHECK(Older->PointerWrites == std::vector<std::string>{"*"});
  for (const ferry::FunctionSummary &F : Older->Functions)
    CHECK_FALSE(F.MakesFresh);
}

TEST_CASE("running hidden code is composed across files", "[plan][summary]") {
  auto Function = [](std::string Usr, bool Hidden,
                     std::vector<std::string> Runs) {
    ferry::FunctionSummary F;
    F.Usr = F.Name = std::move(Usr);
    F.External = true;
    F.RunsHidden = Hidden;
    F.RunsElsewhere = std::move(Runs);
    return F;
  };
  ferry::FileSummary A, B, Self;
  A.Source = "a.cpp";
  B.Source = "b.cpp";
  Self.Source = "main.cpp";
  // a -> b -> c (hidden); p <-> q (a cycle of nothing hidden); u -> an
  // unknown function; s -> a function of the file being rewritten.
  A.Functions = {Function("a", false, {"b"}), Function("p", false, {"q"}),
                 Function("u", false, {"nowhere"}),
                 Function("s", false, {"mine"})};
  B.Functions = {Function("b", false, {"c"}), Function("c", true, {}),
                 Function("q", false, {"p"})};
  Self.Functions = {Function("mine", false, {})};
  ferry::TargetSummaries T({A, B}, Self);
  CHECK(T.runsHidden("a"));
  CHECK(T.runsHidden("b"));
  CHECK(T.runsHidden("c"));
  CHECK_FALSE(T.runsHidden("p"));
  CHECK_FALSE(T.runsHidden("q"));
  CHECK(T.runsHidden("u"));
  CHECK(T.runsHidden("nowhere"));
  CHECK_FALSE(T.runsHidden("s"));
  // Places of the other files count; the file being rewritten has its own.
  A.PointerWrites = {};
  B.PointerWrites = {"float"};
  Self.PointerWrites = {"*"};
  A.PointerReads = B.PointerReads = {};
  ferry::TargetSummaries P({A, B}, Self);
  CHECK(P.pointerPlaceElsewhere("float", false));
  CHECK_FALSE(P.pointerPlaceElsewhere("int", false));
  CHECK_FALSE(P.pointerPlaceElsewhere("float", true));
}

TEST_CASE("what a function runs includes destructors, default arguments and "
          "a user's operator new and delete",
          "[plan][summary]") {
  Source S(R"(
#include <ferry/ferry.hpp>
#include <vector>
struct Guard { ~Guard(); };
struct Holder { Guard g; };            // its destructor is the compiler's
struct Pool {
  static void *operator new(unsigned long);
  static void operator delete(void *);
};
int probe();
void withDefault(int x = probe());
void local() { Guard g; }
void member() { Holder h; }
void temporary() { (void)Guard(); }
void freed(Guard *p) { delete p; }
void inVector() { std::vector<Guard> v(2); }
void defaulted() { withDefault(); }
void pooled() { Pool *p = new Pool; delete p; }
void plain() { int x = 1; (void)x; }
)");
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "guards.cpp");
  auto Runs = [&](const std::string &Name) {
    std::string Out;
    for (const std::string &U : fn(Sum, Name).RunsElsewhere)
      Out += (Out.empty() ? "" : " ") + U.substr(U.rfind('@') + 1);
    return Out;
  };
  for (const char *F : {"local", "member", "temporary", "freed", "inVector"}) {
    INFO(F);
    CHECK(Runs(F).find("~Guard") != std::string::npos);
    CHECK_FALSE(fn(Sum, F).RunsHidden);
  }
  CHECK(Runs("defaulted").find("probe") != std::string::npos);
  CHECK(Runs("pooled").find("operator new") != std::string::npos);
  CHECK(Runs("pooled").find("operator delete") != std::string::npos);
  CHECK(Runs("plain").empty());
}

TEST_CASE("a place of another file reaches a part of an element",
          "[plan][summary]") {
  Source S(R"(
#include <ferry/ferry.hpp>
struct Inner { double d[2]; };
struct Vec3 { float x, y, z; Inner in; };
ferry::Buffer<Vec3> v(4);
)");
  const clang::VarDecl *V = nullptr;
  for (const clang::Decl *D : S.context().getTranslationUnitDecl()->decls())
    if (const auto *Var = llvm::dyn_cast<clang::VarDecl>(D);
        Var && Var->getName() == "v")
      V = Var;
  REQUIRE(V);
  std::vector<std::string> Parts =
      ferry::pointerPlaceSpellings(ferry::bufferElementType(V->getType()));
  for (const char *P : {"struct Vec3", "float", "struct Inner", "double",
                        "double[2]"}) {
    INFO(P);
    CHECK(llvm::is_contained(Parts, P));
  }
}

namespace {

const char *Objects = R"(
#include <ferry/ferry.hpp>
#include <functional>
struct Vec3 { float x, y, z; };
struct Base { virtual ~Base() = default; virtual void run() = 0; };
struct Mixin { ferry::Buffer<int> ids; };
class Body : public Base, public Mixin {
public:
  void run() override {}
private:
  ferry::Buffer<Vec3> pts_;
};
struct Plain { ferry::Buffer<double> d; };
struct App {
  ferry::Buffer<float> b;
  std::function<void()> poke;
  App() : b(4) { poke = [this] { b[0] += 1; }; }
};
struct Bump {
  ferry::Buffer<short> *s;
  void operator()() const { (*s)[0] += 1; }
};
void local() {
  ferry::Buffer<double> d(4);
  auto f = [&d] { d[0] = 1; };
  f();
}
)";

} // namespace

TEST_CASE("a summary lists its polymorphic holders and what its callables "
          "reach",
          "[plan][summary]") {
  Source S(Objects);
  ferry::FileSummary Sum = ferry::summarizeFile(S.context(), "objects.cpp");
  // Body alone: Plain and Mixin are not polymorphic, Base holds nothing.
  REQUIRE(Sum.PolymorphicHolders.size() == 1);
  const ferry::PolymorphicHolder &H = Sum.PolymorphicHolders.front();
  CHECK(H.Class == "c:@S@Body");
  CHECK(H.Bases == std::vector<std::string>{"c:@S@Base", "c:@S@Mixin"});
  CHECK(H.Holds == std::map<std::string, std::vector<std::string>>{
                       {"c:@S@Body", {"struct Vec3"}},
                       {"c:@S@Mixin", {"int"}}});
  // App's constructor's `[this]`, Bump's pointer, local's `[&d]` (which
  // a std::function of another function may hold too).
  CHECK(Sum.CallableElements ==
        std::vector<std::string>{"double", "float", "short"});

  std::string Error;
  std::optional<ferry::FileSummary> Back =
      ferry::summaryFromJSON(ferry::toJSON(Sum), Error);
  REQUIRE(Back);
  CHECK(Back->PolymorphicHolders.front().Holds == H.Holds);
  CHECK(Back->PolymorphicHolders.front().Bases == H.Bases);
  CHECK(Back->CallableElements == Sum.CallableElements);

  // Older summaries: no holders, and callables that may reach any type.
  llvm::json::Value Old = ferry::toJSON(Sum);
  Old.getAsObject()->erase("polymorphic_buffers");
  Old.getAsObject()->erase("callable_buffers");
  std::optional<ferry::FileSummary> Older = ferry::summaryFromJSON(Old, Error);
  REQUIRE(Older);
  CHECK(Older->PolymorphicHolders.empty());
  CHECK(Older->CallableElements == std::vector<std::string>{"*"});
}

TEST_CASE("the classes other files derive from a base hold what they list",
          "[plan][summary]") {
  ferry::FileSummary Parts;
  Parts.Source = "parts.cpp";
  Parts.PolymorphicHolders.push_back(
      {"c:@S@Body", {"c:@S@Part"}, {{"c:@S@Body", {"float"}}}});
  // A mesh derived through a middle class that holds ints, and from a
  // base of Part's own whose buffers are Part's business.
  Parts.PolymorphicHolders.push_back(
      {"c:@S@Mesh",
       {"c:@S@Part", "c:@S@Middle", "c:@S@Root"},
       {{"c:@S@Middle", {"int"}}, {"c:@S@Root", {"double"}}}});
  Parts.PolymorphicHolders.push_back(
      {"c:@S@Other", {"c:@S@Unrelated"}, {{"c:@S@Other", {"short"}}}});
  Parts.CallableElements = {"struct Spot"};
  ferry::FileSummary Main;
  Main.Source = "main.cpp";
  Main.CallableElements = {"float"};
  ferry::TargetSummaries T({Parts}, Main);
  CHECK(T.derivedElementsElsewhere("c:@S@Part", {"c:@S@Part", "c:@S@Root"}) ==
        std::vector<std::string>{"float", "int"});
  CHECK(T.derivedElementsElsewhere("c:@S@Body", {"c:@S@Body", "c:@S@Part"})
            .empty());
  // This file's own callables are its own business.
  CHECK(T.callableElementsElsewhere() ==
        std::vector<std::string>{"struct Spot"});
  ferry::TargetSummaries Missing({Parts}, Main, /*Incomplete=*/true);
  CHECK(Missing.derivedElementsElsewhere("c:@S@Part", {"c:@S@Part"}) ==
        std::vector<std::string>{"*"});
  CHECK(Missing.callableElementsElsewhere() == std::vector<std::string>{"*"});
}
