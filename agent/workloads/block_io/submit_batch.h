// When the asynchronous job loop makes a submit call: fio's iodepth_batch_submit, counted the way
// fio 3.33 counts it.
//
// fio counts the requests queued since its last batch submit and submits when that count reaches
// iodepth_batch_submit. Before it waits for completions it also submits whatever is still queued,
// but that submit does not restart the count (td_io_getevents calls the engine's commit directly,
// and only td_io_commit resets td->io_u_queued). So a refill after a reap is split where the
// running count crosses the batch size. This matters on a real device: a virtio disk completes the
// requests of one submit call together, and a loop that resubmitted every reaped group whole
// would lock the queue into one large burst and a few stragglers (measured: 15 + 1 at iodepth 16,
// ~10% fewer IOPS than fio with the same options; bench/README.md).
//
// Without an explicit iodepth_batch_submit azbench chooses the batch itself (one request per call
// for O_DIRECT, every free slot in one call for buffered I/O), and the count restarts with each
// fill.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_SUBMIT_BATCH_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_SUBMIT_BATCH_H_

#include <algorithm>

namespace azbench {

class SubmitBatch {
 public:
  // `batch_size` >= 1 requests per batch submit; `count_across_fills`: fio's counting (an explicit
  // iodepth_batch_submit).
  SubmitBatch(int batch_size, bool count_across_fills)
      : batch_size_(std::max(1, batch_size)), count_across_fills_(count_across_fills) {}

  // One request was queued; true when a batch submit call is due now (the count restarts).
  bool Queued() {
    if (++count_ < batch_size_) return false;
    count_ = 0;
    return true;
  }

  // The loop submitted the rest of its fill before waiting for completions.
  void FillSubmitted() {
    if (!count_across_fills_) count_ = 0;
  }

  int count() const { return count_; }

 private:
  int batch_size_;
  bool count_across_fills_;
  int count_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_SUBMIT_BATCH_H_
