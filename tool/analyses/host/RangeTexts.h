#pragma once
// Range texts: the C++ texts an element range is written in (ElementRange's
// First and Count), with their values when constant and how tightly they
// bind, and the arithmetic on them that folds constants and parenthesises
// as needed.

#include <map>
#include <optional>
#include <string>

namespace ferry {

/// A text of a range, with its value when it is a constant, and how tightly
/// it binds (whether it needs parentheses inside a sum).
struct RangeText {
  enum Binding { Low, Additive, Multiplicative, Primary };
  std::string Text;
  std::optional<long long> Const;
  Binding Binds = Primary;

  static RangeText constant(long long V);
};

/// `A + B`, `A - B`, folding constants and parenthesising as needed.
std::optional<RangeText> plusText(const RangeText &A, const RangeText &B);
std::optional<RangeText> minusText(const RangeText &A, const RangeText &B);
/// How many times `for (k = Lo; k < Hi; ++k)` runs: `ferry::tripCount(Lo,
/// Hi)`, or the number when both are constants.
RangeText tripCountText(const RangeText &Lo, const RangeText &Hi);

/// Replaces each identifier of a range's Text that Names maps (a helper's
/// parameter) by its mapping (the call's argument); false when another
/// identifier would stay, other than `ferry::tripCount`, `sizeof` and a
/// member after `.` or `->`: it would mean something else where the text
/// goes.
bool substituteNames(std::string &Text,
                     const std::map<std::string, std::string> &Names);

} // namespace ferry
