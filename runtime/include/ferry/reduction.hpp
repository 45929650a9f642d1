// Reductions (an extension; designed against sycl::reduction): a kernel
// parameter of type ferry::Sum<T>, ferry::Min<T> or ferry::Max<T> is bound
// at dispatch to a ferry::Buffer<T>, and every work-item combines values
// into it. When the dispatch is done, element 0 of the buffer holds its
// value before the dispatch combined with every value combined (as
// sycl::reduction does without initialize_to_identity): a sum starts from
// what the buffer held, so the host writes 0 first for a plain sum.
//
//   FERRY_KERNEL void total(ferry::KernelContext kc, const double *a,
//                           ferry::Sum<double> sum) {
//     sum += a[kc.x];
//   }
//   cc.dispatch(total, ferry::Range(n), a, totalBuffer);
//
// On the device each work-item of groups Ferry chooses folds its elements
// privately, each group folds its work-items' values in local memory, and a
// second kernel folds the groups' values into the buffer: no atomics, and
// the order of the operations is not the host's. A kernel with a reduction
// runs without work-groups of its own (no Range::local, kc.barrier(),
// ferry::Local or LocalSpan), and names its reducer only to combine into it
// (`r += v` for a Sum, `r.combine(v)` for any).
//
// This header is included by <ferry/ferry.hpp>; include that instead.
#pragma once

#include <cstddef>
#include <limits>
#include <type_traits>

namespace ferry {

// The operations of a reduction, each with its identity.
template <class T> struct plus {
  static constexpr T identity() { return T(0); }
  constexpr T operator()(T a, T b) const { return a + b; }
};
template <class T> struct minimum {
  static constexpr T identity() { return std::numeric_limits<T>::has_infinity
                                             ? std::numeric_limits<T>::infinity()
                                             : std::numeric_limits<T>::max(); }
  constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct maximum {
  static constexpr T identity() {
    return std::numeric_limits<T>::has_infinity
               ? -std::numeric_limits<T>::infinity()
               : std::numeric_limits<T>::lowest();
  }
  constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};

// What a kernel combines values into. Only the reference execution (and
// FERRY_DEVICE=host) constructs one, from the buffer's element 0, and runs
// the work-items one after another, so combining in place is the reduction.
template <class T, class Op> class Reducer {
  static_assert(std::is_same<T, int>::value ||
                    std::is_same<T, unsigned>::value ||
                    std::is_same<T, float>::value ||
                    std::is_same<T, double>::value,
                "a ferry reduction is over int, unsigned, float or double");

public:
  using Element = T;
  using Operation = Op;
  Reducer(T *target) : target_(target) {}
  void combine(T v) const { *target_ = Op()(*target_, v); }
  template <class O = Op,
            class = std::enable_if_t<std::is_same<O, plus<T>>::value>>
  void operator+=(T v) const {
    combine(v);
  }

private:
  T *target_;
};

template <class T> using Sum = Reducer<T, plus<T>>;
template <class T> using Min = Reducer<T, minimum<T>>;
template <class T> using Max = Reducer<T, maximum<T>>;

namespace detail {

template <class X> struct IsReducer : std::false_type {};
template <class T, class Op>
struct IsReducer<Reducer<T, Op>> : std::true_type {};

// Which parameters of a kernel (after its KernelContext) are reducers, for
// a launch of `count` arguments; none when the kernel is not a plain
// function of that many parameters.
template <class K, std::size_t count> struct ReducerParams {
  static constexpr bool at(std::size_t) { return false; }
  static constexpr bool any = false;
};
template <class R, class C, class... P>
struct ReducerParams<R (*)(C, P...), sizeof...(P)> {
  static constexpr bool at(std::size_t i) {
    constexpr bool is[] = {
        IsReducer<std::remove_cv_t<std::remove_reference_t<P>>>::value...,
        false};
    return is[i];
  }
  static constexpr bool any =
      (false || ... ||
       IsReducer<std::remove_cv_t<std::remove_reference_t<P>>>::value);
};

} // namespace detail
} // namespace ferry
