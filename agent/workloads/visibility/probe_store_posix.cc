// The POSIX ProbeStore of probe_store.h: a mounted directory held open as a ProbeDir.
#include <unistd.h>

#include <optional>
#include <utility>
#include <vector>

#include "agent/workloads/visibility/probe_store.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

class PosixProbeStore final : public ProbeStore {
 public:
  explicit PosixProbeStore(ProbeDir dir) : dir_(std::move(dir)) {}
  explicit PosixProbeStore(PendingProbeDir pending) : pending_(std::move(pending)) {}
  ~PosixProbeStore() override { CloseHeld(); }

  absl::StatusOr<absl::Time> Write(const std::string& name, uint64_t sequence,
                                   const ProbeWriteOptions& options, ProbeClock& clock) override {
    if (!dir_.has_value()) return absl::FailedPreconditionError("probe directory not open");
    int fd = -1;
    absl::StatusOr<absl::Time> written = WriteProbeFile(*dir_, name, sequence, options, clock, &fd);
    if (fd >= 0) held_fds_.push_back(fd);
    return written;
  }

  absl::StatusOr<bool> Visible(const std::string& name, uint64_t sequence, size_t size_bytes,
                               VisibilityReadMethod method) override {
    if (!dir_.has_value()) {  // not there yet: not visible yet
      ASSIGN_OR_RETURN(std::optional<ProbeDir> found, pending_.Find());
      if (!found.has_value()) return false;
      dir_ = *std::move(found);
    }
    return CheckProbeVisible(*dir_, name, sequence, size_bytes, method);
  }

  bool HoldsOpen() const override { return !held_fds_.empty(); }
  void CloseHeld() override {
    for (int fd : held_fds_) close(fd);
    held_fds_.clear();
  }

  absl::Status Unlink(const std::string& name) override {
    if (!dir_.has_value()) return absl::OkStatus();
    return dir_->Unlink(name);
  }

 private:
  std::optional<ProbeDir> dir_;
  PendingProbeDir pending_;
  std::vector<int> held_fds_;
};

}  // namespace

std::unique_ptr<ProbeStore> MakePosixProbeStore(ProbeDir dir) {
  return std::make_unique<PosixProbeStore>(std::move(dir));
}

std::unique_ptr<ProbeStore> MakePendingPosixProbeStore(PendingProbeDir pending) {
  if (pending.rest.empty()) return MakePosixProbeStore(pending.ancestor);
  return std::make_unique<PosixProbeStore>(std::move(pending));
}

}  // namespace azbench
