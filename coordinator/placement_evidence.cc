#include "coordinator/placement_evidence.h"

namespace azbench {

std::string_view PlacementName(Placement placement) {
  switch (placement) {
    case Placement::kSameAz:
      return "same-az";
    case Placement::kCrossAz:
      return "cross-az";
    case Placement::kUnknown:
      break;
  }
  return "unknown";
}

std::optional<Placement> ParsePlacement(std::string_view name) {
  for (Placement p : {Placement::kSameAz, Placement::kCrossAz, Placement::kUnknown}) {
    if (PlacementName(p) == name) return p;
  }
  return std::nullopt;
}

}  // namespace azbench
