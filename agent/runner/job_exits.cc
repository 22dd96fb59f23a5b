#include "agent/runner/job_exits.h"

#include <utility>

namespace azbench {

JobExits::JobExits(std::vector<ExitPolicy> policies) : policies_(std::move(policies)) {
  for (const ExitPolicy& policy : policies_) {
    any_exitall_ |= policy.exitall;
    flags_.push_back(std::make_unique<std::atomic<bool>>(false));
  }
}

void JobExits::Started(size_t begin, size_t end) {
  absl::MutexLock lock(&mu_);
  running_begin_ = begin;
  running_end_ = end;
}

void JobExits::CloneEnded(size_t job, bool failed) {
  const ExitPolicy& policy = policies_[job];
  if (!any_exitall_ && !(policy.exitall_on_error && failed)) return;
  switch (policy.what) {
    case ExitWhat::kGroup:
      for (size_t i = 0; i < policies_.size(); ++i) {
        if (policies_[i].group_id == policy.group_id) End(i);
      }
      return;
    case ExitWhat::kStonewall: {
      absl::MutexLock lock(&mu_);
      for (size_t i = running_begin_; i < running_end_; ++i) End(i);
      return;
    }
    case ExitWhat::kAll:
      CancelAll();
      return;
  }
}

void JobExits::CancelAll() {
  for (size_t i = 0; i < flags_.size(); ++i) End(i);
}

}  // namespace azbench
