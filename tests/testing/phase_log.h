// TEST ONLY: how late a phase started, read from the warning a phased metadata job gives when a
// barrier's release reached it after the instant it names (agent/workloads/metadata/metadata.cc):
// "phase stat started 312.4ms after the instant every agent was given: ...".
//
//   const absl::StatusOr<absl::Duration> late = testing::PhaseStartedLateBy(warning, "stat");
//   ASSERT_TRUE(late.ok()) << late.status();
//   EXPECT_GE(*late, absl::Milliseconds(300));
#ifndef AZBENCH_TESTS_TESTING_PHASE_LOG_H_
#define AZBENCH_TESTS_TESTING_PHASE_LOG_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/units.h"

namespace azbench::testing {

// The duration after "phase <phase> started " in `warning`. Errors: NotFound (quoting the warning)
// when the warning does not say that of `phase`, ParseDuration's InvalidArgument when what follows
// is not a duration.
inline absl::StatusOr<absl::Duration> PhaseStartedLateBy(std::string_view warning,
                                                         std::string_view phase) {
  const std::string prefix = "phase " + std::string(phase) + " started ";
  const size_t at = warning.find(prefix);
  if (at == std::string_view::npos) {
    return absl::NotFoundError("no '" + prefix + "' in '" + std::string(warning) + "'");
  }
  const size_t from = at + prefix.size();
  const size_t end = warning.find(' ', from);
  return ParseDuration(
      warning.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_PHASE_LOG_H_
