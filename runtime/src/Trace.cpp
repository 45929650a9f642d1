// FERRY_TRACE: a Chrome trace-event JSON of every transfer and kernel,
// written at exit.
#include "Internal.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ferry {
namespace detail {
namespace {

struct TraceEvent {
  std::string name;
  const char *category;
  double startUs;
  double durationUs;
  std::uint64_t bytes;
  bool hasBytes;
};

class TraceRecorder {
public:
  TraceRecorder() : origin_(std::chrono::steady_clock::now()) {
    const char *path = std::getenv("FERRY_TRACE");
    if (path && *path)
      path_ = path;
  }
  ~TraceRecorder() {
    if (path_.empty())
      return;
    std::FILE *f = std::fopen(path_.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "ferry: cannot write FERRY_TRACE file '%s'\n",
                   path_.c_str());
      return;
    }
    const std::string text = json();
    std::fputs(text.c_str(), f);
    std::fclose(f);
  }

  bool enabled() const { return !path_.empty(); }

  void add(const std::string &name, const char *category,
           std::chrono::steady_clock::time_point start, double ms,
           std::uint64_t bytes, bool hasBytes) {
    const double startUs =
        std::chrono::duration<double, std::micro>(start - origin_).count();
    events_.push_back(
        TraceEvent{name, category, startUs, ms * 1000.0, bytes, hasBytes});
  }

  std::string json() const {
    std::string out = "{\"traceEvents\":[";
    bool first = true;
    for (const TraceEvent &e : events_) {
      char numbers[160];
      std::snprintf(numbers, sizeof numbers,
                    "\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":1",
                    e.startUs, e.durationUs);
      out += first ? "\n" : ",\n";
      first = false;
      out += "{\"name\":\"" + jsonEscape(e.name) + "\",\"cat\":\"" +
             e.category + "\"," + numbers;
      if (e.hasBytes)
        out += ",\"args\":{\"bytes\":" + std::to_string(e.bytes) + "}";
      out += "}";
    }
    out += "\n],\"displayTimeUnit\":\"ms\"}\n";
    return out;
  }

private:
  std::chrono::steady_clock::time_point origin_;
  std::string path_;
  std::vector<TraceEvent> events_;
};

TraceRecorder &recorder() {
  static TraceRecorder instance;
  return instance;
}

} // namespace

void traceEvent(const std::string &name, const char *category,
                std::chrono::steady_clock::time_point start, double ms,
                std::uint64_t bytes, bool hasBytes) {
  TraceRecorder &r = recorder();
  if (r.enabled())
    r.add(name, category, start, ms, bytes, hasBytes);
}

void traceStart() { recorder(); }

bool tracing() { return recorder().enabled(); }

std::string traceJson() { return recorder().json(); }

} // namespace detail
} // namespace ferry
