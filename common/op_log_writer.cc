#include "common/op_log_writer.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/errno_text.h"

namespace azbench {

absl::StatusOr<std::unique_ptr<OpLogWriter>> OpLogWriter::Open(const std::string& path) {
  errno = 0;
  gzFile file = gzopen(path.c_str(), "wb6");
  if (file == nullptr) {
    // gzopen leaves errno from open(2) when that is what failed (0: out of memory in zlib).
    const int error = errno;
    const std::string what = absl::StrCat("cannot create op log '", path, "'");
    if (error != 0) return ErrnoStatus(error, what);
    return absl::ResourceExhaustedError(absl::StrCat(what, ": no memory"));
  }
  std::unique_ptr<OpLogWriter> writer(new OpLogWriter(path, file));
  static constexpr char kHeader[] = "clone,start_ns,op,offset,bytes,latency_ns,errno\n";
  if (gzwrite(file, kHeader, sizeof(kHeader) - 1) <= 0) {
    return absl::InternalError(absl::StrCat("cannot write op log '", path, "'"));
  }
  return writer;
}

OpLogWriter::~OpLogWriter() { (void)Close(); }

absl::Status OpLogWriter::Append(const std::vector<OpRecord>& records) {
  if (file_ == nullptr) return absl::InternalError(absl::StrCat("op log '", path_, "' is closed"));
  std::string text;
  text.reserve(records.size() * 48);
  char line[160];
  for (const OpRecord& r : records) {
    const int n = std::snprintf(
        line, sizeof(line), "%u,%llu,%s,%llu,%u,%llu,%d\n", static_cast<unsigned>(r.clone),
        static_cast<unsigned long long>(r.start_ns), std::string(OpKindName(r.kind)).c_str(),
        static_cast<unsigned long long>(r.offset_bytes), r.bytes,
        static_cast<unsigned long long>(r.latency_ns), r.error);
    text.append(line, static_cast<size_t>(n));
  }
  if (!text.empty() &&
      gzwrite(static_cast<gzFile>(file_), text.data(), static_cast<unsigned>(text.size())) <= 0) {
    return absl::InternalError(absl::StrCat("writing op log '", path_, "' failed"));
  }
  return absl::OkStatus();
}

absl::Status OpLogWriter::Close() {
  if (file_ == nullptr) return absl::OkStatus();
  const int rc = gzclose(static_cast<gzFile>(file_));
  file_ = nullptr;
  if (rc != Z_OK) return absl::InternalError(absl::StrCat("closing op log '", path_, "' failed"));
  return absl::OkStatus();
}

}  // namespace azbench
