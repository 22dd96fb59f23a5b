#include "coordinator/scenario.h"

namespace azbench {

const char* ScenarioStatusName(ScenarioStatus status) {
  switch (status) {
    case ScenarioStatus::kComplete:
      return "complete";
    case ScenarioStatus::kPartial:
      return "partial";
    case ScenarioStatus::kFailed:
      return "failed";
    case ScenarioStatus::kSkipped:
      return "skipped";
  }
  return "unknown";
}

}  // namespace azbench
