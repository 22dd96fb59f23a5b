// mmap: reads and writes are memcpy(3) from and to a shared mapping of the file, as fio's mmap
// engine; fsync and fdatasync are msync(MS_SYNC) of the file's mapping.
//
// As fio, each file the job uses has one mapping: the whole file when it is at most 1 GiB (fio's
// total divided by the number of files), else a window of that size from the request's page. A
// request outside the mapping replaces it. fio lays files out before an mmap job and never
// extends them (FIO_NOEXTEND); here a write past the end grows the file first with ftruncate(2),
// so the bytes land where pwrite would put them. A read past the end is short, as with pread.
// O_DIRECT is refused: fio only imitates it with msync and MADV_DONTNEED, which azbench does not.
// Faults are not errors the engine can catch: a file truncated under the mapping by another
// process kills the agent with SIGBUS, as it kills fio.
//
//   MmapEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 1, .fds = {fd}}));
//   engine.Queue(&request);  // kCompleted; request.result holds bytes or -errno
#ifndef AZBENCH_AGENT_ENGINES_MMAP_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_MMAP_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "agent/engines/io_engine.h"

namespace azbench {

class MmapEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = 1;
  static constexpr uint64_t kTotalMapBytes = uint64_t{1} << 30;

  ~MmapEngine() override;

  std::string_view name() const override { return "mmap"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth other than 1, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }

 private:
  struct Mapping {
    int fd = -1;
    uint8_t* base = nullptr;  // null: nothing mapped
    uint64_t offset_bytes = 0;
    uint64_t length_bytes = 0;
    uint64_t file_bytes = 0;  // the file's size when mapped
  };
  int64_t Execute(const IoRequest& request);
  // Makes `m` cover [offset, offset + length) of its file where the file has bytes; 0 or -errno.
  int64_t Cover(Mapping& m, uint64_t offset_bytes, uint64_t length_bytes, bool write);
  static void Unmap(Mapping& m);

  std::vector<Mapping> mappings_;  // one per EngineOptions::fds
  uint64_t window_bytes_ = kTotalMapBytes;
  Mapping scratch_;  // for an fd not given at Init: mapped for one request
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_MMAP_ENGINE_H_
