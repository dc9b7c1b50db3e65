#include "policy/action.h"

namespace snare::policy {

const char* ActionName(Action action) {
  switch (action) {
    case Action::kPassthrough:
      return "passthrough";
    case Action::kBroker:
      return "broker";
    case Action::kDeny:
      return "deny";
    case Action::kKill:
      return "kill";
    case Action::kNotify:
      return "notify";
    case Action::kTrap:
      return "trap";
  }
  return "?";
}

}  // namespace snare::policy
