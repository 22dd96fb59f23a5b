// Writes raw op records (op_log) as gzip-compressed CSV, one file per agent and job:
//   clone,start_ns,op,offset,bytes,latency_ns,errno
// start_ns counts from the job's measured start on the agent's monotonic clock.
#ifndef AZBENCH_COMMON_OP_LOG_WRITER_H_
#define AZBENCH_COMMON_OP_LOG_WRITER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_result.h"

namespace azbench {

class OpLogWriter {
 public:
  // Creates (truncates) `path`, writing the header line. Errors: Internal naming the path.
  static absl::StatusOr<std::unique_ptr<OpLogWriter>> Open(const std::string& path);
  ~OpLogWriter();  // closes the file (flushes the gzip stream)
  // Errors: Internal naming the path when the write fails (e.g. disk full).
  absl::Status Append(const std::vector<OpRecord>& records);
  absl::Status Close();
  const std::string& path() const { return path_; }

 private:
  OpLogWriter(std::string path, void* file) : path_(std::move(path)), file_(file) {}
  std::string path_;
  void* file_;  // gzFile
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_OP_LOG_WRITER_H_
