// HAT's examples as Ferry programs (the samples and issue 5's scenarios):
// the kernel tables, host events and may-alias sets `ferry analyze` prints.

#include "TestSupport.h"

#include <catch2/catch.hpp>

using namespace ferry;
using namespace ferry::test;

namespace {
std::string scenario(const std::string &Name) {
  return readFile(std::string(FERRY_TEST_SCENARIO_DIR) + "/" + Name + ".cpp");
}
const std::vector<std::string> ScenarioArgs = {"-I" FERRY_TEST_SCENARIO_DIR};

std::string table(Source &S, const std::string &Kernel) {
  std::string Out;
  for (const ParamAccess &P : S.kernel(Kernel).Buffers)
    Out += P.Param->getNameAsString() + ":" + accessName(P.Inferred) +
           (P.WritesCoverRange ? ":covers" + std::to_string(P.CoverageDims)
                               : "") +
           " ";
  return Out;
}
} // namespace

TEST_CASE("samples: squares", "[samples]") {
  Source S(readFile(std::string(FERRY_TEST_SAMPLES_DIR) + "/squares/squares.cpp"));
  CHECK(table(S, "squareKernel") == "values:read-write:covers1 ");
  CHECK(S.trace("square").empty()); // the host never looks inside
}

TEST_CASE("samples: read-write and write-only kernels", "[samples]") {
  Source RW(scenario("read_write"), ScenarioArgs);
  CHECK(table(RW, "scale") == "values:read-write:covers1 ");
  Source WO(scenario("write_only"), ScenarioArgs);
  CHECK(table(WO, "fill") == "out:write:covers1 ");
  CHECK(overwritesWholeRange(WO.param("fill", "out"), 1));
}

TEST_CASE("samples: life with a display helper", "[samples]") {
  Source S(scenario("life"), ScenarioArgs);
  CHECK(table(S, "lifeStep") == "from:read to:write:covers2 ");
  CHECK(S.hostSummary("display")[0] == Access::Read);
  unsigned Display = S.lineOf("display(*from, width, gen + 1)");
  CHECK(S.trace("life") ==
        std::vector<std::string>{std::to_string(Display) + " read a|b"});
}

TEST_CASE("samples: ping-pong with a conditional", "[samples]") {
  Source S(scenario("ping_pong"), ScenarioArgs);
  CHECK(table(S, "blur") == "from:read to:write:covers1 ");
  unsigned Copy = S.lineOf("std::copy(scratch.begin()");
  std::string C = std::to_string(Copy);
  CHECK(S.trace("smooth") ==
        std::vector<std::string>{
            std::to_string(S.lineOf("ferry::Buffer<int> scratch")) + " create scratch",
            C + " read scratch", C + " read scratch", C + " write data"});
}

TEST_CASE("samples: a flag buffer read each iteration", "[samples]") {
  Source S(scenario("do_while_flag"), ScenarioArgs);
  CHECK(table(S, "spreadMax") == "from:read to:write:covers1 changed:write ");
  std::string Reset = std::to_string(S.lineOf("flag[0] = 0;"));
  std::string Test = std::to_string(S.lineOf("while (flag[0] != 0)"));
  CHECK(S.trace("converge") ==
        std::vector<std::string>{Reset + " write flag", Test + " read flag"});
}

TEST_CASE("samples: one buffer as two parameters", "[samples]") {
  Source S(scenario("same_buffer"), ScenarioArgs);
  CHECK(table(S, "addInto") == "x:read y:read-write:covers1 ");
  ObjectTable T(S.function("run"));
  REQUIRE(T.objects().size() == 2);
  // run(cc, a, a) is called in main: x and y may be one buffer.
  CHECK(T.object(0).MayAlias == std::set<ObjectId>{1});
  CHECK(T.object(1).MayAlias == std::set<ObjectId>{0});
}
