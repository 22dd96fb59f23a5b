#include "agent/server/run_journal.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/host/logging.h"
#include "common/clock.h"
#include "common/proto_convert.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

// What a kept event costs besides its encoding (the deque entry, the message object).
constexpr uint64_t kKeptOverheadBytes = 64;

}  // namespace

RunJournal::RunJournal(std::string run_id, RunJournalConfig config)
    : run_id_(std::move(run_id)), config_(std::move(config)) {}

uint64_t RunJournal::Now() const { return config_.now_ns ? config_.now_ns() : MonotonicNanos(); }

bool RunJournal::Append(v1::RunEvent event) {
  absl::MutexLock lock(&mu_);
  if (!CheckLeaseLocked()) return false;
  event.set_seq(++last_seq_);
  const uint64_t bytes = event.ByteSizeLong() + kKeptOverheadBytes;
  if (event.has_finished()) {
    finished_ = true;
    finished_at_ns_ = Now();
    outcome_ = RunOutcomeFromProto(event.finished().outcome());
  }
  kept_.push_back({std::move(event), bytes});
  kept_bytes_ += bytes;
  unsent_bytes_ += bytes;
  PublishLocked();
  if (attached_ != nullptr && WriteLocked(kept_.back().event) && finished_) {
    DetachLocked(absl::OkStatus());  // RunFinished written: this stream is complete
  }
  if (!CheckLeaseLocked()) return false;
  EvictLocked();
  return true;
}

bool RunJournal::Alive() {
  absl::MutexLock lock(&mu_);
  if (attached_ != nullptr && attached_->Cancelled()) {
    DetachLocked(absl::UnavailableError("the stream was cancelled (the coordinator went away)"));
  }
  return CheckLeaseLocked();
}

bool RunJournal::CheckLeaseLocked() {
  if (lease_lost_) return false;
  // Attached, finished, or not attached yet (the Run handler attaches before the run starts).
  if (attached_ != nullptr || finished_ || detached_since_ns_ == 0) return true;
  std::string why;
  if (Now() - detached_since_ns_ >= GraceNs()) {
    why = absl::StrCat("no Attach within the reattach grace (",
                       absl::ToInt64Milliseconds(config_.grace), " ms) after the stream broke");
  } else if (unsent_bytes_ > config_.detached_bytes) {
    why = absl::StrCat("more than ", config_.detached_bytes, " bytes of events kept unsent");
  } else {
    return true;
  }
  AgentLogger("rpc")->warn("run {}: lease lost: {} (after seq {})", run_id_, why, last_seq_);
  lease_lost_ = true;
  kept_.clear();
  kept_bytes_ = unsent_bytes_ = 0;
  PublishLocked();
  return false;
}

void RunJournal::PublishLocked() {
  published_lease_lost_.store(lease_lost_);
  published_last_seq_.store(last_seq_);
  published_oldest_seq_.store(kept_.empty() ? last_seq_ + 1 : kept_.front().event.seq());
}

void RunJournal::EvictLocked() {
  // The ring bounds the events already written (a replay after a break needs them); the unsent
  // ones are bounded by detached_bytes alone (CheckLeaseLocked). The last written one always stays.
  while (!kept_.empty() && kept_.front().event.seq() < last_written_seq_ &&
         kept_bytes_ - unsent_bytes_ > config_.ring_bytes) {
    kept_bytes_ -= kept_.front().bytes;
    kept_.pop_front();
  }
  PublishLocked();
}

bool RunJournal::WriteLocked(const v1::RunEvent& event) {
  if (attached_->Cancelled() || !attached_->Write(event)) {
    DetachLocked(absl::UnavailableError("a write failed (the stream broke)"));
    return false;
  }
  if (event.has_finished()) end_written_ = true;
  if (event.seq() > last_written_seq_) {
    // Writes go in seq order: every kept event up to this one has been written now (normally just
    // this one; kept_ holds consecutive seqs).
    const uint64_t front_seq = kept_.front().event.seq();
    for (uint64_t seq = std::max(last_written_seq_ + 1, front_seq); seq <= event.seq(); ++seq) {
      unsent_bytes_ -= kept_[seq - front_seq].bytes;
    }
    last_written_seq_ = event.seq();
  }
  return true;
}

void RunJournal::DetachLocked(absl::Status why) {
  if (attached_ == nullptr) return;
  if (!why.ok()) {
    AgentLogger("rpc")->warn("run {}: stream {} detached after seq {}: {}", run_id_, attached_id_,
                             last_written_seq_, std::string(why.message()));
  }
  ended_[attached_id_] = std::move(why);
  attached_ = nullptr;
  attached_id_ = 0;
  detached_since_ns_ = Now();
  absl::MutexLock lock(&cancel_mu_);
  cancellable_ = nullptr;
}

absl::Status RunJournal::CheckAttach(uint64_t after_seq, bool lease_lost, uint64_t last_seq,
                                     uint64_t oldest_kept_seq) const {
  if (lease_lost) {
    return absl::NotFoundError(absl::StrCat("run '", run_id_,
                                            "': its lease was lost (no Attach within the grace); "
                                            "the run was cancelled and its files removed"));
  }
  if (after_seq > last_seq) {
    return absl::InvalidArgumentError(absl::StrCat("run '", run_id_, "': after_seq ", after_seq,
                                                   " is past the last event (", last_seq, ")"));
  }
  if (after_seq + 1 < oldest_kept_seq) {
    return absl::DataLossError(absl::StrCat("run '", run_id_, "': the events after seq ", after_seq,
                                            " are no longer kept; the oldest kept is seq ",
                                            oldest_kept_seq));
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> RunJournal::Attach(JournalWriter* writer, uint64_t after_seq) {
  // A request that cannot be served leaves the stream attached alone. `writer` is an Attach's
  // stream, or the Run's own (RunJournals::Start).
  if (writer->Cancelled()) {
    return absl::CancelledError(
        absl::StrCat("run '", run_id_,
                     "': the stream was cancelled (its caller went away) before it was attached"));
  }
  RETURN_IF_ERROR(CheckAttach(after_seq, published_lease_lost_.load(), published_last_seq_.load(),
                              published_oldest_seq_.load()));
  {
    // A write to the stream being replaced may be blocked on a dead connection holding mu_.
    absl::MutexLock lock(&cancel_mu_);
    if (cancellable_ != nullptr) cancellable_->Cancel();
  }
  absl::MutexLock lock(&mu_);
  const bool alive = CheckLeaseLocked();
  RETURN_IF_ERROR(CheckAttach(after_seq, !alive, last_seq_,
                              kept_.empty() ? last_seq_ + 1 : kept_.front().event.seq()));
  DetachLocked(absl::AbortedError("replaced by a newer Attach"));
  const uint64_t id = ++next_id_;
  attached_ = writer;
  attached_id_ = id;
  detached_since_ns_ = 0;
  {
    absl::MutexLock cancel_lock(&cancel_mu_);
    cancellable_ = writer;
  }
  AgentLogger("rpc")->info("run {}: stream {} attached after seq {} (last {})", run_id_, id,
                           after_seq, last_seq_);
  for (const Kept& kept : kept_) {
    if (kept.event.seq() <= after_seq) continue;
    if (!WriteLocked(kept.event)) break;  // detached: Wait answers Unavailable
    if (kept.event.has_finished()) DetachLocked(absl::OkStatus());
  }
  // A finished run whose RunFinished the coordinator already has: nothing more will come.
  if (finished_ && attached_id_ == id) DetachLocked(absl::OkStatus());
  EvictLocked();
  return id;
}

absl::Status RunJournal::Wait(uint64_t id) {
  absl::MutexLock lock(&mu_);
  auto ended = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return ended_.count(id) > 0; };
  while (!ended()) {
    if (attached_id_ == id && attached_->Cancelled()) {
      DetachLocked(absl::UnavailableError("the stream was cancelled (the coordinator went away)"));
      break;
    }
    mu_.AwaitWithTimeout(absl::Condition(&ended), absl::Milliseconds(50));
  }
  absl::Status status = std::move(ended_[id]);
  ended_.erase(id);
  return status;
}

bool RunJournal::Detach(uint64_t id) {
  absl::MutexLock lock(&mu_);
  if (attached_id_ == id) DetachLocked(absl::CancelledError("detached"));
  auto it = ended_.find(id);
  const bool complete = it != ended_.end() && it->second.ok();
  if (it != ended_.end()) ended_.erase(it);
  return complete;
}

absl::Status RunJournal::outcome() {
  absl::MutexLock lock(&mu_);
  return outcome_;
}

bool RunJournal::finished() {
  absl::MutexLock lock(&mu_);
  return finished_;
}

bool RunJournal::attached() {
  absl::MutexLock lock(&mu_);
  return attached_ != nullptr;
}

uint64_t RunJournal::attachments() {
  absl::MutexLock lock(&mu_);
  return next_id_;
}

bool RunJournal::end_written() {
  absl::MutexLock lock(&mu_);
  return end_written_;
}

bool RunJournal::lease_lost() {
  absl::MutexLock lock(&mu_);
  return lease_lost_;
}

uint64_t RunJournal::last_seq() {
  absl::MutexLock lock(&mu_);
  return last_seq_;
}

bool RunJournal::Forgettable() {
  absl::MutexLock lock(&mu_);
  if (attached_ != nullptr) return false;
  return lease_lost_ || (finished_ && Now() - finished_at_ns_ >= GraceNs());
}

RunJournals::RunJournals(RunJournalConfig config,
                         std::function<void(const std::string& run_id)> abandoned)
    : config_(std::move(config)), abandoned_(std::move(abandoned)) {
  if (config_.reap_interval > absl::ZeroDuration()) {
    reaper_ = std::thread([this] {
      const absl::Duration tick = config_.reap_interval;
      while (true) {
        {
          absl::MutexLock lock(&mu_);
          if (mu_.AwaitWithTimeout(absl::Condition(&stopping_), tick)) return;
        }
        Reap();
      }
    });
  }
}

RunJournals::~RunJournals() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (reaper_.joinable()) reaper_.join();
}

absl::StatusOr<RunJournals::Started> RunJournals::Start(const std::string& run_id,
                                                        JournalWriter* first) {
  absl::MutexLock lock(&mu_);
  if (journals_.count(run_id) > 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("run '", run_id, "' has already run (or runs); Attach to follow it"));
  }
  Started started{std::make_shared<RunJournal>(run_id, config_)};
  // Attached before the journal is published: an Attach that came between the two would have
  // been replaced (cancelled) by the Run stream it was meant to replace.
  absl::StatusOr<uint64_t> attachment = started.journal->Attach(first, 0);
  if (!attachment.ok()) return attachment.status();
  started.attachment = *attachment;
  journals_[run_id] = started.journal;
  return started;
}

absl::StatusOr<std::shared_ptr<RunJournal>> RunJournals::Find(const std::string& run_id) {
  absl::MutexLock lock(&mu_);
  auto it = journals_.find(run_id);
  if (it == journals_.end()) {
    return absl::NotFoundError(absl::StrCat(
        "run '", run_id,
        "' has no event journal on this agent (never run, cleaned up, or its reattach grace "
        "ended)"));
  }
  return it->second;
}

void RunJournals::Forget(const std::string& run_id) {
  absl::MutexLock lock(&mu_);
  journals_.erase(run_id);
}

std::vector<std::string> RunJournals::run_ids() {
  absl::MutexLock lock(&mu_);
  std::vector<std::string> ids;
  for (const auto& [id, journal] : journals_) ids.push_back(id);
  return ids;
}

int RunJournals::Reap() {
  std::vector<std::pair<std::string, std::shared_ptr<RunJournal>>> all;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, journal] : journals_) all.emplace_back(id, journal);
  }
  std::vector<std::string> abandoned;
  int n = 0;
  for (const auto& [id, journal] : all) {
    if (!journal->Forgettable()) continue;
    {
      absl::MutexLock lock(&mu_);
      auto it = journals_.find(id);
      if (it == journals_.end() || it->second != journal) continue;
      journals_.erase(it);
    }
    ++n;
    if (journal->finished() && !journal->end_written()) abandoned.push_back(id);
  }
  for (const std::string& id : abandoned) {
    AgentLogger("rpc")->warn(
        "run {}: finished, but no coordinator collected its end within the reattach grace", id);
    if (abandoned_) abandoned_(id);
  }
  return n;
}

size_t RunJournals::size() {
  absl::MutexLock lock(&mu_);
  return journals_.size();
}

}  // namespace azbench
