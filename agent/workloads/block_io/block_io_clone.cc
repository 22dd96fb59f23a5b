#include "agent/workloads/block_io/block_io_clone.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/engines/psync_engine.h"
#include "agent/workloads/block_io/latency_target.h"
#include "agent/workloads/block_io/loop_counter.h"
#include "agent/workloads/block_io/rate_pacer.h"
#include "agent/workloads/block_io/submit_batch.h"
#include "agent/workloads/interval_accumulator.h"
#include "agent/workloads/thread_placement.h"
#include "agent/workloads/verify_dump.h"
#include "common/clock.h"
#include "common/errno_text.h"
#include "common/error_policy.h"
#include "common/thread_cpu.h"
#include "spdlog/spdlog.h"

namespace azbench {

namespace {

constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();
constexpr int kProgressBatchOps = 256;  // clone-local ops between updates of the shared counters
// The longest the shared counters lag a slow clone: steady-state detection turns them into
// per-second rates, where 256 ops held back would be a whole sample at 256 IOPS.
constexpr uint64_t kProgressMaxLagNs = 1'000'000;

// Commits the kernel refuses (EAGAIN) while none of the job's requests are in flight: each is
// retried 1 us later (as fio's libaio engine waits), for at most 30 s (fio's stall limit too).
class SubmitStall {
 public:
  // A commit took nothing at `now_ns` (op clock). Returns false once the kernel has taken nothing
  // for 30 s; otherwise sleeps 1 us and returns true: retry.
  bool SleepBeforeRetry(uint64_t now_ns) {
    if (since_ns_ == 0) {
      since_ns_ = now_ns;
    } else if (now_ns - since_ns_ >= kLimitNs) {
      return false;
    }
    (void)SleepUntilMonotonicOrCancelled(MonotonicNanos() + 1000, nullptr);
    return true;
  }
  // A commit took something: the stall is over.
  void Reset() { since_ns_ = 0; }

 private:
  static constexpr uint64_t kLimitNs = 30'000'000'000ULL;
  uint64_t since_ns_ = 0;
};

// fio's startdelay: the fixed delay, or one drawn from [startdelay, startdelay_high] with the
// clone's seed, so a job file gives the same delays on every run (with randrepeat).
uint64_t StartDelayNanos(const JobSpec& spec, uint64_t seed) {
  const auto low_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.startdelay));
  const auto high_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.startdelay_high));
  if (high_ns <= low_ns) return low_ns;
  Rng rng(seed ^ 0x2545F4914F6CDD1DULL);
  return low_ns + rng.Below(high_ns - low_ns + 1);
}

// The job loop of one clone. Lives on the clone's thread; nothing here is shared but the two
// counters.
class CloneRunner {
 public:
  CloneRunner(const JobSpec& spec, BlockIoJob::Clone& clone, const RunControl& control,
              const OpClockSource& op_clock, uint64_t start_ns, std::atomic<uint64_t>& ops_done,
              std::atomic<uint64_t>& bytes_done, CloneProgress* progress)
      : spec_(spec),
        op_clock_(op_clock),
        clone_(clone),
        control_(control),
        start_ns_(start_ns != 0 ? start_ns : MonotonicNanos()),
        ops_done_(ops_done),
        bytes_done_(bytes_done),
        progress_(progress),
        mix_rng_(clone.seed ^ 0x5bd1e995ULL),
        async_(clone.caps.is_async),
        pacer_(spec, clone.seed) {
    start_ns_ += StartDelayNanos(spec, clone.seed);
    measure_start_ns_ = start_ns_ + static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.ramp_time));
    const int64_t runtime_ns = absl::ToInt64Nanoseconds(spec.runtime);
    end_ns_ = runtime_ns > 0 ? measure_start_ns_ + static_cast<uint64_t>(runtime_ns) : kNoLimit;
    loops_ = LoopCounter(spec.CloneIoSize(clone.index), spec.number_ios,
                         static_cast<uint64_t>(std::max(1, spec.loops)), spec.time_based);
    next_interval_ns_ = measure_start_ns_ + control.interval_ns;
    op_log_window_end_ns_ = measure_start_ns_ + 1'000'000'000ULL;
    think_ns_ = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.thinktime));
    think_spin_ns_ =
        std::min(think_ns_, static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.thinktime_spin)));
    think_iotime_ns_ = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.thinktime_iotime));
    flow_sleep_ns_ = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.flow_sleep));
    // With thinktime_iotime and no thinktime_blocks, fio counts no blocks at all.
    think_blocks_ = spec.thinktime_blocks > 0 ? static_cast<uint64_t>(spec.thinktime_blocks)
                    : think_iotime_ns_ > 0    ? 0
                                              : 1;
    for (int dir = 0; dir < 2; ++dir) {
      check_min_rate_ |= spec.rate_min_bytes_per_s[dir] != 0 || spec.rate_iops_min[dir] != 0;
    }
    // fio lets a job settle for 2 s before its first check, which only takes the baseline.
    next_rate_check_ns_ = measure_start_ns_ + 2'000'000'000ULL;
    rate_cycle_ns_ = static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.rate_cycle));
    switch (spec.rw) {
      case RwPattern::kRead:
      case RwPattern::kRandRead:
        direction_ = Direction::kRead;
        break;
      case RwPattern::kWrite:
      case RwPattern::kRandWrite:
        direction_ = Direction::kWrite;
        break;
      case RwPattern::kTrim:
      case RwPattern::kRandTrim:
        direction_ = Direction::kTrim;
        break;
      case RwPattern::kTrimWrite:
      case RwPattern::kRandTrimWrite:
        direction_ = Direction::kTrimWrite;
        break;
      case RwPattern::kReadWrite:
      case RwPattern::kRandRw:
        direction_ = Direction::kMixed;
    }
    // fsync=N and fdatasync=N both count the writes issued since the last sync: one is due when
    // the smaller of the two that are set is reached.
    for (const int every_n : {spec.fsync_every_n, spec.fdatasync_every_n}) {
      if (every_n > 0 && (sync_every_n_writes_ == 0 || every_n < sync_every_n_writes_)) {
        sync_every_n_writes_ = every_n;
      }
    }
    // fio's log files need every op: their records are not capped by op_log_rate.
    op_log_enabled_ = spec.op_log || spec.fio_logs.Any();
    op_log_capped_ = !spec.fio_logs.Any();
    result_.name = spec.name;
    result_.interval_ns = control.interval_ns;
    result_.continue_on_error = spec.continue_on_error != 0;
    if (DoesRead(spec.rw)) Activate(OpKind::kRead);
    if (DoesWrite(spec.rw)) Activate(OpKind::kWrite);
    if (DoesTrim(spec.rw)) Activate(OpKind::kTrim);
    if (spec.fsync_every_n > 0 || spec.fdatasync_every_n > 0 || spec.end_fsync) {
      Activate(OpKind::kFsync);
    }
    // verify (agent/workloads/verify_block.h). A write job stamps its blocks and, with do_verify
    // or verify_only, reads them back after its writes as its reads; a read job checks what it
    // reads. verify=null and an engine that does no I/O read back but check nothing, as fio.
    const VerifyType verify = spec.EffectiveVerify();
    if (verify != VerifyType::kNone && DoesWrite(spec.rw)) {
      stamp_writes_ = !spec.verify_only;
      record_writes_ = spec.do_verify || spec.verify_only;
      if (record_writes_) Activate(OpKind::kRead);
    }
    checking_ = verify != VerifyType::kNone && verify != VerifyType::kNull && clone.caps.does_io;
    // As fio, a verified block's random data comes from the seed its headers carry, so that
    // verify_dump can write what the block should hold.
    seeded_data_ = stamp_writes_ && verify != VerifyType::kNull && clone.verify.pattern.empty();
    check_reads_ = checking_ && !DoesWrite(spec.rw);
    // As fio: a block's number is checked only where each block has one known write.
    const BlockSizeChoice write_sizes = spec.BlockSizes(/*write=*/true);
    check_numberio_ =
        write_sizes.min_bytes == write_sizes.max_bytes && !spec.time_based && !spec.verify_only;
  }

  JobResult Run() {
    // As fio, the thread takes its CPUs and priorities before its start instant; a clone that
    // cannot fails and issues nothing.
    if (absl::Status s = ApplyThreadPlacement(spec_.placement, clone_.index); !s.ok()) {
      FailWith(s);
    }
    // A run cancelled before its start instant issues nothing (MayIssue).
    (void)SleepUntilMonotonicOrCancelled(start_ns_, control_.cancel);
    // Ops are timed from here on by this thread's op clock (the TSC, anchored now, or
    // clock_gettime).
    OpClockScope op_clock_scope(op_clock_);
    StartMeasuredPhase();
    last_complete_ns_ = measure_start_ns_;
    if (spec_.latency_target > absl::ZeroDuration()) {
      latency_.emplace(LatencyTargetOptionsOf(spec_), OpClockNanos());
    }
    if (failed_) {
      // ApplyThreadPlacement failed: nothing to issue.
    } else if (spec_.verify_only) {
      GenerateWrites();
    } else if (async_) {
      RunAsync();
    } else {
      RunSync();
    }
    if (spec_.end_fsync && DoesWrite(spec_.rw) && !spec_.verify_only && !failed_) {
      SetProgressState(CloneRunState::kFsyncing);
      if (dropped_requests_) {
        FailWith(absl::UnavailableError(
            "end_fsync not run: the kernel refused requests at the end of the run, which were "
            "dropped"));
      } else {
        EndFsync();
      }
    }
    if (record_writes_ && !failed_ && !Cancelled()) {
      SetProgressState(CloneRunState::kVerifying);
      ReadBack(/*backlog=*/false);
    }
    SetProgressState(CloneRunState::kFinishing);
    // Anything left in the kernel (a sync engine holds nothing; the async loop quiesced already,
    // unless its wait failed) is waited for here, on the thread that submitted it, before the job
    // (and its buffers) can go away on another thread. A wait that fails fails the job: requests
    // it could not wait for make the run's figures incomplete.
    if (absl::Status s = clone_.engine->Quiesce(); !s.ok()) FailWith(s);
    if (const int left = clone_.engine->inflight(); left > 0) {
      result_.warnings.push_back(absl::StrCat(
          left, " requests are still in the kernel (clone ", clone_.index,
          "): its buffers stay allocated until the agent exits rather than be freed under them"));
    }
    const uint64_t now = OpClockNanos();
    CloseIntervals(std::max(now, last_complete_ns_), /*final=*/true);
    // The measured phase lasts until the last completion, or until the runtime ended with nothing
    // in flight, whichever is later. A loop that noticed the end late (its thread was descheduled)
    // issued nothing after it, so that delay is not part of the runtime.
    const uint64_t last = std::max(last_complete_ns_, std::min(stop_ns_, end_ns_));
    result_.runtime_ns = last > measure_start_ns_ ? last - measure_start_ns_ : 0;
    // The measured phase's end on the realtime clock, not now: the quiesce and the last
    // interval's delivery above (an audit saw up to ~21 ms) are no part of the run, and the
    // coordinator takes this instant as the job's end for the stonewall window and the agents'
    // spans (coordinator/merge.h, rule 2).
    // Never before the start: a job that ended before its measured phase began (cancelled in its
    // ramp) has last == its measured start, which the two clocks' pairing may put a few ns apart.
    result_.end_realtime_ns = std::max(RealtimeOfOpClock(last), result_.start_realtime_ns);
    // A job that ended during its ramp measured nothing, its CPU included.
    if (!ramp_pending_) result_.cpu = cpu_window_.Close();
    if (result_.op_log_dropped > 0) {
      result_.warnings.push_back(absl::StrCat(
          "op_log: ", result_.op_log_dropped, " ops over the cap of ", spec_.op_log_rate,
          " records/s (clone ", clone_.index, ") were measured but not logged"));
    }
    if (latency_) result_.latency_depth = latency_->depth();
    FlushProgress();
    if (progress_ != nullptr) {
      progress_->End(MonotonicNanos(), result_.error_errno != 0 || !result_.error_message.empty());
    }
    return std::move(result_);
  }

 private:
  void Activate(OpKind kind) { accum_.Activate(kind, result_); }

  bool Cancelled() const {
    return control_.cancel != nullptr && control_.cancel->load(std::memory_order_relaxed);
  }

  // Whether another data op may be issued. `now_ns` is the freshest clock value at hand.
  bool MayIssue(uint64_t now_ns) const {
    return !failed_ && !think_pending_ && !flow_pending_ && now_ns < end_ns_ && !loops_.done() &&
           !Cancelled() && !(latency_ && latency_->done());
  }

  // The next data op's direction: 0 read, 1 write, 2 trim. Only a mixed job draws it; a
  // trimwrite job alternates, trim first, so asking again before NextOp gives the same answer.
  int ChooseDir() {
    switch (direction_) {
      case Direction::kRead:
        return 0;
      case Direction::kWrite:
        return 1;
      case Direction::kTrim:
        return 2;
      case Direction::kTrimWrite:
        return trimmed_.due ? 1 : 2;
      case Direction::kMixed:
        break;
    }
    return mix_rng_.Below(100) >= static_cast<uint64_t>(spec_.rwmixread_percent) ? 1 : 0;
  }

  // Sleeps until `until_ns` (op clock), or the runtime's end or cancellation if sooner. False when
  // the clone must stop issuing: the runtime ended or the run was cancelled.
  bool SleepUntilOrEnd(uint64_t until_ns) {
    (void)SleepUntilMonotonicOrCancelled(std::min(until_ns, end_ns_), control_.cancel);
    const uint64_t now = OpClockNanos();
    if (now >= end_ns_) stop_ns_ = std::max(stop_ns_, now);
    return now < end_ns_ && !Cancelled();
  }

  // A rated clone's turn (agent/workloads/block_io/rate_pacer.h): waits for it and sets `dir`
  // to the direction whose turn it is (0 read, 1 write: a job that trims is never rated);
  // NextOp counts the op as issued. False: stop issuing.
  bool AwaitTurn(int& dir) {
    const uint64_t now = OpClockNanos();
    const RatePacer::Turn turn = pacer_.Next(dir, now);
    if (turn.start_ns > now && !SleepUntilOrEnd(turn.start_ns)) return false;
    dir = turn.dir;
    return true;
  }

  // fio's flow control for a clone with nothing in flight: while it is ahead of its flow
  // (agent/workloads/flow_registry.h) it pauses. False: stop issuing.
  bool AwaitFlowToken() {
    while (!clone_.flow->TakeToken()) {
      if (!FlowPause()) return false;
    }
    return true;
  }

  // One pause of a clone that is ahead of its flow: flow_sleep, or with flow_sleep 0 a yield of
  // the CPU (fio spins). False when the runtime ended or the run was cancelled.
  bool FlowPause() {
    if (flow_sleep_ns_ > 0) return SleepUntilOrEnd(OpClockNanos() + flow_sleep_ns_);
    std::this_thread::yield();
    const uint64_t now = OpClockNanos();
    if (now >= end_ns_) stop_ns_ = std::max(stop_ns_, now);
    return now < end_ns_ && !Cancelled();
  }

  // Counts a data op towards thinktime_blocks (issued or completed, as thinktime_blocks_type
  // says): one think time is owed per thinktime_blocks of them. A reap that completes several
  // blocks' worth at once owes several, so the ratio holds whatever the batching.
  // With thinktime_iotime, one is also due once that long has passed since the last one ended
  // (`now_ns`: the op's issue or completion).
  void CountForThink(bool issued, uint64_t now_ns) {
    if (think_ns_ == 0) return;
    if (think_iotime_ns_ != 0 && !think_pending_) {
      if (last_think_ns_ == 0) last_think_ns_ = now_ns;
      if (now_ns - last_think_ns_ >= think_iotime_ns_) {
        ++thinks_owed_;
        think_pending_ = true;
      }
    }
    if (think_blocks_ == 0 || issued != spec_.thinktime_blocks_issue) return;
    if (++think_count_ % think_blocks_ == 0) {
      ++thinks_owed_;
      think_pending_ = true;
    }
  }

  // fio's think time, taken with nothing in flight: spin thinktime_spin, sleep the rest (times
  // the think times owed).
  void Think() {
    const uint64_t owed = thinks_owed_;
    thinks_owed_ = 0;
    think_pending_ = false;
    const uint64_t start = OpClockNanos();
    const uint64_t spin_ns = think_spin_ns_ * owed;
    while (spin_ns > 0 && OpClockNanos() - start < spin_ns && !Cancelled()) {
    }
    if (think_ns_ > think_spin_ns_) (void)SleepUntilOrEnd(start + think_ns_ * owed);
    last_think_ns_ = OpClockNanos();
    if (spec_.rate_ignore_thinktime && pacer_.active()) {
      pacer_.SkipThinkTime(last_data_dir_, last_think_ns_ - start);
    }
  }

  // fio's rate_min and rate_iops_min: every rate_cycle after the first 2 s, a direction that has
  // completed ops fails the job when its rate over the cycle was below the minimum.
  void CheckMinRate(uint64_t now_ns) {
    if (now_ns < next_rate_check_ns_) return;
    if (rate_checked_ns_ != 0) {
      const uint64_t elapsed_ns = now_ns - rate_checked_ns_;
      for (int dir = 0; dir < 2 && !failed_; ++dir) {
        if (dir_ops_[dir] == 0) continue;
        const double seconds = static_cast<double>(elapsed_ns) / 1e9;
        const double bytes_per_s = (dir_bytes_[dir] - checked_bytes_[dir]) / seconds;
        const double iops = (dir_ops_[dir] - checked_ops_[dir]) / seconds;
        const char* name = dir == 0 ? "read" : "write";
        if (spec_.rate_min_bytes_per_s[dir] != 0 && bytes_per_s < spec_.rate_min_bytes_per_s[dir]) {
          FailCheck(absl::StrCat("rate_min: ", name, " bandwidth ",
                                 static_cast<uint64_t>(bytes_per_s), " bytes/s over the last ",
                                 elapsed_ns / 1'000'000, " ms is below the minimum of ",
                                 spec_.rate_min_bytes_per_s[dir]));
        } else if (spec_.rate_iops_min[dir] != 0 && iops < spec_.rate_iops_min[dir]) {
          FailCheck(absl::StrCat("rate_iops_min: ", name, " IOPS ", static_cast<uint64_t>(iops),
                                 " over the last ", elapsed_ns / 1'000'000,
                                 " ms are below the minimum of ", spec_.rate_iops_min[dir]));
        }
      }
    }
    rate_checked_ns_ = now_ns;
    checked_bytes_ = dir_bytes_;
    checked_ops_ = dir_ops_;
    next_rate_check_ns_ = now_ns + rate_cycle_ns_;
  }

  // A turn of the job loop with completions, for latency_target, at `now_ns`. A failed job ends
  // its window unjudged, as fio's loop stops at the error before its check.
  void LatencyTurn(uint64_t now_ns, bool idle) {
    if (latency_ && !failed_) latency_->Turn(now_ns, idle, now_ns >= measure_start_ns_);
  }

  // A check of fio's failed the job: EIO for check_min_rate, ETIMEDOUT for latency_target.
  void FailCheck(const std::string& why, int err = EIO) {
    if (result_.error_errno == 0) {
      result_.error_errno = err;
      result_.error_message = absl::StrCat(why, " (clone ", clone_.index, ")");
    }
    failed_ = true;
  }

  // fio's unlink_each_loop: a loop has ended and another follows, so the files are due to be
  // removed and opened again (with nothing in flight on them).
  bool LoopFilesDue() const {
    return spec_.unlink_each_loop && clone_.caps.does_io && loops_.bounded() && !loops_.done() &&
           loops_.loop() > 0 && loops_.loop() != renewed_loop_;
  }

  // Removes each file and opens its path again under the same descriptor, with the same flags: a
  // job that writes creates it anew (empty; its writes fill it again), one that only reads finds
  // it gone and fails with ENOENT, as fio's. Nothing may be in flight.
  void RenewLoopFiles() {
    renewed_loop_ = loops_.loop();
    const int create = DoesWrite(spec_.rw) ? O_CREAT : 0;
    for (BlockIoJob::Clone::File& f : clone_.files) {
      const int flags = fcntl(f.fd, F_GETFL);
      int err = 0;
      if (flags < 0 || (unlink(f.path.c_str()) != 0 && errno != ENOENT)) err = errno;
      const int fd = err != 0 ? -1 : open(f.path.c_str(), flags | create | O_CLOEXEC, 0644);
      if (err == 0 && fd < 0) err = errno;
      if (fd >= 0) {
        if (dup3(fd, f.fd, O_CLOEXEC) < 0) err = errno;
        close(fd);
      }
      if (err != 0) {
        if (result_.error_errno == 0) {
          result_.error_errno = err;
          result_.error_message =
              absl::StrCat("unlink_each_loop: cannot remove and open '", f.path, "' again (clone ",
                           clone_.index, "): ", ErrnoText(err));
        }
        failed_ = true;
        return;
      }
    }
  }

  // Fills `req` with the next data op of direction `dir` (0 read, 1 write, 2 trim). `now_ns`
  // decides whether the op counts against the size budget (ops issued during ramp_time do not).
  void NextOp(IoRequest& req, uint64_t now_ns, int dir) {
    const bool write = dir == 1;
    if (direction_ == Direction::kTrimWrite && write) {
      // fio's trimwrite: the write covers the range its trim just freed.
      trimmed_.due = false;
      req.op = OpKind::kWrite;
      req.fd = clone_.files[trimmed_.file].fd;
      req.offset_bytes = trimmed_.offset_bytes;
      req.length_bytes = trimmed_.length_bytes;
      FinishWrite(req, trimmed_.file, now_ns);
      if (now_ns >= measure_start_ns_) loops_.Issued(req.length_bytes);
      return;
    }
    // A new loop starts over at the regions' start, as fio's does.
    if (loops_.loop() != rewound_loop_) [[unlikely]] {
      rewound_loop_ = loops_.loop();
      for (BlockIoJob::Clone::File& f : clone_.files) {
        for (auto& gen : f.offsets) {
          if (gen) gen->Rewind();
        }
      }
    }
    const size_t file_index = NextFileIndex();
    BlockIoJob::Clone::File& file = clone_.files[file_index];
    OffsetGenerator& gen = *file.offsets[dir];
    req.op = dir == 2 ? OpKind::kTrim : write ? OpKind::kWrite : OpKind::kRead;
    req.fd = file.fd;
    BlockSizePicker& sizes = clone_.block_sizes[static_cast<size_t>(dir)];
    uint64_t len;
    if (rw_modified_) [[unlikely]] {
      req.offset_bytes = ModifiedOffset(file, dir, gen, sizes.min_bytes());
      len = sizes.Next(file.region_end_bytes - req.offset_bytes);
      file.last_start_bytes[dir] = req.offset_bytes;
      file.last_end_bytes[dir] = req.offset_bytes + len;
    } else if (sizes.fixed()) [[likely]] {
      req.offset_bytes = gen.Next();
      len = sizes.min_bytes();
    } else if (random_) {
      req.offset_bytes = gen.Next();
      len = sizes.Next(gen.region_end_bytes() - req.offset_bytes);
    } else {
      req.offset_bytes = gen.NextSequential(sizes.min_bytes());
      len = sizes.Next(gen.region_end_bytes() - req.offset_bytes);
      gen.Advance(len);
    }
    // A loop's last I/O ends at the loop's end, so the next one starts the next loop.
    len = std::min(len, loops_.BytesLeftInLoop());
    req.length_bytes = static_cast<uint32_t>(len);
    if (pacer_.active()) pacer_.Issued(dir, len);
    if (dir == 2) {
      if (direction_ == Direction::kTrimWrite) {
        // As fio, a trimwrite job's size counts its writes alone: its trims come on top.
        trimmed_ = {true, file_index, req.offset_bytes, req.length_bytes};
        return;
      }
    } else {
      last_data_dir_ = dir;
    }
    if (write) FinishWrite(req, file_index, now_ns);
    if (now_ns >= measure_start_ns_) loops_.Issued(len);
  }

  // A write's buffer content, verify stamp and fsync count.
  void FinishWrite(IoRequest& req, size_t file_index, uint64_t now_ns) {
    // A block whose data comes from its verify seed is filled by StampWrite.
    if (!seeded_data_) clone_.buffers->PrepareWrite(req.buffer_index, req.offset_bytes);
    if (stamp_writes_ || record_writes_) [[unlikely]] {
      StampWrite(req, static_cast<uint32_t>(file_index), now_ns);
    }
    // Counted when issued, as fio does: `fsync=N` syncs after every N writes issued, so a batch
    // of completions cannot fold several due fsyncs into one.
    ++writes_since_fsync_;
  }

  // A write's verify headers (when the job writes them) and its record for the read back.
  void StampWrite(const IoRequest& req, uint32_t file_index, uint64_t now_ns) {
    const uint64_t number = writes_stamped_++;
    VerifyStamp stamp;
    stamp.seed = SplitMix64(clone_.seed + number);
    stamp.numberio = static_cast<uint16_t>(number);
    stamp.time_ns = now_ns;
    if (seeded_data_) {
      clone_.buffers->FillFromSeed(clone_.buffers->buffer(req.buffer_index), req.length_bytes,
                                   stamp.seed);
    }
    if (stamp_writes_) {
      FillVerifyBlock(clone_.verify,
                      static_cast<uint8_t*>(clone_.buffers->buffer(req.buffer_index)),
                      req.length_bytes, req.offset_bytes, stamp);
    }
    if (record_writes_) {
      // A pattern's headers carry seed 0, as fio's.
      written_.push_back({req.offset_bytes, clone_.verify.pattern.empty() ? stamp.seed : 0,
                          file_index, req.length_bytes, stamp.numberio});
    }
  }

  // A write the engine would not take (kBusy) is not issued: its number goes to the next one.
  void UnstampWrite() {
    --writes_stamped_;
    if (record_writes_) written_.pop_back();
  }

  static uint64_t SplitMix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  }

  // verify_only: the writes the job would issue (offsets, sizes, numbers), generated but not
  // written, for ReadBack to check.
  void GenerateWrites() {
    IoRequest req;
    req.buffer_index = 0;
    req.buffer = clone_.buffers->buffer(0);
    while (!loops_.done() && !Cancelled()) {
      NextOp(req, measure_start_ns_, /*dir=*/1);
    }
  }

  // verify_backlog: the writes not yet read back are due for it (nothing may then be in flight).
  bool BacklogDue() const {
    return spec_.verify_backlog > 0 && record_writes_ && written_.size() >= spec_.verify_backlog;
  }

  // A write job's verify phase: reads back each block it wrote and has not read back yet (the last
  // write of each), one at a time, in offset order, and checks it (CheckRead); a `backlog`
  // (verify_backlog) in the order written, as fio. The reads are the job's reads, as fio's. Stops
  // at the runtime's end, an error or cancellation.
  void ReadBack(bool backlog) {
    if (!backlog) {
      std::stable_sort(
          written_.begin(), written_.end(), [](const WrittenBlock& a, const WrittenBlock& b) {
            return a.file != b.file ? a.file < b.file : a.offset_bytes < b.offset_bytes;
          });
    }
    check_reads_ = checking_;
    IoRequest req;
    req.buffer_index = 0;
    req.buffer = clone_.buffers->buffer(0);
    req.slot = 0;
    for (size_t i = 0; i < written_.size() && !failed_ && !Cancelled(); ++i) {
      const WrittenBlock& block = written_[i];
      // A block written again later is read back once, for its last write.
      if (!backlog && i + 1 < written_.size() && written_[i + 1].file == block.file &&
          written_[i + 1].offset_bytes == block.offset_bytes) {
        continue;
      }
      const uint64_t now = OpClockNanos();
      if (now >= end_ns_) {
        stop_ns_ = std::max(stop_ns_, now);
        break;
      }
      req.op = OpKind::kRead;
      req.fd = clone_.files[block.file].fd;
      req.offset_bytes = block.offset_bytes;
      req.length_bytes = block.length_bytes;
      req.start_ns = now;
      reading_back_ = &block;
      if (!SubmitAndWait(req)) break;
      AccountCompletedInQueue(req);
    }
    reading_back_ = nullptr;
    check_reads_ = false;
    written_.clear();
    if (!backlog) written_.shrink_to_fit();
  }

  // verify_dump (agent/workloads/verify_dump.h): each failed interval as read and, when its
  // header is good, as written: the data from the header's seed, then the headers. A dump that
  // cannot be written is a warning; the verify failure stands either way.
  void DumpFailedIntervals(const IoRequest& req, const std::string& path,
                           const VerifyBlockResult& check) {
    const auto* read = static_cast<const uint8_t*>(req.buffer);
    std::vector<uint8_t> written;
    for (const VerifyBadInterval& bad : check.intervals) {
      const std::string_view received(reinterpret_cast<const char*>(read + bad.at_bytes),
                                      bad.length_bytes);
      std::vector<std::pair<std::string_view, std::string_view>> dumps;
      if (bad.bad_header) {
        dumps.emplace_back("hdr_fail", received);
      } else {
        if (written.empty()) {
          written.resize(req.length_bytes);
          if (clone_.verify.pattern.empty()) {
            clone_.buffers->FillFromSeed(written.data(), req.length_bytes, bad.stamp.seed);
          }
          FillVerifyBlock(clone_.verify, written.data(), static_cast<uint32_t>(req.length_bytes),
                          req.offset_bytes, bad.stamp);
        }
        dumps.emplace_back("received", received);
        dumps.emplace_back(
            "expected",
            std::string_view(reinterpret_cast<const char*>(written.data() + bad.at_bytes),
                             bad.length_bytes));
      }
      for (const auto& [kind, bytes] : dumps) {
        absl::StatusOr<std::string> name = WriteVerifyDump(path, bad.offset_bytes, kind, bytes);
        if (name.ok()) {
          spdlog::warn("{}: verify: {} data dumped as {}", spec_.name, kind, *name);
        } else {
          result_.warnings.push_back(std::string(name.status().message()));
        }
      }
    }
  }

  // Checks a block read in full; a failure is counted in the result and ends the job with EILSEQ,
  // unless continue_on_error and ignore_error let the job go on after it (counted in total_err).
  void CheckRead(const IoRequest& req) {
    if (static_cast<uint64_t>(req.result) != req.length_bytes) return;  // a short read
    VerifyExpect expect;
    if (reading_back_ != nullptr) {
      expect.check_seed = true;
      expect.seed = reading_back_->seed;
      expect.check_numberio = check_numberio_;
      expect.numberio = reading_back_->numberio;
    }
    std::string path;
    for (const auto& f : clone_.files) {
      if (f.fd == req.fd) path = f.path;
    }
    VerifyBlockResult check =
        CheckVerifyBlock(clone_.verify, static_cast<uint8_t*>(req.buffer), req.length_bytes,
                         req.offset_bytes, path, expect, spec_.verify_fatal);
    if (check.bad_intervals == 0) return;
    result_.verify_failures += static_cast<uint64_t>(check.bad_intervals);
    for (const uint64_t offset : check.bad_offsets) {
      if (result_.verify_failure_offsets.size() >= JobResult::kMaxVerifyFailureOffsets) break;
      result_.verify_failure_offsets.push_back(offset);
    }
    if (spec_.error_dump) spdlog::warn("{}: verify: {}", spec_.name, check.message);
    if (spec_.verify_dump) DumpFailedIntervals(req, path, check);
    if (GoesOnAfter(ErrorType::kVerify, EILSEQ, req.complete_ns >= measure_start_ns_)) return;
    if (result_.error_errno == 0) {
      result_.error_errno = EILSEQ;
      result_.error_message = absl::StrCat(check.message, " (clone ", clone_.index, ")");
    }
    failed_ = true;
  }

  // Queues `req` alone and waits for its completion, through any engine. False when the engine
  // failed it (the job has failed).
  bool SubmitAndWait(IoRequest& req) {
    IoEngine& engine = *clone_.engine;
    const QueueResult r = engine.Queue(&req);
    if (r == QueueResult::kCompleted) return true;
    if (r == QueueResult::kBusy) {
      FailWith(absl::UnavailableError("verify: the engine still holds requests"));
      return false;
    }
    SubmitStall stall;
    for (;;) {
      absl::StatusOr<int> submitted = engine.Commit();
      if (!submitted.ok()) {
        FailWith(submitted.status());
        return false;
      }
      if (*submitted > 0) break;
      if (!stall.SleepBeforeRetry(OpClockNanos())) {
        FailWith(
            absl::UnavailableError("verify: the kernel did not take a read for 30 s (EAGAIN)"));
        return false;
      }
    }
    IoRequest* done[1];
    absl::StatusOr<int> got = engine.GetEvents(1, std::span<IoRequest*>(done, 1));
    if (!got.ok()) {
      FailWith(got.status());
      return false;
    }
    if (*got != 1) {
      FailWith(absl::InternalError("verify: the engine returned no completion"));
      return false;
    }
    return true;
  }

  // fio's rw modifiers. Random (`randread:<n>`): a new random offset every n-th I/O, the others
  // where the previous one ended (rw_sequencer=sequential) or where it started (identical); with
  // percentage_random below 100, some of the random ones continue after the previous I/O instead.
  // Sequential (`read:<bytes>`): each I/O starts `bytes` after the previous one's end, wrapping
  // to the start past the end, or, backwards, to `bytes` before the end past the start.
  uint64_t ModifiedOffset(const BlockIoJob::Clone::File& file, int dir, OffsetGenerator& gen,
                          uint64_t min_bytes) {
    const uint64_t start = file.region_start_bytes;
    const uint64_t region = file.region_end_bytes - start;
    uint64_t rel = file.last_end_bytes[dir] - start;
    if (random_) {
      if (--seq_countdown_ == 0) {
        seq_countdown_ = spec_.rw_seq_nr;
        // percentage_random: fio draws 1..100 and goes random when it is within the share.
        const int percent = spec_.percentage_random[dir];
        if (percent >= 100 || static_cast<int>(mix_rng_.Below(100)) < percent) return gen.Next();
        // Otherwise sequential, after the previous I/O (below).
      } else if (spec_.rw_sequencer == RwSequencer::kIdentical) {
        return file.last_start_bytes[dir];
      }
    } else if (rel != 0) {
      const int64_t add = spec_.rw_seq_add_bytes;
      rel += static_cast<uint64_t>(add);  // modulo 2^64: below the start reads as past the end
      if (rel >= region) {
        const uint64_t back = static_cast<uint64_t>(-add);
        rel = add > 0 || back >= region ? 0 : region - back;
      }
    }
    if (rel + min_bytes > region) rel = 0;
    return start + rel;
  }

  size_t NextFileIndex() {
    const size_t n = clone_.files.size();
    if (n == 1) return 0;
    switch (spec_.file_service_type) {
      case FileServiceType::kRandom:
        return mix_rng_.Below(n);
      case FileServiceType::kSequential: {
        // Stay on a file until its region has been covered once, then move on.
        const auto& gen = clone_.files[file_cursor_].offsets[0]
                              ? clone_.files[file_cursor_].offsets[0]
                              : clone_.files[file_cursor_].offsets[1];
        if (++ops_on_file_ > gen->blocks()) {
          ops_on_file_ = 1;
          file_cursor_ = (file_cursor_ + 1) % n;
        }
        return file_cursor_;
      }
      case FileServiceType::kRoundRobin:
      default:
        file_cursor_ = (file_cursor_ + 1) % n;
        return file_cursor_;
    }
  }

  bool FsyncDue() const {
    return sync_every_n_writes_ > 0 && writes_since_fsync_ >= sync_every_n_writes_;
  }

  void PrepareFsync(IoRequest& req, int fd) {
    writes_since_fsync_ = 0;
    req.op = OpKind::kFsync;
    req.datasync = spec_.fsync_every_n == 0 && spec_.fdatasync_every_n > 0;
    req.fd = fd;
    req.buffer = nullptr;
    req.buffer_index = -1;
    req.length_bytes = 0;
    req.offset_bytes = 0;
  }

  // Hot path: account one completed request.
  inline void Account(const IoRequest& req) {
    if (req.complete_ns > last_complete_ns_) last_complete_ns_ = req.complete_ns;
    if (req.result < 0) {
      RecordError(req);
      return;
    }
    if (check_reads_ && req.op == OpKind::kRead) [[unlikely]] {
      CheckRead(req);
    }
    if (latency_ && req.op != OpKind::kFsync) [[unlikely]] {
      const uint64_t latency_ns = req.complete_ns - req.start_ns;
      if (latency_->OnCompletion(latency_ns) == LatencyTargetSearch::Action::kFatal) {
        FailCheck(latency_->FatalMessage(OpKindName(req.op), latency_ns), ETIMEDOUT);
      }
    }
    if (req.complete_ns < measure_start_ns_) return;  // ramp_time: done but not measured
    if (ramp_pending_) [[unlikely]] {
      // The first completion after the ramp: CPU counts from here, as fio resets its rusage (and
      // begins its latency_target search again).
      ramp_pending_ = false;
      cpu_window_.Restart();
      if (latency_) latency_->Restart(req.complete_ns);
      if (progress_ != nullptr) progress_->EndRamp(measure_start_ns_);
    }
    if (progress_ != nullptr && req.op <= OpKind::kTrim) {
      live_bytes_[static_cast<int>(req.op)] += static_cast<uint64_t>(req.result);
      ++live_ops_[static_cast<int>(req.op)];
    }
    if (req.complete_ns >= next_interval_ns_) CloseIntervals(req.complete_ns, /*final=*/false);
    if (op_log_enabled_) LogOp(req);
    const int kind = static_cast<int>(req.op);
    IntervalAccumulator::Kind& acc = accum_.kind(req.op);
    acc.lat.Record(req.complete_ns - req.start_ns);
    ++acc.ops;
    acc.bytes += static_cast<uint64_t>(req.result);
    if (async_) {
      OpStats& stats = *result_.by_kind[kind];
      stats.slat.Record(req.issue_ns - req.start_ns);
      stats.clat.Record(req.complete_ns - req.issue_ns);
    }
    if (static_cast<uint64_t>(req.result) < req.length_bytes) {
      ++result_.by_kind[kind]->short_ios;
    }
    local_bytes_ += static_cast<uint64_t>(req.result);
    if (++local_ops_ >= kProgressBatchOps || req.complete_ns >= progress_due_ns_) {
      FlushProgress();
      progress_due_ns_ = req.complete_ns + kProgressMaxLagNs;
    }
    if (check_min_rate_ && req.op != OpKind::kFsync) {
      const int dir = req.op == OpKind::kWrite ? 1 : 0;
      dir_bytes_[dir] += static_cast<uint64_t>(req.result);
      ++dir_ops_[dir];
      CheckMinRate(req.complete_ns);
    }
  }

  // A request the engine completed inside Queue() (every op of a sync engine): one submit and one
  // reap of one request at depth 1 in the IO depths, as fio counts it.
  void AccountCompletedInQueue(const IoRequest& req) {
    Account(req);
    if (!ramp_pending_) result_.depth.RecordSyncOp();
  }

  // An error during ramp_time is not counted, as no op of the ramp is (fio resets its statistics
  // when the ramp ends), so the totals stay the sums of the interval series. An error that
  // continue_on_error and ignore_error let pass is counted and the clone goes on; any other is the
  // job's error (error_errno / error_message) and stops the clone, as fio's default
  // continue_on_error=none does, during the ramp too.
  void RecordError(const IoRequest& req) {
    const int err = static_cast<int>(-req.result);
    if (spec_.fill_device && (err == ENOSPC || err == EDQUOT)) {
      // The file system is full: the job has done what it was asked, so it issues no more and
      // ends without an error, as fio's fill_device (ops still in flight end here too).
      loops_.Stop();
      return;
    }
    const bool measured = req.complete_ns >= measure_start_ns_;
    if (measured) {
      if (req.complete_ns >= next_interval_ns_) CloseIntervals(req.complete_ns, false);
      if (op_log_enabled_) LogOp(req);
      ++accum_.kind(req.op).errors;
    }
    if (spec_.error_dump) {
      // fio's wording of an error it dumps.
      spdlog::warn("{}: io_u error on file {}: {}: {} offset={}, buflen={}", spec_.name,
                   PathOf(req.fd), ErrnoText(err), OpKindName(req.op), req.offset_bytes,
                   req.length_bytes);
    }
    if (GoesOnAfter(ErrorTypeOf(req.op, err), err, measured)) return;
    if (result_.error_errno == 0) {
      result_.error_errno = err;
      result_.error_message =
          absl::StrCat(std::string(OpKindName(req.op)), " of ", req.length_bytes,
                       " bytes at offset ", req.offset_bytes, " in '", PathOf(req.fd), "' (clone ",
                       clone_.index, ") failed: ", ErrnoText(err));
    }
    failed_ = true;
  }

  // fio's continue_on_error: a `measured` error of a type it covers is counted (total_err,
  // first_error). True when the clone goes on after it (ignore_error's list, or EIO and EILSEQ).
  bool GoesOnAfter(ErrorType type, int err, bool measured) {
    if (measured && ContinuesOn(spec_, type) && ++result_.total_err_count == 1) {
      result_.first_error = err;
    }
    return IsNonFatalError(spec_, type, err);
  }

  std::string PathOf(int fd) const {
    for (const auto& f : clone_.files) {
      if (f.fd == fd) return f.path;
    }
    return {};
  }

  // Keeps the op's raw record unless this second's quota (op_log_rate) is used up.
  void LogOp(const IoRequest& req) {
    while (req.complete_ns >= op_log_window_end_ns_) {
      op_log_window_end_ns_ += 1'000'000'000ULL;
      op_log_in_window_ = 0;
    }
    if (op_log_capped_ && op_log_in_window_ >= spec_.op_log_rate) {
      ++result_.op_log_dropped;
      return;
    }
    ++op_log_in_window_;
    if (spec_.op_log) ++result_.op_log_records;
    OpRecord r;
    r.start_ns = req.start_ns > measure_start_ns_ ? req.start_ns - measure_start_ns_ : 0;
    r.latency_ns = req.complete_ns - req.start_ns;
    r.offset_bytes = req.offset_bytes;
    r.bytes = req.result > 0 ? static_cast<uint32_t>(req.result) : 0;
    r.error = req.result < 0 ? static_cast<int32_t>(-req.result) : 0;
    r.kind = req.op;
    r.clone = static_cast<uint16_t>(clone_.index);
    if (async_ && req.issue_ns >= req.start_ns) {
      r.has_slat = true;
      r.slat_ns = req.issue_ns - req.start_ns;
    }
    op_log_.push_back(r);
    if (op_log_.size() >= kOpLogBatchRecords) FlushOpLog();
  }

  void FlushOpLog() {
    if (op_log_.empty()) return;
    if (control_.on_op_log) control_.on_op_log(clone_.index, std::move(op_log_));
    op_log_.clear();
    op_log_.reserve(kOpLogBatchRecords);
  }

  void FlushProgress() {
    PublishLive();
    if (local_ops_ == 0) return;
    ops_done_.fetch_add(local_ops_, std::memory_order_relaxed);
    bytes_done_.fetch_add(local_bytes_, std::memory_order_relaxed);
    local_ops_ = 0;
    local_bytes_ = 0;
  }

  void PublishLive() {
    if (progress_ != nullptr) progress_->Publish(live_bytes_, live_ops_);
  }

  void SetProgressState(CloneRunState state) {
    if (progress_ != nullptr) progress_->SetState(state);
  }

  // Closes every interval that ended at or before `now_ns` (all of them when `final`), merging the
  // interval accumulators into the totals and emitting them.
  void CloseIntervals(uint64_t now_ns, bool final) {
    while (now_ns >= next_interval_ns_ || final) {
      IntervalStats interval;
      interval.index = interval_index_;
      const bool any = accum_.Close(result_, interval);
      FlushOpLog();
      // A final partial interval with nothing in it is not emitted.
      if (!final || any) {
        if (control_.on_interval) {
          control_.on_interval(
              IntervalOrigin{result_.name, clone_.index, result_.start_realtime_ns}, interval);
        }
        result_.intervals.push_back(std::move(interval));
      }
      if (final) break;
      ++interval_index_;
      next_interval_ns_ += control_.interval_ns;
    }
  }

  void RunSync() {
    // PsyncEngine is final and its Queue() inline: through a PsyncEngine& the loop calls it
    // directly rather than through the vtable on every op.
    if (auto* psync = dynamic_cast<PsyncEngine*>(clone_.engine.get())) {
      RunSyncLoop(*psync);
    } else {
      RunSyncLoop(*clone_.engine);
    }
  }

  template <typename Engine>
  void RunSyncLoop(Engine& engine) {
    IoRequest req;
    req.buffer_index = 0;
    req.buffer = clone_.buffers->buffer(0);
    uint64_t now = OpClockNanos();
    while (MayIssue(now)) {
      // As fio, a due sync goes out before the next data op, so none follows the last one.
      if (FsyncDue() && !failed_) {
        IoRequest sync_req;
        PrepareFsync(sync_req, req.fd);
        sync_req.start_ns = OpClockNanos();
        engine.Queue(&sync_req);
        AccountCompletedInQueue(sync_req);
        now = sync_req.complete_ns;
        if (!MayIssue(now)) break;
      }
      if (LoopFilesDue()) [[unlikely]] {
        RenewLoopFiles();
        if (failed_) break;
      }
      int dir = ChooseDir();
      if (pacer_.active() && !AwaitTurn(dir)) break;
      if (clone_.flow != nullptr && !AwaitFlowToken()) break;
      NextOp(req, now, dir);
      req.start_ns = OpClockNanos();
      // Checked again on the op's own start time, so no op starts after the runtime has ended: the
      // measured runtime exceeds `runtime` by at most the last op's latency.
      if (req.start_ns >= end_ns_) {
        stop_ns_ = req.start_ns;
        break;
      }
      engine.Queue(&req);  // a sync engine completes in Queue()
      AccountCompletedInQueue(req);
      now = req.complete_ns;
      LatencyTurn(now, /*idle=*/true);
      if (think_ns_ != 0 && req.op != OpKind::kFsync) {
        CountForThink(true, now);
        CountForThink(false, now);
        if (think_pending_ && !failed_) {
          Think();
          now = OpClockNanos();
        }
      }
      if (BacklogDue() && !failed_) [[unlikely]] {
        ReadBack(/*backlog=*/true);
        now = OpClockNanos();
      }
    }
  }

  void RunAsync() {
    IoEngine& engine = *clone_.engine;
    const int depth = spec_.iodepth;
    std::vector<IoRequest> requests(depth + 1);  // the last one is reserved for fsync
    std::vector<IoRequest*> free_slots;
    free_slots.reserve(depth);
    for (int i = depth - 1; i >= 0; --i) {
      requests[i].buffer_index = i;
      requests[i].buffer = clone_.buffers->buffer(i);
      requests[i].slot = static_cast<uint32_t>(i);
      free_slots.push_back(&requests[i]);
    }
    IoRequest& fsync_req = requests[depth];
    fsync_req.slot = static_cast<uint32_t>(depth);
    bool fsync_in_flight = false;
    // Default batching. Buffered I/O (completing inline, or on tmpfs in io-wq): one submit call
    // for every free slot, and every reap takes all that is ready. O_DIRECT: fio's defaults, one
    // request per submit call and one completion per reap (iodepth_batch_complete_max defaults
    // to iodepth_batch_complete_min, as in fio), so each completion is replaced at once and
    // iodepth requests stay in flight. Reaping all that is ready lets a device that completes
    // in bursts (a virtio disk) synchronize the queue: all of it completes together, then waits
    // while it is resubmitted one call each, and only ~13 of 16 are in flight on average
    // (measured; bench/README.md). Submitting a batch in one call costs ~10% of a disk's IOPS:
    // the block layer holds a plugged batch until all of it is issued.
    const int batch_submit = spec_.iodepth_batch_submit > 0 ? spec_.iodepth_batch_submit
                             : spec_.direct                 ? 1
                                                            : depth;
    SubmitBatch submit_batch(batch_submit, /*count_across_fills=*/spec_.iodepth_batch_submit > 0);
    const int complete_min = std::max(1, spec_.iodepth_batch_complete_min);
    const int complete_max = spec_.iodepth_batch_complete_max > 0 ? spec_.iodepth_batch_complete_max
                             : spec_.direct                       ? complete_min
                                                                  : depth + 1;
    std::vector<IoRequest*> done(std::max(complete_max, depth + 1));

    // Returns how many requests the call submitted (0 on an error, which fails the job).
    auto commit = [&]() -> int {
      const int depth_before = engine.inflight();
      absl::StatusOr<int> submitted = engine.Commit();
      if (!submitted.ok()) {
        FailWith(submitted.status());
        return 0;
      }
      if (!ramp_pending_) result_.depth.RecordSubmit(depth_before, *submitted);
      return *submitted;
    };
    SubmitStall stall;
    uint64_t now = OpClockNanos();
    for (;;) {
      // Issue: fill the free slots, unless an fsync must first drain the queue.
      bool issuing = MayIssue(now);
      int queued = 0;
      bool flow_held = false;  // ahead of its flow, with flow_sleep 0: retry after a completion
      // As fio, a due sync waits for the queue to drain and goes out before the next data op:
      // none follows the last one.
      if (issuing && FsyncDue() && !failed_ && !Cancelled()) {
        if (engine.inflight() == 0 && !fsync_in_flight) {
          PrepareFsync(fsync_req, clone_.files[file_cursor_].fd);
          fsync_req.start_ns = OpClockNanos();
          QueueResult r = engine.Queue(&fsync_req);
          if (r == QueueResult::kCompleted) {
            AccountCompletedInQueue(fsync_req);
          } else if (r == QueueResult::kQueued) {
            fsync_in_flight = true;
            ++queued;
          }
        }
      } else if (issuing) {
        // Requests share the timestamp of their submit call's batch (one clock read per call).
        uint64_t batch_start = OpClockNanos();
        bool after_inline = false;  // the last op completed inside Queue()
        if (batch_start >= end_ns_) {
          issuing = false;
          stop_ns_ = std::max(stop_ns_, batch_start);
        }
        // Every free slot is filled; a submit call goes out when `submit_batch` says so (fio's
        // iodepth_batch_submit, agent/workloads/block_io/submit_batch.h), and once more below for
        // the rest.
        while (issuing && !free_slots.empty() && !loops_.done() && !failed_ && !think_pending_ &&
               !BacklogDue() && !LoopFilesDue() &&
               (!latency_ || latency_->MayIssue(depth - static_cast<int>(free_slots.size())))) {
          int dir = ChooseDir();
          // An engine takes a trim only when nothing waits for a submit (posixaio: nothing is
          // in flight), as fio's: submit and reap first, and ask again.
          if (dir == 2 && engine.TrimMustWait()) break;
          if (pacer_.active()) {
            // While requests are out, a rated clone reaps them until its turn (below) rather
            // than sleep on them, so their completions are timed when they happen.
            const uint64_t t = OpClockNanos();
            if (pacer_.Next(dir, t).start_ns > t && engine.inflight() + queued > 0) {
              break;
            }
            if (!AwaitTurn(dir)) {
              issuing = false;
              break;
            }
          }
          if (clone_.flow != nullptr && !clone_.flow->TakeToken()) {
            // Ahead of its flow. With flow_sleep the clone drains its queue and sleeps, as fio;
            // without, it reaps and asks again.
            if (flow_sleep_ns_ > 0) {
              flow_pending_ = true;
            } else {
              flow_held = true;
            }
            break;
          }
          IoRequest* req = free_slots.back();
          NextOp(*req, batch_start, dir);
          // After an op that completed inside Queue(), the clock is read again once this one is
          // prepared, as fio stamps an I/O when it is set up: its latency holds no bookkeeping.
          req->start_ns = pacer_.active() || after_inline ? OpClockNanos() : batch_start;
          const QueueResult r = engine.Queue(req);
          if (r == QueueResult::kBusy) {
            const bool counted = req->op != OpKind::kTrim || direction_ != Direction::kTrimWrite;
            if (batch_start >= measure_start_ns_ && counted) loops_.Unissue();
            // A trimwrite's refused write is due again, for the same range.
            if (direction_ == Direction::kTrimWrite) trimmed_.due = req->op == OpKind::kWrite;
            if (req->op == OpKind::kWrite) {
              --writes_since_fsync_;
              if (stamp_writes_ || record_writes_) UnstampWrite();
            }
            break;
          }
          free_slots.pop_back();
          CountForThink(true, req->start_ns);
          if (r == QueueResult::kCompleted) {
            AccountCompletedInQueue(*req);
            CountForThink(false, req->complete_ns);
            free_slots.push_back(req);
            // An engine that completes data ops inside Queue() (nfs at iodepth 1) hands the slot
            // straight back: the runtime, an error and cancellation are checked here, or this
            // loop would never end.
            if (!MayIssue(req->complete_ns)) {
              if (req->complete_ns >= end_ns_) stop_ns_ = std::max(stop_ns_, req->complete_ns);
              issuing = false;
            }
            // The next op is prepared from now, not from when this batch began.
            batch_start = req->complete_ns;
            after_inline = true;
            LatencyTurn(req->complete_ns, /*idle=*/engine.inflight() == 0);
          } else {
            ++queued;
            if (submit_batch.Queued()) {
              commit();
              queued = 0;
              batch_start = OpClockNanos();
            }
          }
          if (FsyncDue()) break;
        }
      }
      if (queued > 0) {
        commit();
        submit_batch.FillSubmitted();
      }
      if (engine.inflight() == 0) {
        // Only a drain ends here: the window checks are at the turns with completions.
        if (latency_) latency_->Turn(OpClockNanos(), /*idle=*/true, /*windows=*/false);
        if (think_pending_ && !failed_ && !Cancelled()) Think();
        if (BacklogDue() && !failed_ && !Cancelled()) ReadBack(/*backlog=*/true);
        if (LoopFilesDue() && !failed_ && !Cancelled()) RenewLoopFiles();
        if ((flow_pending_ || flow_held) && !failed_) {
          flow_pending_ = false;
          (void)FlowPause();  // a runtime that ended meanwhile is checked below
        }
        now = OpClockNanos();
        if (!MayIssue(now) || failed_) break;
        continue;
      }
      // Reap: wait for at least one completion (or the configured minimum) while still issuing;
      // when draining at the end, wait for one at a time until nothing is in flight.
      const int want = issuing ? std::min(complete_min, engine.inflight()) : 1;
      absl::StatusOr<int> got =
          engine.GetEvents(want, std::span<IoRequest*>(done.data(), complete_max));
      if (!got.ok()) {
        FailWith(got.status());
        break;
      }
      if (*got == 0) {
        // Nothing was in the kernel (an engine caps the wait at what it holds there), yet requests
        // are held: queued ones that a commit did not take (the kernel refused with EAGAIN) or
        // could not take (it failed). They were issued, so a size-based job commits them again
        // (after 1 us when the kernel took nothing, as fio's libaio engine waits) until it can;
        // a failed or cancelled job, or one whose runtime is over, stops and drops them (the
        // Quiesce below): they never started, so nothing of them is measured.
        now = OpClockNanos();
        if (now >= end_ns_) stop_ns_ = std::max(stop_ns_, now);
        if (failed_ || Cancelled() || now >= end_ns_) break;
        if (commit() > 0 || failed_) {
          stall.Reset();
        } else if (!stall.SleepBeforeRetry(now)) {
          FailWith(absl::UnavailableError(
              absl::StrCat("the kernel took none of ", engine.inflight(),
                           " queued requests for 30 s with none in flight (EAGAIN)")));
        }
        continue;
      }
      for (int i = 0; i < *got; ++i) {
        IoRequest* req = done[i];
        Account(*req);
        now = req->complete_ns;
        if (req == &fsync_req) {
          fsync_in_flight = false;
        } else {
          free_slots.push_back(req);
          CountForThink(false, req->complete_ns);
        }
      }
      if (!ramp_pending_) result_.depth.RecordComplete(*got);
      LatencyTurn(now, /*idle=*/false);
    }
    // Requests the loop left behind point into `requests`, which ends here: wait for those in the
    // kernel and drop the queued ones now (a no-op when the loop drained; the engine also takes
    // back what a refused submit left in io_uring's submission ring). A job that had to drop
    // writes the kernel kept refusing does not run its end_fsync: the file would not hold what the
    // job meant to sync.
    dropped_requests_ = engine.inflight() > 0;
    if (absl::Status s = engine.Quiesce(); !s.ok()) FailWith(s);
  }

  // A thread that woke after its measured phase should have begun (a loaded machine) begins it
  // now: the runtime is the job's own, and no interval counts time in which it could not issue.
  // start_realtime_ns is the measured start on the realtime clock (interval 0's origin, op_log's
  // zero), after the ramp.
  void StartMeasuredPhase() {
    const uint64_t now_ns = MonotonicNanos();
    if (now_ns > measure_start_ns_) {
      const uint64_t late_ns = now_ns - measure_start_ns_;
      measure_start_ns_ += late_ns;
      if (end_ns_ != kNoLimit) end_ns_ += late_ns;
      next_interval_ns_ += late_ns;
      op_log_window_end_ns_ += late_ns;
    }
    result_.start_realtime_ns =
        RealtimeNanos() + (static_cast<int64_t>(measure_start_ns_) - static_cast<int64_t>(now_ns));
    cpu_window_.Restart();
    ramp_pending_ = measure_start_ns_ > now_ns;
    if (progress_ != nullptr) {
      progress_->Start(ramp_pending_ ? now_ns : measure_start_ns_, ramp_pending_);
      if (spec_.verify_only) progress_->SetState(CloneRunState::kVerifying);
    }
  }

  // The CLOCK_REALTIME instant of `op_clock_ns`, a reading of this thread's op clock (the TSC or
  // CLOCK_MONOTONIC, agent/engines/op_clock.h): now on the realtime clock, less how long ago that
  // reading was. Now is read between two op-clock reads and paired with their midpoint, so a
  // preemption between the reads costs at most half of it. Error: that, plus any slewing or step of
  // the realtime clock over (op_clock_ns, now), which is the run's drain, not its length.
  static int64_t RealtimeOfOpClock(uint64_t op_clock_ns) {
    const uint64_t before_ns = OpClockNanos();
    const int64_t realtime_ns = RealtimeNanos();
    const uint64_t after_ns = OpClockNanos();  // >= before_ns: readings never go back on a thread
    const uint64_t now_ns = before_ns + (after_ns - before_ns) / 2;
    // Both are nanoseconds on one monotonic timeline, so their distance fits an int64_t; the
    // reading is later than now only for a job that ended before its ramp did (`last` is then
    // the measured start, still ahead).
    if (op_clock_ns <= now_ns) return realtime_ns - static_cast<int64_t>(now_ns - op_clock_ns);
    return realtime_ns + static_cast<int64_t>(op_clock_ns - now_ns);
  }

  void FailWith(const absl::Status& status) {
    if (result_.error_errno == 0 && result_.error_message.empty()) {
      result_.error_errno = EIO;
      result_.error_message = absl::StrCat("engine ", std::string(clone_.engine->name()),
                                           " (clone ", clone_.index, "): ", status.message());
    }
    failed_ = true;
  }

  void EndFsync() {
    IoEngine& engine = *clone_.engine;
    for (const auto& file : clone_.files) {
      IoRequest req;
      PrepareFsync(req, file.fd);
      req.datasync = false;
      req.start_ns = OpClockNanos();
      QueueResult r = engine.Queue(&req);
      if (r == QueueResult::kQueued) {
        // A commit the kernel refuses (EAGAIN) is retried, as in the loop.
        SubmitStall stall;
        for (;;) {
          absl::StatusOr<int> submitted = engine.Commit();
          if (!submitted.ok()) {
            FailWith(submitted.status());
            return;
          }
          if (*submitted > 0) break;
          if (!stall.SleepBeforeRetry(OpClockNanos())) {
            FailWith(absl::UnavailableError(
                "end_fsync: the kernel did not take the fsync for 30 s (EAGAIN)"));
            return;
          }
        }
        IoRequest* done[1];
        absl::StatusOr<int> got = engine.GetEvents(1, std::span<IoRequest*>(done, 1));
        if (!got.ok()) {
          FailWith(got.status());
          return;
        }
        if (*got != 1) {
          FailWith(absl::InternalError("end_fsync: the engine returned no completion"));
          return;
        }
      } else if (r == QueueResult::kBusy) {
        // Only when the loop's quiesce failed to wait for requests still in the kernel.
        FailWith(absl::UnavailableError("end_fsync: requests still in flight"));
        return;
      }
      Account(req);
    }
  }

  const JobSpec& spec_;
  const OpClockSource& op_clock_;
  BlockIoJob::Clone& clone_;
  const RunControl& control_;
  uint64_t start_ns_;
  std::atomic<uint64_t>& ops_done_;
  std::atomic<uint64_t>& bytes_done_;
  CloneProgress* progress_;  // null: nobody watches the clone's state
  // The clone's measured totals per direction for progress_.
  PerDirection live_bytes_{};
  PerDirection live_ops_{};
  Rng mix_rng_;
  bool async_;
  uint64_t measure_start_ns_ = 0;
  uint64_t end_ns_ = kNoLimit;
  LoopCounter loops_{0, 0, 1, /*unbounded=*/true};  // set in the constructor
  uint64_t rewound_loop_ = 0;  // the loop whose start the offsets were last rewound to
  // unlink_each_loop: the loop at whose start the files were last removed and opened again.
  uint64_t renewed_loop_ = 0;
  int last_data_dir_ = 0;  // the last read or write's direction (0 read, 1 write), for think time
  uint64_t next_interval_ns_ = 0;
  int64_t interval_index_ = 0;
  uint64_t last_complete_ns_ = 0;
  uint64_t stop_ns_ = 0;  // when the loop stopped issuing because the runtime had ended
  RatePacer pacer_;
  // thinktime, resolved once; think_pending_ stops issuing until the queue drained and it ran.
  uint64_t think_ns_ = 0;
  uint64_t think_spin_ns_ = 0;
  uint64_t think_blocks_ = 1;
  uint64_t think_count_ = 0;
  uint64_t thinks_owed_ = 0;
  uint64_t think_iotime_ns_ = 0;
  uint64_t last_think_ns_ = 0;  // when the last think time ended (the first op until then)
  bool think_pending_ = false;
  // fio's flow_sleep; flow_pending_ stops issuing until the queue drained and it was slept.
  uint64_t flow_sleep_ns_ = 0;
  bool flow_pending_ = false;
  // rate_min / rate_iops_min: measured data completions per direction, and at the last check.
  bool check_min_rate_ = false;
  uint64_t rate_cycle_ns_ = 0;
  uint64_t next_rate_check_ns_ = 0;
  uint64_t rate_checked_ns_ = 0;
  std::array<uint64_t, 2> dir_bytes_ = {0, 0};
  std::array<uint64_t, 2> dir_ops_ = {0, 0};
  std::array<uint64_t, 2> checked_bytes_ = {0, 0};
  std::array<uint64_t, 2> checked_ops_ = {0, 0};
  // latency_target's search (agent/workloads/block_io/latency_target.h), when the job sets one.
  std::optional<LatencyTargetSearch> latency_;
  // The job's options that the loop consults on every op, resolved once.
  enum class Direction { kRead, kWrite, kTrim, kTrimWrite, kMixed };
  Direction direction_ = Direction::kRead;
  // trimwrite: the last trim's range, which the next op writes (due).
  struct Trimmed {
    bool due = false;
    size_t file = 0;
    uint64_t offset_bytes = 0;
    uint32_t length_bytes = 0;
  };
  Trimmed trimmed_;
  const bool random_ = IsRandom(spec_.rw);
  const bool rw_modified_ = random_ ? spec_.rw_seq_nr > 1 || spec_.percentage_random[0] < 100 ||
                                          spec_.percentage_random[1] < 100
                                    : spec_.rw_seq_add_bytes != 0;
  int seq_countdown_ = 1;        // as fio 3.33: the first I/O of `randread:<n>` is a random one
  int sync_every_n_writes_ = 0;  // 0: no fsync/fdatasync during the run
  bool op_log_enabled_ = false;
  bool op_log_capped_ = true;
  int writes_since_fsync_ = 0;
  bool dropped_requests_ = false;  // the async loop ended with requests it had to drop
  size_t file_cursor_ = 0;
  uint64_t ops_on_file_ = 0;
  uint64_t local_ops_ = 0;
  uint64_t progress_due_ns_ = 0;  // op clock; FlushProgress at the first completion past it
  uint64_t local_bytes_ = 0;
  bool failed_ = false;
  uint64_t op_log_window_end_ns_ = 0;
  uint64_t op_log_in_window_ = 0;
  std::vector<OpRecord> op_log_;
  IntervalAccumulator accum_;
  // This thread's CPU in the measured phase; restarted when the ramp ends.
  ThreadCpuWindow cpu_window_;
  // The measured phase has not begun: ramp_time runs, nothing (ops, CPU, queue depths) counts yet.
  bool ramp_pending_ = false;
  // verify: what the job does (set in the constructor), the writes to read back, and the one being
  // read back.
  struct WrittenBlock {
    uint64_t offset_bytes = 0;
    uint64_t seed = 0;
    uint32_t file = 0;
    uint32_t length_bytes = 0;
    uint16_t numberio = 0;
  };
  bool stamp_writes_ = false;   // writes carry verify headers
  bool record_writes_ = false;  // writes are read back after the job's writes
  bool checking_ = false;       // blocks read are checked (not for verify=null or ioengine=null)
  bool check_reads_ = false;    // reads are checked now
  bool check_numberio_ = false;
  bool seeded_data_ = false;  // writes take their data from their verify seed
  uint64_t writes_stamped_ = 0;
  std::vector<WrittenBlock> written_;
  const WrittenBlock* reading_back_ = nullptr;
  JobResult result_;
};

}  // namespace

BlockIoJob::Clone::~Clone() {
  const int left = engine != nullptr ? engine->inflight() : 0;
  engine.reset();
  if (left > 0 && buffers != nullptr) {
    spdlog::warn(
        "clone {}: {} requests were still in the kernel when its engine went: its {} buffers of {} "
        "bytes are kept allocated until the agent exits, not freed while the kernel may write "
        "into them",
        index, left, buffers->count(), buffers->size_bytes());
    KeepBuffersForTheKernel(std::move(buffers));
  }
  for (File& f : files) {
    if (f.fd >= 0 && !f.engine_handle) close(f.fd);
  }
}

JobResult RunBlockIoClone(const JobSpec& spec, BlockIoJob::Clone& clone, const RunControl& control,
                          const OpClockSource& op_clock, uint64_t start_ns,
                          std::atomic<uint64_t>& ops_done, std::atomic<uint64_t>& bytes_done,
                          CloneProgress* progress) {
  CloneRunner runner(spec, clone, control, op_clock, start_ns, ops_done, bytes_done, progress);
  return runner.Run();
}

}  // namespace azbench
