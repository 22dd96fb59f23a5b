// Where a block-I/O clone stands in its loops (fio's `loops`): a loop ends after io_size bytes or,
// with number_ios, after that many I/Os, whichever comes first, and the next starts over at the
// regions' start. The I/Os of ramp_time are not counted (the caller does not report them). A
// time_based clone's loops never end: its runtime ends it.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LOOP_COUNTER_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LOOP_COUNTER_H_

#include <cstdint>
#include <limits>

namespace azbench {

class LoopCounter {
 public:
  static constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

  // `loop_bytes`: io_size; `loop_ops`: number_ios (0: no cap); `loops` >= 1; `unbounded`: a
  // time_based clone.
  LoopCounter(uint64_t loop_bytes, uint64_t loop_ops, uint64_t loops, bool unbounded)
      : loop_bytes_(loop_bytes),
        loop_ops_(loop_ops),
        loops_(loops == 0 ? 1 : loops),
        unbounded_(unbounded) {}

  bool bounded() const { return !unbounded_; }

  // Every loop is complete (or Stop was called): the clone issues no more.
  bool done() const { return stopped_ || (!unbounded_ && (loop_ >= loops_ || loop_bytes_ == 0)); }

  // The current loop, from 0; it changes when an I/O completes a loop.
  uint64_t loop() const { return loop_; }

  // The most bytes the next I/O may have, so that a loop's last I/O ends at its io_size.
  uint64_t BytesLeftInLoop() const { return unbounded_ ? kNoLimit : loop_bytes_ - bytes_; }

  // One counted I/O of `bytes` (at most BytesLeftInLoop) was issued.
  void Issued(uint64_t bytes) {
    undo_ = {loop_, bytes_, ops_};
    if (unbounded_) return;
    bytes_ += bytes;
    ++ops_;
    if (bytes_ >= loop_bytes_ || (loop_ops_ != 0 && ops_ >= loop_ops_)) {
      ++loop_;
      bytes_ = 0;
      ops_ = 0;
    }
  }

  // Takes back the last Issued: the engine refused that I/O and it will be issued again.
  void Unissue() {
    loop_ = undo_.loop;
    bytes_ = undo_.bytes;
    ops_ = undo_.ops;
  }

  // No more I/O (fill_device found the file system full).
  void Stop() { stopped_ = true; }

 private:
  struct Position {
    uint64_t loop = 0;
    uint64_t bytes = 0;
    uint64_t ops = 0;
  };

  uint64_t loop_bytes_;
  uint64_t loop_ops_;
  uint64_t loops_;
  bool unbounded_;
  bool stopped_ = false;
  uint64_t loop_ = 0;
  uint64_t bytes_ = 0;  // of the current loop
  uint64_t ops_ = 0;    // of the current loop
  Position undo_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_LOOP_COUNTER_H_
