// Work-groups on the host: local memory, barriers and atomics as the
// reference execution (and FERRY_DEVICE=host) runs them.
//
// A dispatch with ferry::Range(...).local(...) runs one work-group after
// another. Inside a group every work-item may wait at kc.barrier(), so each
// work-item that reaches one runs on a fiber of its own (a stack switch on
// x86-64, POSIX ucontext elsewhere):
// the items run in turn up to the barrier, then in turn past it. All fibers
// share one OS thread and switch only at barriers, which is what makes the
// atomics below atomic without any hardware atomic: no other work-item runs
// between an atomic's read and its write.
//
// A work-group whose first work-item finishes without reaching a barrier
// runs its other work-items as plain calls: a kernel without barriers pays
// for one fiber per group, not per work-item.
//
// Included by <ferry/ferry.hpp>; not a header of its own.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <type_traits>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <ucontext.h>
#define FERRY_HAS_FIBERS 1
#else
#define FERRY_HAS_FIBERS 0
#endif

// On x86-64 ELF a fiber switch is a stack switch of a few instructions:
// glibc's swapcontext saves the signal mask with a system call, which made
// a barrier cost about 1.3 us a work-item here. Elsewhere, ucontext.
#if FERRY_HAS_FIBERS && defined(__x86_64__) && defined(__ELF__) &&           \
    (defined(__GNUC__) || defined(__clang__)) && !defined(FERRY_UCONTEXT)
#define FERRY_STACK_SWITCH 1
// Saves the callee-saved registers on the current stack, stores its stack
// pointer in *save, and resumes the stack at `load` (which was saved the
// same way, or laid out by startFiber). Defined once per program (a COMDAT
// section), however many translation units include this header.
extern "C" void ferry_switch_stack(void **save, void *load);
__asm__(".pushsection .text.ferry_switch_stack,\"axG\",@progbits,"
        "ferry_switch_stack,comdat\n"
        ".weak ferry_switch_stack\n"
        ".type ferry_switch_stack,@function\n"
        "ferry_switch_stack:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n"
        "  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n"
        "  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size ferry_switch_stack, .-ferry_switch_stack\n"
        ".popsection\n");
#else
#define FERRY_STACK_SWITCH 0
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FERRY_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FERRY_ASAN_FIBERS)
#define FERRY_ASAN_FIBERS 1
#endif
#ifdef FERRY_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace ferry {
namespace detail {

// Where each work-item runs while its group is being run on the host.
class WorkGroupRunner {
public:
  // `runItem(closure, item)` runs work-item `item` (0 .. items-1, x
  // fastest) of the current group to its end.
  using RunItem = void (*)(void *closure, std::size_t item);

  WorkGroupRunner(std::size_t items, RunItem runItem, void *closure)
      : items_(items), runItem_(runItem), closure_(closure), slots_(),
        itemDepth_(items, 0) {}
  WorkGroupRunner(const WorkGroupRunner &) = delete;
  WorkGroupRunner &operator=(const WorkGroupRunner &) = delete;
#if FERRY_HAS_FIBERS
  ~WorkGroupRunner() {
    for (Fiber &f : fibers_)
      if (f.stack)
        stackPool().push_back(std::move(f.stack));
  }
#endif

  // Runs every work-item of one group: with fibers when the first one
  // reaches a barrier, as plain calls otherwise.
  void runGroup() {
    Scope scope(*this);
    std::fill(itemDepth_.begin(), itemDepth_.end(), std::size_t(0));
    if (!runFirstOnFiber()) {
      for (std::size_t i = 1; i < items_; ++i) {
        current_ = i;
        runItem_(closure_, i);
      }
      return;
    }
    runRestOnFibers();
  }

  // kc.barrier() in the current work-item.
  void barrier() {
#if FERRY_HAS_FIBERS
    if (!onFiber_)
      throw Error("kc.barrier() was reached by some work-items of a "
                  "work-group and not by others");
    Fiber &f = fibers_[current_];
    f.state = Fiber::AtBarrier;
    switchToMain(f);
#endif
  }

  // The storage of the next ferry::Local the current work-item declares:
  // the same for every work-item of the group, since they declare their
  // local arrays in the same order. A slot is known by how many local
  // arrays the item holds already and by its size, so that arrays of other
  // sizes declared one after another in turn are distinct arrays.
  void *acquireLocal(std::size_t bytes) {
    std::size_t &depth = itemDepth_[current_];
    Slot *slot = nullptr;
    for (Slot &s : slots_)
      if (s.depth == depth && s.bytes == bytes)
        slot = &s;
    if (!slot) {
      slots_.push_back(Slot{depth, bytes, std::unique_ptr<Word[]>(
                                              new Word[wordsFor(bytes)]())});
      slot = &slots_.back();
    }
    ++depth;
    return slot->storage.get();
  }
  // A ferry::Local going out of scope: the next one declared at this depth
  // (in the next iteration of a loop body, say) is the same array.
  void releaseLocal() {
    std::size_t &depth = itemDepth_[current_];
    if (depth > 0)
      --depth;
  }

  static WorkGroupRunner *&active() {
    static thread_local WorkGroupRunner *runner = nullptr;
    return runner;
  }

private:
  using Word = std::max_align_t;
  static std::size_t wordsFor(std::size_t bytes) {
    return (bytes + sizeof(Word) - 1) / sizeof(Word) + 1;
  }
  struct Slot {
    std::size_t depth;
    std::size_t bytes;
    std::unique_ptr<Word[]> storage;
  };

  // Makes this runner the one kc.barrier() and ferry::Local find, for the
  // time a group runs (a kernel never dispatches, but a host program may
  // run a reference dispatch from inside another: restore the outer one).
  struct Scope {
    explicit Scope(WorkGroupRunner &r) : outer(active()) { active() = &r; }
    ~Scope() { active() = outer; }
    WorkGroupRunner *outer;
  };

#if FERRY_HAS_FIBERS
  struct Fiber {
    enum State { Running, AtBarrier, Done };
#if FERRY_STACK_SWITCH
    void *sp = nullptr;
#else
    ucontext_t context;
#endif
    std::unique_ptr<char[]> stack;
    State state = Running;
    std::exception_ptr error;
#ifdef FERRY_ASAN_FIBERS
    void *fakeStack = nullptr;
#endif
  };
  // Enough for the deepest kernel call chain with its private arrays, and
  // only touched pages are ever backed by memory.
  static constexpr std::size_t stackBytes = 512 * 1024;

  // Runs item 0 on a fiber; true when it stopped at a barrier.
  bool runFirstOnFiber() {
    fibers_.resize(items_);
    startFiber(0);
    resume(0);
    if (fibers_[0].state == Fiber::Done) {
      rethrow(fibers_[0]);
      return false;
    }
    return true;
  }

  void runRestOnFibers() {
    for (std::size_t i = 1; i < items_; ++i)
      startFiber(i);
    std::size_t first = 1; // item 0 already stands at the first barrier
    for (;;) {
      for (std::size_t i = first; i < items_; ++i)
        resume(i);
      first = 0;
      std::size_t done = 0;
      for (Fiber &f : fibers_) {
        rethrow(f);
        done += f.state == Fiber::Done;
      }
      if (done == items_)
        return;
      if (done != 0)
        throw Error("kc.barrier() was reached by some work-items of a "
                    "work-group and not by others");
      for (Fiber &f : fibers_)
        f.state = Fiber::Running;
    }
  }

  void startFiber(std::size_t i) {
    Fiber &f = fibers_[i];
    if (!f.stack) {
      std::vector<std::unique_ptr<char[]>> &pool = stackPool();
      if (pool.empty()) {
        f.stack.reset(new char[stackBytes]);
      } else {
        f.stack = std::move(pool.back());
        pool.pop_back();
      }
    }
    f.state = Fiber::Running;
    f.error = nullptr;
    starting_ = this;
#if FERRY_STACK_SWITCH
    // What ferry_switch_stack pops: six registers, then stackEntry as the
    // return address, which then finds its stack as if it had been called.
    auto top = reinterpret_cast<std::uintptr_t>(f.stack.get() + stackBytes);
    void **sp = reinterpret_cast<void **>(top & ~std::uintptr_t(15));
    *--sp = nullptr;
    *--sp = reinterpret_cast<void *>(&stackEntry);
    for (int r = 0; r < 6; ++r)
      *--sp = nullptr;
    f.sp = sp;
#else
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = stackBytes;
    f.context.uc_link = &main_;
    makecontext(&f.context, reinterpret_cast<void (*)()>(&fiberEntry), 1,
                static_cast<int>(i));
#endif
  }

#if FERRY_STACK_SWITCH
  // The first code a fiber runs: the item is the one resume() switched to.
  [[noreturn]] static void stackEntry() {
    WorkGroupRunner &self = *starting_;
    const std::size_t item = self.current_;
    fiberEntry(static_cast<int>(item));
    ferry_switch_stack(&self.fibers_[item].sp, self.mainSp_);
    __builtin_unreachable(); // a finished fiber is never resumed
  }
#endif

  // Stacks outlive their dispatch, so that a loop of dispatches does not
  // allocate and fault in fresh stacks each time.
  static std::vector<std::unique_ptr<char[]>> &stackPool() {
    static thread_local std::vector<std::unique_ptr<char[]>> pool;
    return pool;
  }

  static void fiberEntry(int item) {
    WorkGroupRunner &self = *starting_;
    Fiber &f = self.fibers_[static_cast<std::size_t>(item)];
#ifdef FERRY_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, &self.mainStackBottom_,
                                    &self.mainStackSize_);
#endif
    try {
      self.runItem_(self.closure_, static_cast<std::size_t>(item));
    } catch (...) {
      f.error = std::current_exception();
    }
    f.state = Fiber::Done;
#ifdef FERRY_ASAN_FIBERS
    __sanitizer_start_switch_fiber(nullptr, self.mainStackBottom_,
                                   self.mainStackSize_);
#endif
    // Returning resumes uc_link (ucontext) or stackEntry's switch back.
  }

  void resume(std::size_t i) {
    Fiber &f = fibers_[i];
    if (f.state == Fiber::Done)
      return;
    current_ = i;
    onFiber_ = true;
    starting_ = this;
#ifdef FERRY_ASAN_FIBERS
    void *fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, f.stack.get(), stackBytes);
#endif
#if FERRY_STACK_SWITCH
    ferry_switch_stack(&mainSp_, f.sp);
#else
    swapcontext(&main_, &f.context);
#endif
#ifdef FERRY_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    onFiber_ = false;
  }

  void switchToMain(Fiber &f) {
#ifdef FERRY_ASAN_FIBERS
    __sanitizer_start_switch_fiber(&f.fakeStack, mainStackBottom_,
                                   mainStackSize_);
#endif
#if FERRY_STACK_SWITCH
    ferry_switch_stack(&f.sp, mainSp_);
#else
    swapcontext(&f.context, &main_);
#endif
#ifdef FERRY_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(f.fakeStack, &mainStackBottom_,
                                    &mainStackSize_);
#endif
  }

  static void rethrow(Fiber &f) {
    if (f.error) {
      std::exception_ptr e = f.error;
      f.error = nullptr;
      std::rethrow_exception(e);
    }
  }

  static inline thread_local WorkGroupRunner *starting_ = nullptr;
  std::vector<Fiber> fibers_;
#if FERRY_STACK_SWITCH
  void *mainSp_ = nullptr;
#else
  ucontext_t main_;
#endif
  bool onFiber_ = false;
#ifdef FERRY_ASAN_FIBERS
  const void *mainStackBottom_ = nullptr;
  std::size_t mainStackSize_ = 0;
#endif
#else
  // Without fibers a group runs as plain calls, and a barrier is an error.
  bool runFirstOnFiber() {
    current_ = 0;
    runItem_(closure_, 0);
    return false;
  }
  void runRestOnFibers() {}
  static constexpr bool onFiber_ = false;
#endif

  std::size_t items_;
  RunItem runItem_;
  void *closure_;
  std::size_t current_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::size_t> itemDepth_;
};

inline void workGroupBarrier() {
  WorkGroupRunner *r = WorkGroupRunner::active();
  if (!r)
    throw Error("kc.barrier() needs work-groups: dispatch the kernel with "
                "ferry::Range(...).local(...)");
  r->barrier();
}

template <class T> struct NonDeduced {
  using type = T;
};

template <class T> constexpr void checkAtomicElement() {
  static_assert(std::is_same<T, int>::value ||
                    std::is_same<T, unsigned>::value,
                "ferry atomics take int or unsigned elements (the atomics "
                "OpenCL C 1.2 has)");
}

// atomicAdd and atomicSub also take float and double (an extension): the
// device builds them on compare-and-swap of the element's bits.
template <class T> constexpr void checkAtomicAddElement() {
  static_assert(std::is_same<T, int>::value ||
                    std::is_same<T, unsigned>::value ||
                    std::is_same<T, float>::value ||
                    std::is_same<T, double>::value,
                "ferry::atomicAdd and atomicSub take int, unsigned, float or "
                "double elements");
}

} // namespace detail

template <class T, int N> struct Vec; // vectors.hpp

namespace detail {
template <class T> struct isVector : std::false_type {};
template <class T, int N> struct isVector<Vec<T, N>> : std::true_type {};
} // namespace detail

// An array of N elements shared by the work-items of a group (OpenCL's
// __local memory), declared in a kernel or a function it calls.
template <class T, std::size_t N> class Local {
  // Its storage is the runner's, never constructed: T's objects begin their
  // lives in it as an int's would. A vector type (`ferry::float4`, whose
  // constructor zeroes it) qualifies as a plain struct does: as on the
  // device, what a kernel reads from local memory is what it wrote there.
  static_assert(std::is_trivially_copyable<T>::value &&
                    std::is_trivially_destructible<T>::value &&
                    (std::is_trivially_default_constructible<T>::value ||
                     detail::isVector<T>::value),
                "a ferry::Local holds arithmetic values, vectors or plain "
                "structs");
  static_assert(N > 0, "a ferry::Local has at least one element");

public:
  Local() {
    detail::WorkGroupRunner *r = detail::WorkGroupRunner::active();
    if (!r)
      throw Error("ferry::Local needs work-groups: dispatch the kernel with "
                  "ferry::Range(...).local(...)");
    data_ = static_cast<T *>(r->acquireLocal(sizeof(T) * N));
  }
  ~Local() {
    if (detail::WorkGroupRunner *r = detail::WorkGroupRunner::active())
      r->releaseLocal();
  }
  Local(const Local &) = delete;
  Local &operator=(const Local &) = delete;

  T &operator[](std::size_t i) { return data_[i]; }
  const T &operator[](std::size_t i) const { return data_[i]; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  static constexpr std::size_t size() { return N; }

private:
  T *data_ = nullptr;
};

// Local memory whose size the dispatch chooses: a kernel parameter bound by
// the dispatch argument ferry::localSpan<T>(count).
template <class T> class LocalSpan {
public:
  LocalSpan() = default;
  LocalSpan(T *data, std::size_t count) : data_(data), size_(count) {}
  T &operator[](std::size_t i) const { return data_[i]; }
  T *data() const { return data_; }
  std::size_t size() const { return size_; }

private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

// A dispatch argument: `count` elements of local memory for a LocalSpan<T>
// parameter of the kernel.
template <class T> struct LocalSpanArg {
  using Element = T;
  static_assert(std::is_trivially_copyable<T>::value &&
                    std::is_trivially_default_constructible<T>::value,
                "local memory holds arithmetic values or plain structs");
  std::size_t count;
};
template <class T> LocalSpanArg<T> localSpan(std::size_t count) {
  return LocalSpanArg<T>{count};
}

// Atomics on an int or unsigned element of a buffer or of local memory
// (`&buf[i]`, `&tile[i]`); atomicAdd and atomicSub on float and double too
// (an extension). Each returns the value the element held before.
// Plain reads and writes suffice on the host: see the top of this file.
template <class T> T atomicAdd(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicAddElement<T>();
  const T old = *p;
  *p = static_cast<T>(old + v);
  return old;
}
template <class T> T atomicSub(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicAddElement<T>();
  const T old = *p;
  *p = static_cast<T>(old - v);
  return old;
}
template <class T> T atomicMin(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = v < old ? v : old;
  return old;
}
template <class T> T atomicMax(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = v > old ? v : old;
  return old;
}
template <class T> T atomicAnd(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = old & v;
  return old;
}
template <class T> T atomicOr(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = old | v;
  return old;
}
template <class T> T atomicXor(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = old ^ v;
  return old;
}
template <class T>
T atomicExchange(T *p, typename detail::NonDeduced<T>::type v) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  *p = v;
  return old;
}
template <class T>
T atomicCompareExchange(T *p, typename detail::NonDeduced<T>::type expected,
                        typename detail::NonDeduced<T>::type desired) {
  detail::checkAtomicElement<T>();
  const T old = *p;
  if (old == expected)
    *p = desired;
  return old;
}

// Native math (an extension, issue 31): OpenCL C's native_ functions on
// float, which trade accuracy (implementation-defined, often a few ulp) for
// speed where a kernel can afford it. In the reference execution each is the
// <cmath> function it approximates.
namespace native {
inline float sqrt(float x) { return std::sqrt(x); }
inline float rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline float exp(float x) { return std::exp(x); }
inline float exp2(float x) { return std::exp2(x); }
inline float exp10(float x) { return std::pow(10.0f, x); }
inline float log(float x) { return std::log(x); }
inline float log2(float x) { return std::log2(x); }
inline float log10(float x) { return std::log10(x); }
inline float sin(float x) { return std::sin(x); }
inline float cos(float x) { return std::cos(x); }
inline float tan(float x) { return std::tan(x); }
inline float powr(float x, float y) { return std::pow(x, y); }
inline float divide(float x, float y) { return x / y; }
inline float recip(float x) { return 1.0f / x; }
} // namespace native

} // namespace ferry
