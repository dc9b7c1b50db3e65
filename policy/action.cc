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
  }
  return "?";
}

}  // namespace snare::policy
