// The transfer policy: FERRY_POLICY, read once.
#include "Internal.hpp"

#include <cstdlib>

namespace ferry {
namespace detail {

Policy activePolicy() {
  PolicyState &state = policyState();
  if (!state.resolved) {
    const char *value = std::getenv("FERRY_POLICY");
    Policy p = Policy::Planned;
    if (!parsePolicy(value, p))
      throw Error(std::string("FERRY_POLICY: unknown value '") + value +
                  "' (accepted values: planned, kernel, naive, whole)");
    state.policy = p;
    state.resolved = true;
  }
  return state.policy;
}

} // namespace detail
} // namespace ferry
