// A run's event journal: between the runner's events (agent/server/journal_sink.h turns them into
// azbench.v1 RunEvents) and the gRPC stream that carries them (Run, or Attach after a break). It
// numbers the events (RunEvent.seq: 1, 2, 3 ...), writes each to the attached stream, and keeps
//   - the most recent events written, up to RunJournalConfig::ring_bytes, so the ones still in
//     flight when a stream broke can be sent again (however many events wait unsent behind them);
//   - every event appended while no stream is attached, up to detached_bytes (past it the journal
//     gives up: the lease is lost, as without a journal).
// When the attached stream breaks, the run goes on for `grace`: Append and Alive answer true and
// the events are kept; an Attach within the grace replays every event after the last one the
// coordinator received and continues live. Without one, Alive (polled by the runner) and Append
// answer false: the runner cancels the run and removes its files. A finished run's journal stays
// for `grace` after RunFinished (RunJournals forgets it then), so a coordinator that lost the
// stream on the last events can still collect them.
//
// Threads: Append and Alive come from the runner (serialised by it); Attach, Serve and Detach from
// gRPC handler threads. Writes happen under the journal's lock, so a replay and the live events
// never interleave; a new Attach that can be served first cancels the stream it replaces
// (ServerContext::TryCancel), so a write blocked on a dead connection does not hold it up.
//
//   RunJournal journal("run-1", config);
//   uint64_t id = *journal.Attach(&writer, /*after_seq=*/0);  // the Run stream
//   journal.Append(event);                                   // the runner, via JournalSink
//   journal.Detach(id);                                      // before the writer goes away
#ifndef AZBENCH_AGENT_SERVER_RUN_JOURNAL_H_
#define AZBENCH_AGENT_SERVER_RUN_JOURNAL_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "azbench/v1/agent.pb.h"

namespace azbench {

struct RunJournalConfig {
  // Events already written kept for a replay (the newest ones; at least the last is always kept).
  // Events not written yet do not count against it.
  uint64_t ring_bytes = 64ULL << 20;
  // Events appended and not yet written (no stream attached); past this the lease is lost.
  uint64_t detached_bytes = 256ULL << 20;
  // How long a run whose stream broke waits for an Attach, and a finished run stays attachable.
  absl::Duration grace = absl::Seconds(30);
  // How often RunJournals looks for journals to forget; 0 = no thread (call Reap).
  absl::Duration reap_interval = absl::Seconds(1);
  // The monotonic clock; empty = MonotonicNanos (tests substitute their own).
  std::function<uint64_t()> now_ns;
};

// One stream the journal writes to: a gRPC ServerWriter and its context (agent/server/service.cc),
// or a test's recorder.
class JournalWriter {
 public:
  virtual ~JournalWriter() = default;
  virtual bool Write(const v1::RunEvent& event) = 0;  // false: the stream broke
  virtual bool Cancelled() = 0;                       // the peer went away
  virtual void Cancel() = 0;                          // ends the stream (replaced by an Attach)
};

class RunJournal {
 public:
  RunJournal(std::string run_id, RunJournalConfig config);

  // The runner's side. Numbers `event`, keeps it and writes it to the attached stream. false once
  // the lease is lost (no Attach within the grace, or too much kept while detached).
  bool Append(v1::RunEvent event);
  // Polled by the runner: notices a stream whose peer went away, and a grace that ended.
  bool Alive();

  // Attaches `writer` (replacing the stream attached, which is cancelled once the request passed
  // the checks below: an Attach means the coordinator no longer reads it) and writes to it every
  // event after `after_seq`. Returns the attachment's id for Wait / Detach. Errors: NotFound (the
  // lease was lost), DataLoss (events after after_seq are gone; names the oldest kept),
  // InvalidArgument (after_seq past the last event), Cancelled (`writer` was already cancelled);
  // none of them touches the stream attached.
  absl::StatusOr<uint64_t> Attach(JournalWriter* writer, uint64_t after_seq);
  // Blocks until attachment `id` ended: RunFinished written to it (OK), replaced by another Attach
  // (Aborted), its stream broke (Unavailable), the lease lost (Cancelled). Detaches it.
  absl::Status Wait(uint64_t id);
  // Stops writing to attachment `id` (if it is still attached); true when RunFinished was written
  // to it. After it returns, the journal no longer touches its writer.
  bool Detach(uint64_t id);

  // The outcome the appended RunFinished carries (RunFinished.outcome: Runner::Run's status; the
  // Run handler appends RunFinished only once the runner returned it). An Attach stream that
  // carried RunFinished, or found the coordinator already had it, ends with it too, as the Run
  // stream does (for a coordinator that reads the outcome from the stream's status). OK until then.
  absl::Status outcome();

  // RunJournals' view.
  bool finished();
  // RunFinished was written to a stream (the coordinator should have it).
  bool end_written();
  bool lease_lost();
  bool attached();
  uint64_t attachments();  // streams attached so far (the Run stream is the first)
  uint64_t last_seq();
  // Finished more than `grace` ago, or the lease lost; and no stream attached.
  bool Forgettable();

 private:
  struct Kept {
    v1::RunEvent event;
    uint64_t bytes = 0;
  };
  uint64_t Now() const;
  uint64_t GraceNs() const {
    return static_cast<uint64_t>(absl::ToInt64Nanoseconds(config_.grace));
  }
  // Records that the attached stream is gone (at most once per attachment).
  void DetachLocked(absl::Status why) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Checks the grace and the detached bound; clears the events when the lease is lost.
  bool CheckLeaseLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EvictLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool WriteLocked(const v1::RunEvent& event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Whether an Attach after `after_seq` can be served, given the journal's state.
  absl::Status CheckAttach(uint64_t after_seq, bool lease_lost, uint64_t last_seq,
                           uint64_t oldest_kept_seq) const;
  // Copies the state CheckAttach reads into the atomics below.
  void PublishLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string run_id_;
  const RunJournalConfig config_;
  absl::Mutex mu_;
  std::deque<Kept> kept_ ABSL_GUARDED_BY(mu_);
  uint64_t kept_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t unsent_bytes_ ABSL_GUARDED_BY(mu_) = 0;  // kept events after last_written_seq_
  uint64_t last_seq_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t last_written_seq_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t detached_since_ns_ ABSL_GUARDED_BY(mu_) = 0;  // 0: attached, or never yet
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool end_written_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t finished_at_ns_ ABSL_GUARDED_BY(mu_) = 0;
  bool lease_lost_ ABSL_GUARDED_BY(mu_) = false;
  absl::Status outcome_ ABSL_GUARDED_BY(mu_);
  // What an Attach checks before it cancels the stream attached, readable while a write blocked on
  // a dead connection holds mu_. Each only grows (lease_lost: false to true), so a stale value
  // never refuses an Attach that the checks under mu_ would accept.
  std::atomic<bool> published_lease_lost_{false};
  std::atomic<uint64_t> published_last_seq_{0};
  std::atomic<uint64_t> published_oldest_seq_{1};
  // The attached stream (id 0: none). Its end status, per id, until Wait or Detach takes it.
  uint64_t attached_id_ ABSL_GUARDED_BY(mu_) = 0;
  JournalWriter* attached_ ABSL_GUARDED_BY(mu_) = nullptr;
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<uint64_t, absl::Status> ended_ ABSL_GUARDED_BY(mu_);
  // The attached writer again, under its own lock, so a new Attach can cancel it while a write to
  // it holds mu_.
  absl::Mutex cancel_mu_ ABSL_ACQUIRED_AFTER(mu_);
  JournalWriter* cancellable_ ABSL_GUARDED_BY(cancel_mu_) = nullptr;
};

// The journals of the runs this agent streams, by run id; forgets finished ones after their grace
// (a background thread) and on Cleanup. A run that finished while no stream carried its end, and
// whose grace passed without an Attach, is handed to `abandoned` when forgotten (the service
// removes its files then, as for a lease lost while running).
class RunJournals {
 public:
  explicit RunJournals(RunJournalConfig config = {},
                       std::function<void(const std::string& run_id)> abandoned = nullptr);
  ~RunJournals();
  const RunJournalConfig& config() const { return config_; }
  // A new journal for a Run, with the Run's own stream `first` attached before any Attach can
  // find the journal (an Attach then always replaces the Run stream, never the other way round).
  // FailedPrecondition when the run already has one (it has run).
  struct Started {
    std::shared_ptr<RunJournal> journal;
    uint64_t attachment = 0;  // `first`'s, for Detach
  };
  absl::StatusOr<Started> Start(const std::string& run_id, JournalWriter* first);
  // NotFound when the run has no journal (unknown, or its grace is over).
  absl::StatusOr<std::shared_ptr<RunJournal>> Find(const std::string& run_id);
  void Forget(const std::string& run_id);
  std::vector<std::string> run_ids();
  // Forgets every forgettable journal; returns how many. The background thread calls it.
  int Reap();
  size_t size();

 private:
  const RunJournalConfig config_;
  const std::function<void(const std::string&)> abandoned_;
  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<RunJournal>> journals_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread reaper_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_RUN_JOURNAL_H_
