// ComputeContext::launch: runs one kernel of a rewritten program, on the
// OpenCL device (with the copies the policy asks for) or on the host.
#include "Internal.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ferry {
namespace detail {
namespace {

bool copiedIn(Policy p, Access a) {
  switch (p) {
  case Policy::Planned:
  case Policy::Whole:
    return false;
  case Policy::Kernel:
    return a == Access::RO || a == Access::RW;
  case Policy::Naive:
    return true;
  }
  return false;
}

bool copiedOut(Policy p, Access a) {
  switch (p) {
  case Policy::Planned:
  case Policy::Whole:
    return false;
  case Policy::Kernel:
    return a == Access::WO || a == Access::RW;
  case Policy::Naive:
    return true;
  }
  return false;
}

bool writes(Access a) { return a == Access::WO || a == Access::RW; }

// The buffers of a launch, each once, with the union of its accesses (a
// buffer passed twice is copied at most once each way).
struct LaunchBuffer {
  const BufferBase *buffer;
  bool in = false;
  bool out = false;
  bool written = false;
  // Passed read-write somewhere: the kernel may write any element.
  bool writtenAnywhere = false;
  // Passed read-only or read-write somewhere: the kernel reads it.
  bool read = false;
  // Passed write-only, but the kernel's range (and bound) covers fewer
  // elements than the buffer has.
  bool partiallyOverwritten = false;
  // What its WO arguments cover: [first, first + covered) elements (the most
  // any covers; first is 0 but for ferry::woFrom), and the same in bytes.
  std::size_t first = 0;
  std::size_t covered = 0;
  std::size_t firstByte = 0, lastByte = 0;
  // Every WO argument of it writes exactly its covered elements: none passed
  // as woBeyond, no grid with gaps or with columns past its width, and all
  // from the same first element.
  bool exactPrefix = true;
  bool anyWriteOnly = false;
  // Passed as ferry::woDeclared: the user promises the kernel overwrites
  // whatever the host reads later, however few work-items the range has.
  bool declared = false;
};

// Whether a WO argument's kernel writes exactly its covered elements
// [0, covered) and nothing past them. The store at the range's linear index
// (ferry::wo(b) and wo(b, bound)) does. A grid store does when the columns
// are exactly its width: with fewer it leaves gaps (covered is 0 then, yet
// it writes), with more a row runs into the next, and the last row past
// covered; a volume's rows must also be exactly its plane's.
bool writesExactly(const LaunchArg &a, const Range &r, std::size_t covered) {
  const GridBound &g = a.grid;
  if (!g.valid)
    return true;
  if (covered == 0)
    return false;
  const std::size_t cols =
      g.colDim < 0 ? g.colBound : std::min(r.size(g.colDim), g.colBound);
  if (cols != g.width)
    return false;
  return g.planeRows == 0 || r.size(g.rowDim) == g.planeRows;
}

// Fills `result` (kept by the caller between launches, so that a loop of
// dispatches allocates nothing here).
void launchBuffers(Policy p, const Range &r, const LaunchArg *args,
                   std::size_t count, std::vector<LaunchBuffer> &result) {
  result.clear();
  for (std::size_t i = 0; i < count; ++i) {
    if (!args[i].buffer)
      continue;
    auto it = std::find_if(result.begin(), result.end(),
                           [&](const LaunchBuffer &lb) {
                             return lb.buffer == args[i].buffer;
                           });
    if (it == result.end()) {
      result.push_back(LaunchBuffer{args[i].buffer});
      it = result.end() - 1;
    }
    it->in = it->in || copiedIn(p, args[i].access);
    it->out = it->out || copiedOut(p, args[i].access);
    it->written = it->written || writes(args[i].access);
    it->writtenAnywhere = it->writtenAnywhere || args[i].access == Access::RW;
    it->read = it->read || args[i].access == Access::RO ||
               args[i].access == Access::RW;
    if (args[i].access == Access::WO) {
      const std::size_t elements = args[i].elements;
      const std::size_t first = std::min(args[i].first, elements);
      const std::size_t covered = std::min(
          elements - first, args[i].grid.valid
                                ? args[i].grid.covered(r)
                                : std::min(r.count(), args[i].bound));
      it->exactPrefix = it->exactPrefix && !args[i].beyond &&
                        writesExactly(args[i], r, covered) &&
                        (!it->anyWriteOnly || first == it->first);
      it->anyWriteOnly = true;
      it->first = first;
      it->covered = std::max(it->covered, covered);
      it->partiallyOverwritten = it->first > 0 || it->covered < elements;
      if (it->partiallyOverwritten && elements > 0) {
        const std::size_t size = args[i].buffer->byteSize() / elements;
        it->firstByte = it->first * size;
        it->lastByte = (it->first + it->covered) * size;
      }
      it->declared = it->declared || args[i].declared;
    }
  }
  // The kernel policy copies a partly overwritten buffer out whole after the
  // dispatch, so it copies it in first (it keeps no validity to check).
  if (p == Policy::Kernel)
    for (LaunchBuffer &lb : result)
      lb.in = lb.in || lb.partiallyOverwritten;
}

// The kernel writes nothing of the buffer past its covered elements, and the
// policy follows that (FERRY_POLICY=whole plans every write-only launch as
// woBeyond).
bool writtenInPrefix(const LaunchBuffer &lb, Policy p) {
  return p == Policy::Planned && lb.exactPrefix && !lb.writtenAnywhere;
}

cl::NDRange globalRange(const Range &r) {
  switch (r.dims()) {
  case 1:
    return cl::NDRange(r.size(0));
  case 2:
    return cl::NDRange(r.size(0), r.size(1));
  default:
    return cl::NDRange(r.size(0), r.size(1), r.size(2));
  }
}

// The work-group size the dispatch names, or none (the device picks).
cl::NDRange localRange(const Range &r) {
  if (!r.hasLocal())
    return cl::NullRange;
  switch (r.dims()) {
  case 1:
    return cl::NDRange(r.localSize(0));
  case 2:
    return cl::NDRange(r.localSize(0), r.localSize(1));
  default:
    return cl::NDRange(r.localSize(0), r.localSize(1), r.localSize(2));
  }
}

// Binds one argument at `index` and returns the next index. A
// ferry::localSpan is two kernel arguments, as the emitter prints a
// LocalSpan parameter: the __local memory, then its element count.
cl_uint bindArgument(Session &s, cl::Kernel &kernel, cl_uint index,
                     const LaunchArg &a) {
  if (a.buffer) {
    kernel.setArg(index, deviceBuffer(s, *a.buffer));
  } else if (a.value) {
    kernel.setArg(index, a.size, a.value);
  } else {
    // OpenCL takes no empty local argument; an empty span needs none.
    kernel.setArg(index, std::max<std::size_t>(a.localBytes, 1), nullptr);
    const cl_uint elements = static_cast<cl_uint>(a.localCount);
    kernel.setArg(++index, sizeof elements, &elements);
  }
  return index + 1;
}

// Binds the launch's arguments in order.
void bindArguments(Session &s, cl::Kernel &kernel, const char *kernelName,
                   const LaunchArg *args, std::size_t count) {
  cl_uint index = 0;
  try {
    for (std::size_t i = 0; i < count; ++i)
      index = bindArgument(s, kernel, index, args[i]);
  } catch (const cl::Error &e) {
    throwClError(e, std::string("argument ") + std::to_string(index) +
                        " of kernel '" + kernelName + "'");
  }
}

bool hasReduction(const LaunchArg *args, std::size_t count) {
  return std::any_of(args, args + count,
                     [](const LaunchArg &a) { return a.reduction; });
}

std::size_t elementSize(const LaunchArg &a) {
  return a.elements ? a.buffer->byteSize() / a.elements : 1;
}

// The largest power of two not above 256 and what the kernel `name` of
// `program` allows: a group's tree in local memory halves it at each step.
std::size_t treeSize(Session &s, cl::Kernel &kernel, const char *program,
                     const std::string &name) {
  std::size_t &size = s.treeSizes[{program, name}];
  if (size == 0) {
    const std::size_t most = std::min<std::size_t>(
        kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(s.device), 256);
    size = 1;
    while (size * 2 <= most)
      size *= 2;
  }
  return size;
}

// A kernel with reductions (<ferry/reduction.hpp>), as the emitter prints
// it: `groups` groups of `group` work-items stride over the range, each
// item folding its values privately and each group in local memory, and
// leave one value per group and reducer in that reducer's partials buffer;
// then `<kernel>_ferry_finish`, one group, folds the partials into element
// 0 of each reducer's buffer. Enough groups to fill the device, and no
// more: each then reads long runs of its elements. The finishing
// kernel's event (when `withEvent`) in finishEvent, the first's in
// mainEvent.
void enqueueReduction(Session &s, const char *program, const char *kernelName,
                      cl::Kernel &kernel, const Range &r,
                      const LaunchArg *args, std::size_t count, bool withEvent,
                      cl::Event &mainEvent, cl::Event &finishEvent) {
  const std::string finishName = std::string(kernelName) + "_ferry_finish";
  cl::Kernel &finish = s.kernel(program, finishName.c_str()).second;
  const std::size_t group = treeSize(s, kernel, program, kernelName);
  const std::size_t finishGroup = treeSize(s, finish, program, finishName);
  if (s.computeUnits == 0)
    s.computeUnits = s.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const std::size_t units = s.computeUnits;
  const std::size_t groups = std::max<std::size_t>(
      1, std::min((r.count() + group - 1) / group, units * 8));
  cl_uint index = 0, finishIndex = 0;
  std::size_t reducer = 0;
  try {
    for (std::size_t i = 0; i < count; ++i) {
      const LaunchArg &a = args[i];
      if (!a.reduction) {
        index = bindArgument(s, kernel, index, a);
        continue;
      }
      const std::size_t size = elementSize(a);
      if (s.reductionPartials.size() <= reducer) {
        s.reductionPartials.emplace_back();
        s.reductionPartialsBytes.push_back(0);
      }
      if (s.reductionPartialsBytes[reducer] < groups * size) {
        s.reductionPartials[reducer] =
            cl::Buffer(s.context, CL_MEM_READ_WRITE, groups * size);
        s.reductionPartialsBytes[reducer] = groups * size;
      }
      const cl::Buffer &partials = s.reductionPartials[reducer++];
      kernel.setArg(index++, partials);
      kernel.setArg(index++, group * size, nullptr);
      finish.setArg(finishIndex++, partials);
      finish.setArg(finishIndex++, deviceBuffer(s, *a.buffer));
      finish.setArg(finishIndex++, finishGroup * size, nullptr);
    }
    for (int d = 0; d < 3; ++d) {
      const cl_int extent = static_cast<cl_int>(r.size(d));
      kernel.setArg(index++, sizeof extent, &extent);
    }
    const cl_int groupCount = static_cast<cl_int>(groups);
    finish.setArg(finishIndex, sizeof groupCount, &groupCount);
  } catch (const cl::Error &e) {
    throwClError(e, std::string("the arguments of kernel '") + kernelName +
                        "' and its reduction");
  }
  try {
    s.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                 cl::NDRange(groups * group),
                                 cl::NDRange(group), nullptr,
                                 withEvent ? &mainEvent : nullptr);
    s.queue.enqueueNDRangeKernel(finish, cl::NullRange,
                                 cl::NDRange(finishGroup),
                                 cl::NDRange(finishGroup), nullptr,
                                 withEvent ? &finishEvent : nullptr);
  } catch (const cl::Error &e) {
    throwClError(e, std::string("kernel '") + kernelName + "' on " + s.name);
  }
}

// FERRY_EVENTS=1 (or a run that measures device time): an OpenCL event per
// dispatch, so that a failing kernel is named exactly. Otherwise a dispatch
// takes no event, which costs NVIDIA's driver about 2 µs a launch, and a
// failure names the kernels enqueued since the last wait (Session::unwaited).
bool eventPerDispatch(const Session &s) {
  static const bool wanted = [] {
    const char *v = std::getenv("FERRY_EVENTS");
    return (v && *v && !settingOff("FERRY_EVENTS")) ||
           std::getenv("FERRY_FAIL_KERNEL") != nullptr;
  }();
  return wanted || s.profiling;
}

// FERRY_FAIL_KERNEL=name (tests only): each dispatch of that kernel is
// accounted for as if it had failed on the device after its enqueue
// returned (its event is replaced by one that failed with
// CL_OUT_OF_RESOURCES), so that tests see how such a failure is reported.
void failureForTesting(Session &s, const char *kernelName, cl::Event &event) {
  static const char *name = std::getenv("FERRY_FAIL_KERNEL");
  if (!name || std::strcmp(name, kernelName) != 0)
    return;
  event.wait();
  cl::UserEvent failed(s.context);
  failed.setStatus(CL_OUT_OF_RESOURCES);
  event = failed;
}

} // namespace
} // namespace detail

void ComputeContext::launchImpl(const char *program, const char *kernelName,
                                const Range &r, const detail::LaunchArg *args,
                                std::size_t count, detail::HostRun hostRun) {
  using namespace detail;
  Session &s = sessionFor(session_);

  if (s.host) {
    const auto t0 = std::chrono::steady_clock::now();
    hostRun();
    const double ms = millisecondsSince(t0);
    recordDispatch(ms);
    traceEvent(kernelName, "kernel", t0, ms, 0, false);
    return;
  }

  const Policy policy = activePolicy();
  static thread_local std::vector<LaunchBuffer> buffers;
  launchBuffers(policy, r, args, count, buffers);

  KernelEntry &entry = s.kernel(program, kernelName);
  cl::Kernel &kernel = entry.second;

  for (const LaunchBuffer &lb : buffers) {
    BufferAccess::touch(*lb.buffer);
    deviceBuffer(s, *lb.buffer);
    // Under the planned policy the rewriter wrote no copy-in for a WO
    // argument. One the range covers only in part is written in
    // [0, covered) alone and needs none either (see below), unless its
    // kernel may store past that (passed as woBeyond, a grid with gaps, or
    // read-write too): then the parts of the device copy still stale come
    // from the host first, so the elements the kernel leaves alone keep the
    // host's values. A declared one is the user's promise, never copied in
    // (see ferry::woDeclared).
    if (lb.in) // the kernel and naive policies copy in, blocking
      copyToDevice(s, *lb.buffer, false);
    else if (followsPlan(policy) &&
             ((lb.partiallyOverwritten && !lb.declared &&
               !writtenInPrefix(lb, policy)) ||
              lb.read) &&
             !lb.buffer->deviceValid())
      // Or a read of what a partial wo launch left stale (see ferry::wo):
      // otherwise the planner's copies made it valid already.
      copyStaleToDevice(s, *lb.buffer, 0, lb.buffer->byteSize());
  }

  // An empty range runs nothing (OpenCL rejects a zero global size), but its
  // copies and bookkeeping are those of any other launch.
  const bool empty = r.count() == 0;
  const std::string mismatch = r.localMismatch();
  if (!mismatch.empty())
    throw Error(std::string("ferry: kernel '") + kernelName + "': " + mismatch);
  const auto t0 = std::chrono::steady_clock::now();
  const bool reduces = hasReduction(args, count);
  if (!reduces)
    bindArguments(s, kernel, kernelName, args, count);
  if (!empty) {
    const bool withEvent = eventPerDispatch(s);
    cl::Event event;
    if (reduces) {
      cl::Event folded;
      enqueueReduction(s, program, kernelName, kernel, r, args, count,
                       withEvent, folded, event);
      if (withEvent)
        s.track(std::move(folded), CommandKind::Kernel, entry.first.c_str(),
                0, false, t0);
    } else {
      try {
        // Enqueued without waiting: its time and any failure are accounted
        // for at the next wait (a copy out, the end of compute), naming it.
        s.queue.enqueueNDRangeKernel(kernel, cl::NullRange, globalRange(r),
                                     localRange(r), nullptr,
                                     withEvent ? &event : nullptr);
        if (withEvent)
          failureForTesting(s, kernelName, event);
      } catch (const cl::Error &e) {
        throwClError(e,
                     std::string("kernel '") + kernelName + "' on " + s.name);
      }
    }
    if (withEvent) {
      for (const LaunchBuffer &lb : buffers)
        BufferAccess::shadow(*lb.buffer)->last = event;
      s.track(std::move(event), CommandKind::Kernel, entry.first.c_str(), 0,
              false, t0);
    } else {
      for (const LaunchBuffer &lb : buffers) {
        DeviceShadow &shadow = *BufferAccess::shadow(*lb.buffer);
        if (shadow.zeroCopy)
          shadow.pendingKernels = s.queue;
      }
      s.unwaited.add(entry.first.c_str());
    }
  }
  recordDispatch(0.0);

  for (const LaunchBuffer &lb : buffers) {
    if (lb.written && !empty) {
      // Under the planned policy a WO argument the range covers only in
      // part is written in what it covers alone: that part is now the
      // device's, and the rest keeps its validity (see ferry::wo).
      const bool part = lb.partiallyOverwritten && !lb.declared &&
                        writtenInPrefix(lb, policy);
      if (part)
        BufferAccess::writtenOnDevice(*lb.buffer, lb.firstByte, lb.lastByte);
      else
        BufferAccess::writtenOnDevice(*lb.buffer, 0, lb.buffer->byteSize());
    }
    if (lb.out)
      copyFromDevice(s, *lb.buffer);
  }
}

} // namespace ferry
