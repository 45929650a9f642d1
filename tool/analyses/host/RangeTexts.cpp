// Range texts (see RangeTexts.h): C++ texts of element offsets and counts,
// folded when constant and parenthesised as they bind.

#include "analyses/host/RangeTexts.h"

#include "analyses/host/ElementRangesInternal.h"

#include <cctype>
#include <limits>
#include <set>

using namespace clang;

namespace ferry {

// --- texts -------------------------------------------------------------------

RangeText RangeText::constant(long long V) {
  RangeText T;
  T.Text = V < 0 ? "(" + std::to_string(V) + ")" : std::to_string(V);
  T.Const = V;
  return T;
}

namespace element_ranges {

std::string operand(const RangeText &A, bool Right) {
  bool Paren = Right ? A.Binds <= RangeText::Additive
                     : A.Binds < RangeText::Additive;
  return Paren ? "(" + A.Text + ")" : A.Text;
}

std::string primary(const RangeText &A) {
  return A.Binds == RangeText::Primary ? A.Text : "(" + A.Text + ")";
}

} // namespace element_ranges

std::optional<RangeText> plusText(const RangeText &A, const RangeText &B) {
  if (A.Const && B.Const) {
    long long S;
    if (__builtin_add_overflow(*A.Const, *B.Const, &S))
      return std::nullopt;
    return RangeText::constant(S);
  }
  if (B.Const && *B.Const == 0)
    return A;
  if (A.Const && *A.Const == 0)
    return B;
  if (B.Const && *B.Const < 0 && *B.Const != std::numeric_limits<long long>::min())
    return minusText(A, RangeText::constant(-*B.Const));
  RangeText T;
  T.Text = element_ranges::operand(A, false) + " + " + element_ranges::operand(B, true);
  T.Binds = RangeText::Additive;
  return T;
}

std::optional<RangeText> minusText(const RangeText &A, const RangeText &B) {
  if (A.Const && B.Const) {
    long long S;
    if (__builtin_sub_overflow(*A.Const, *B.Const, &S))
      return std::nullopt;
    return RangeText::constant(S);
  }
  if (B.Const && *B.Const == 0)
    return A;
  if (A.Text == B.Text && A.Binds == RangeText::Primary)
    return RangeText::constant(0);
  RangeText T;
  T.Text = element_ranges::operand(A, false) + " - " + element_ranges::operand(B, true);
  T.Binds = RangeText::Additive;
  return T;
}

RangeText tripCountText(const RangeText &Lo, const RangeText &Hi) {
  if (Lo.Const && Hi.Const) {
    long long N;
    if (!__builtin_sub_overflow(*Hi.Const, *Lo.Const, &N))
      return RangeText::constant(N > 0 ? N : 0);
  }
  RangeText T;
  T.Text = "ferry::tripCount(" + Lo.Text + ", " + Hi.Text + ")";
  return T;
}

bool substituteNames(std::string &Text,
                     const std::map<std::string, std::string> &Names) {
  static const std::set<std::string> Kept = {"ferry", "tripCount", "sizeof"};
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    unsigned char C = Text[I];
    if (!(std::isalpha(C) || C == '_')) {
      Out += Text[I++];
      continue;
    }
    size_t J = I;
    while (J < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[J])) || Text[J] == '_'))
      ++J;
    std::string Word = Text.substr(I, J - I);
    bool Member = (!Out.empty() && Out.back() == '.') ||
                  (Out.size() >= 2 && Out.compare(Out.size() - 2, 2, "->") == 0);
    if (auto It = Names.find(Word); It != Names.end() && !Member)
      Out += It->second;
    else if (Member || Kept.count(Word))
      Out += Word;
    else
      return false;
    I = J;
  }
  Text = Out;
  return true;
}

} // namespace ferry
