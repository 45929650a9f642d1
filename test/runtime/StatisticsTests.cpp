// FERRY_STATS and FERRY_TRACE: the writers, and whole programs run with them.
#include "TestSupport.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

using namespace ferry_test;

namespace {

// Runs a command through the shell; returns its exit status.
int shell(const std::string &command) {
  const int status = std::system(command.c_str());
  return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("the statistics JSON has the documented shape", "[statistics]") {
  ferry::Statistics s;
  s.device = "GPU \"7\"\\x";
  s.policy = "kernel";
  s.toDeviceCount = 3;
  s.toDeviceBytes = 1200;
  s.fromDeviceCount = 2;
  s.fromDeviceBytes = 800;
  s.dispatches = 5;
  s.programBuilds = 4;
  const std::string json = ferry::detail::statisticsJson(s);
  CHECK_THAT(json, Catch::StartsWith(
                       "{\"device\": \"GPU \\\"7\\\"\\\\x\", "
                       "\"policy\": \"kernel\", "
                       "\"to_device\": {\"count\": 3, \"bytes\": 1200}, "
                       "\"from_device\": {\"count\": 2, \"bytes\": 800}, "
                       "\"dispatches\": 5, \"program_builds\": 4, "
                       "\"kernel_ms\": "));
  CHECK_THAT(json, Catch::EndsWith("}\n"));
  CHECK(ferry::detail::jsonEscape(std::string("a\nb\x01")) == "a\\nb\\u0001");

  const std::string path = tmpPath("stats_writer.json");
  std::remove(path.c_str());
  REQUIRE(ferry::detail::writeStatistics(s, path.c_str()));
  CHECK(readFile(path) == json);
}

TEST_CASE("a reference program writes FERRY_STATS without OpenCL",
          "[statistics]") {
  const std::string stats = tmpPath("reference_stats.json");
  const std::string out = tmpPath("reference_out.txt");
  std::remove(stats.c_str());
  REQUIRE(shell("FERRY_STATS='" + stats + "' FERRY_DEVICE=cpu '" +
                FERRY_REFERENCE_PROBE + "' > '" + out + "'") == 0);
  CHECK(readFile(out) == "reference 4 8 12\n");
  const std::string json = readFile(stats);
  CHECK_THAT(json, Catch::StartsWith(
                       "{\"device\": \"reference\", \"policy\": \"planned\", "
                       "\"to_device\": {\"count\": 0, \"bytes\": 0}, "
                       "\"from_device\": {\"count\": 0, \"bytes\": 0}, "
                       "\"dispatches\": 2"));
}

TEST_CASE("FERRY_STATS=- writes to standard error", "[statistics]") {
  const std::string err = tmpPath("reference_stderr.txt");
  REQUIRE(shell("FERRY_STATS=- '" + std::string(FERRY_REFERENCE_PROBE) +
                "' > /dev/null 2> '" + err + "'") == 0);
  CHECK_THAT(readFile(err), Catch::Contains("\"dispatches\": 2"));
}

TEST_CASE("a rewritten program writes FERRY_STATS and FERRY_TRACE",
          "[statistics]") {
  const std::string stats = tmpPath("device_stats.json");
  const std::string trace = tmpPath("device_trace.json");
  std::remove(stats.c_str());
  std::remove(trace.c_str());
  REQUIRE(shell("FERRY_DEVICE=cpu FERRY_POLICY=kernel FERRY_STATS='" + stats +
                "' FERRY_TRACE='" + trace + "' '" + FERRY_DEVICE_PROBE +
                "' > /dev/null") == 0);
  const std::string json = readFile(stats);
  CHECK_THAT(json, Catch::Contains("\"policy\": \"kernel\""));
  CHECK_THAT(json, Catch::Contains("\"to_device\": {\"count\": 2, \"bytes\": 24}"));
  CHECK_THAT(json, Catch::Contains("\"from_device\": {\"count\": 2, \"bytes\": 24}"));
  CHECK_THAT(json, Catch::Contains("\"dispatches\": 2"));
  CHECK_THAT(json, !Catch::Contains("\"device\": \"reference\""));

  const std::string events = readFile(trace);
  CHECK_THAT(events, Catch::StartsWith("{\"traceEvents\":["));
  CHECK_THAT(events, Catch::Contains("{\"name\":\"twice\",\"cat\":\"kernel\",\"ph\":\"X\""));
  CHECK_THAT(events, Catch::Contains("{\"name\":\"toDevice\",\"cat\":\"transfer\",\"ph\":\"X\""));
  CHECK_THAT(events, Catch::Contains("\"args\":{\"bytes\":12}"));
  CHECK_THAT(events, Catch::Contains("\"pid\":1,\"tid\":1"));
}

TEST_CASE("a rewritten program on the host device writes zero transfers",
          "[statistics]") {
  const std::string stats = tmpPath("host_stats.json");
  std::remove(stats.c_str());
  REQUIRE(shell("FERRY_DEVICE=host FERRY_STATS='" + stats + "' '" +
                FERRY_DEVICE_PROBE + "' > /dev/null") == 0);
  CHECK_THAT(readFile(stats),
             Catch::StartsWith(
                 "{\"device\": \"host\", \"policy\": \"planned\", "
                 "\"to_device\": {\"count\": 0, \"bytes\": 0}, "
                 "\"from_device\": {\"count\": 0, \"bytes\": 0}, "
                 "\"dispatches\": 2"));
}

TEST_CASE("a rewritten program reports a bad FERRY_DEVICE", "[statistics]") {
  const std::string err = tmpPath("bad_device_stderr.txt");
  CHECK(shell("FERRY_DEVICE=nothing-like-this '" +
              std::string(FERRY_DEVICE_PROBE) + "' > /dev/null 2> '" + err +
              "'") == 2);
  CHECK_THAT(readFile(err), Catch::Contains("nothing-like-this"));
}

TEST_CASE("a partial wo copies back only its part, counted and traced",
          "[statistics]") {
  const std::string stats = tmpPath("partial_stats.json");
  const std::string trace = tmpPath("partial_trace.json");
  const std::string out = tmpPath("partial_out.txt");
  std::remove(stats.c_str());
  std::remove(trace.c_str());
  REQUIRE(shell("FERRY_DEVICE=cpu FERRY_POLICY=planned FERRY_STATS='" + stats +
                "' FERRY_TRACE='" + trace + "' '" + FERRY_DEVICE_PROBE +
                "' partial > '" + out + "'") == 0);
  CHECK_THAT(readFile(out), Catch::EndsWith(" 5 5 3 4\n"));
  const std::string json = readFile(stats);
  // The kernel wrote 2 of 4 ints: nothing copied in, 8 bytes back.
  CHECK_THAT(json, Catch::Contains("\"to_device\": {\"count\": 0, \"bytes\": 0}"));
  CHECK_THAT(json, Catch::Contains("\"from_device\": {\"count\": 1, \"bytes\": 8}"));
  CHECK_THAT(json, Catch::Contains(
                       "\"partial_from_device\": {\"count\": 1, \"bytes\": 8}"));
  CHECK_THAT(json, Catch::Contains("\"dispatches\": 1"));
  CHECK_THAT(json, Catch::Contains("\"program_builds\": 1"));
  const std::string events = readFile(trace);
  CHECK_THAT(events, !Catch::Contains("\"toDevice\""));
  CHECK_THAT(events, Catch::Contains(
                         "{\"name\":\"fromDevice\",\"cat\":\"transfer\",\"ph\":\"X\""));
  CHECK_THAT(events, Catch::Contains("\"args\":{\"bytes\":8}"));
  CHECK_THAT(events, Catch::Contains("{\"name\":\"head\",\"cat\":\"kernel\""));
  CHECK_THAT(events, Catch::Contains("{\"name\":\"build head\",\"cat\":\"build\""));
  // The copy-out comes after the kernel.
  CHECK(events.find("\"name\":\"head\"") < events.find("\"fromDevice\""));
}

TEST_CASE("FERRY_STATS and FERRY_TRACE are written by a program that runs "
          "nothing", "[statistics]") {
  for (const char *device : {"cpu", "host"}) {
    INFO("FERRY_DEVICE=" << device);
    const std::string stats = tmpPath("idle_stats.json");
    const std::string trace = tmpPath("idle_trace.json");
    std::remove(stats.c_str());
    std::remove(trace.c_str());
    REQUIRE(shell(std::string("FERRY_DEVICE=") + device + " FERRY_STATS='" +
                  stats + "' FERRY_TRACE='" + trace + "' '" +
                  FERRY_DEVICE_PROBE + "' idle > /dev/null") == 0);
    CHECK_THAT(readFile(stats),
               Catch::Contains("\"to_device\": {\"count\": 0, \"bytes\": 0}, "
                               "\"from_device\": {\"count\": 0, \"bytes\": 0}, "
                               "\"dispatches\": 0"));
    CHECK(readFile(trace) ==
          "{\"traceEvents\":[\n],\"displayTimeUnit\":\"ms\"}\n");
  }
}

TEST_CASE("FERRY_TRACE on the host device traces the kernels",
          "[statistics]") {
  const std::string trace = tmpPath("host_trace.json");
  std::remove(trace.c_str());
  REQUIRE(shell("FERRY_DEVICE=host FERRY_TRACE='" + trace + "' '" +
                FERRY_DEVICE_PROBE + "' > /dev/null") == 0);
  const std::string events = readFile(trace);
  CHECK_THAT(events, Catch::Contains("{\"name\":\"twice\",\"cat\":\"kernel\""));
  CHECK_THAT(events, !Catch::Contains("\"cat\":\"transfer\""));
}
