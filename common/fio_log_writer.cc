#include "common/fio_log_writer.h"

#include <algorithm>
#include <cerrno>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/errno_text.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

constexpr std::array<const char*, 6> kTypeNames = {"bw",   "iops", "lat",
                                                   "clat", "slat", "clat_hist"};

// fio's ddir of an op kind, or -1 for kinds fio does not log.
int DdirOf(OpKind kind) {
  switch (kind) {
    case OpKind::kRead:
      return 0;
    case OpKind::kWrite:
      return 1;
    case OpKind::kTrim:
      return 2;
    default:
      return -1;
  }
}

}  // namespace

int FioClatBin(uint64_t latency_ns) {
  constexpr int kBits = 6;  // bits kept below the most significant one
  if (latency_ns < (uint64_t{2} << kBits)) return static_cast<int>(latency_ns);
  const int msb = 63 - __builtin_clzll(latency_ns);
  const int dropped = msb - kBits;
  const uint64_t bin =
      (uint64_t(dropped + 1) << kBits) + ((latency_ns >> dropped) & ((uint64_t{1} << kBits) - 1));
  return static_cast<int>(std::min<uint64_t>(bin, kFioClatBins - 1));
}

absl::StatusOr<std::unique_ptr<FioLogWriter>> FioLogWriter::Open(const std::vector<Job>& jobs,
                                                                 const std::string& path_prefix) {
  std::unique_ptr<FioLogWriter> writer(new FioLogWriter());
  writer->jobs_ = jobs;
  int thread_number = 1;
  for (const Job& job : writer->jobs_) {
    const FioLogOptions& o = job.options;
    const std::array<const std::optional<std::string>*, kLogTypes> prefixes = {
        &o.bw_prefix, &o.iops_prefix, &o.lat_prefix, &o.lat_prefix, &o.lat_prefix, &o.hist_prefix};
    for (int clone = 0; clone < job.clones; ++clone, ++thread_number) {
      if (!o.Any()) continue;
      CloneLog& log = writer->clones_[{job.name, clone}];
      log.options = &job.options;
      for (int type = 0; type < kLogTypes; ++type) {
        if (!prefixes[type]->has_value()) continue;
        const std::string& named = (*prefixes[type])->empty() ? job.name : **prefixes[type];
        const std::string prefix = named.starts_with('/') ? named : path_prefix + named;
        const std::string path =
            o.per_job_logs ? absl::StrCat(prefix, "_", kTypeNames[type], ".", thread_number, ".log")
                           : absl::StrCat(prefix, "_", kTypeNames[type], ".log");
        auto it = writer->files_.find(path);
        if (it == writer->files_.end()) {
          errno = 0;
          std::FILE* file = std::fopen(path.c_str(), "w");
          if (file == nullptr) {
            return ErrnoStatus(errno, absl::StrCat("cannot create log file '", path, "'"));
          }
          it = writer->files_.emplace(path, file).first;
          writer->paths_.emplace(file, path);
        }
        log.files[type] = it->second;
      }
    }
  }
  return writer;
}

FioLogWriter::~FioLogWriter() { (void)Close(); }

bool FioLogWriter::Wants(const std::string& job) const {
  return std::any_of(jobs_.begin(), jobs_.end(),
                     [&](const Job& j) { return j.name == job && j.options.Any(); });
}

absl::Status FioLogWriter::Line(CloneLog& log, LogType type, uint64_t time_ms, uint64_t value,
                                int ddir, uint64_t bs, uint64_t offset) {
  std::FILE* file = log.files[type];
  if (file == nullptr) return absl::OkStatus();
  const int n = log.options->offset ? std::fprintf(file, "%llu, %llu, %d, %llu, %llu, 0\n",
                                                   static_cast<unsigned long long>(time_ms),
                                                   static_cast<unsigned long long>(value), ddir,
                                                   static_cast<unsigned long long>(bs),
                                                   static_cast<unsigned long long>(offset))
                                    : std::fprintf(file, "%llu, %llu, %d, %llu, 0\n",
                                                   static_cast<unsigned long long>(time_ms),
                                                   static_cast<unsigned long long>(value), ddir,
                                                   static_cast<unsigned long long>(bs));
  if (n < 0)
    return absl::InternalError(absl::StrCat("writing log file '", paths_[file], "' failed"));
  return absl::OkStatus();
}

absl::Status FioLogWriter::CountHist(CloneLog& log, int ddir, uint64_t time_ms, uint64_t clat_ns,
                                     uint64_t bs) {
  std::FILE* file = log.files[kHist];
  const uint64_t window_ms = log.options->hist_msec;
  if (file == nullptr || window_ms == 0) return absl::OkStatus();
  HistWindow& w = log.hist[ddir];
  if (w.bins.empty()) w.bins.assign(kFioClatBins, 0);
  ++w.bins[FioClatBin(clat_ns)];
  // fio's window starts at the first op of a direction completed after its first millisecond.
  if (w.began_ms == 0) w.began_ms = time_ms;
  const uint64_t elapsed_ms = time_ms > w.began_ms ? time_ms - w.began_ms : 0;
  if (elapsed_ms < window_ms) return absl::OkStatus();
  std::string line = absl::StrCat(time_ms, ", ", ddir, ", ", bs);
  const int stride = 1 << log.options->hist_coarseness;
  for (int first = 0; first < kFioClatBins; first += stride) {
    uint64_t sum = 0;
    for (int bin = first; bin < first + stride; ++bin) sum += w.bins[bin];
    absl::StrAppend(&line, ", ", sum);
  }
  line += '\n';
  if (std::fputs(line.c_str(), file) < 0) {
    return absl::InternalError(absl::StrCat("writing log file '", paths_[file], "' failed"));
  }
  std::fill(w.bins.begin(), w.bins.end(), 0);
  // The next window begins where this one should have ended: a late line does not delay it.
  w.began_ms = time_ms - (elapsed_ms - window_ms);
  return absl::OkStatus();
}

absl::Status FioLogWriter::EndWindow(CloneLog& log, bool last) {
  const uint64_t avg_ms = log.options->avg_msec;
  const uint64_t time_ms = (log.window + 1) * avg_ms;
  for (int ddir = 0; ddir < 3; ++ddir) {
    Direction& d = log.dirs[ddir];
    if (d.seen && !last) {
      // fio's rate of a window: bytes * 1000 / ms / 1024 (KiB/s), ops * 1000 / ms.
      RETURN_IF_ERROR(Line(log, kBw, time_ms, d.bytes * 1000 / avg_ms / 1024, ddir, 0, 0));
      RETURN_IF_ERROR(Line(log, kIops, time_ms, d.ops * 1000 / avg_ms, ddir, 0, 0));
    }
    for (int lat = 0; lat < 3; ++lat) {
      if (d.samples[lat] == 0) continue;
      const uint64_t value =
          log.options->max_value ? d.max_ns[lat] : d.sum_ns[lat] / d.samples[lat];
      RETURN_IF_ERROR(Line(log, static_cast<LogType>(kLat + lat), time_ms, value, ddir, 0, 0));
    }
    const bool seen = d.seen;
    d = Direction{};
    d.seen = seen;
  }
  ++log.window;
  return absl::OkStatus();
}

absl::Status FioLogWriter::Append(const std::string& job, int clone,
                                  const std::vector<OpRecord>& records) {
  auto it = clones_.find({job, clone});
  if (it == clones_.end()) return absl::OkStatus();
  CloneLog& log = it->second;
  const uint64_t avg_ms = log.options->avg_msec;
  for (const OpRecord& r : records) {
    const int ddir = DdirOf(r.kind);
    if (r.error != 0 || ddir < 0) continue;
    const uint64_t complete_ns = r.start_ns + r.latency_ns;
    const uint64_t slat_ns = r.has_slat ? std::min(r.slat_ns, r.latency_ns) : 0;
    const uint64_t clat_ns = r.latency_ns - slat_ns;
    RETURN_IF_ERROR(CountHist(log, ddir, complete_ns / 1'000'000, clat_ns, r.bytes));
    if (avg_ms == 0) {
      const uint64_t time_ms = complete_ns / 1'000'000;
      const uint64_t bw = clat_ns == 0 ? 0 : uint64_t{r.bytes} * 1'000'000 / clat_ns;
      RETURN_IF_ERROR(Line(log, kBw, time_ms, bw, ddir, r.bytes, r.offset_bytes));
      RETURN_IF_ERROR(Line(log, kIops, time_ms, 1, ddir, r.bytes, r.offset_bytes));
      RETURN_IF_ERROR(Line(log, kLat, time_ms, r.latency_ns, ddir, r.bytes, r.offset_bytes));
      RETURN_IF_ERROR(Line(log, kClat, time_ms, clat_ns, ddir, r.bytes, r.offset_bytes));
      if (r.has_slat) {
        RETURN_IF_ERROR(Line(log, kSlat, time_ms, slat_ns, ddir, r.bytes, r.offset_bytes));
      }
      continue;
    }
    // fio's windows end at a whole millisecond and take the ops of that millisecond: window k
    // holds the ops completed in ms (k * M, (k + 1) * M].
    const uint64_t elapsed_ms = complete_ns / 1'000'000;
    const uint64_t window = elapsed_ms == 0 ? 0 : (elapsed_ms - 1) / avg_ms;
    while (log.window < window) RETURN_IF_ERROR(EndWindow(log, /*last=*/false));
    Direction& d = log.dirs[ddir];
    d.seen = true;
    d.bytes += r.bytes;
    ++d.ops;
    const std::array<uint64_t, 3> values = {r.latency_ns, clat_ns, slat_ns};
    for (int lat = 0; lat < 3; ++lat) {
      if (lat == 2 && !r.has_slat) continue;
      d.sum_ns[lat] += values[lat];
      ++d.samples[lat];
      d.max_ns[lat] = std::max(d.max_ns[lat], values[lat]);
    }
  }
  return absl::OkStatus();
}

absl::Status FioLogWriter::Close() {
  absl::Status status;
  for (auto& [key, log] : clones_) {
    if (log.options->avg_msec > 0) status.Update(EndWindow(log, /*last=*/true));
  }
  clones_.clear();
  for (auto& [path, file] : files_) {
    const bool failed = std::ferror(file) != 0;
    if (std::fclose(file) != 0 || failed) {
      status.Update(absl::InternalError(absl::StrCat("writing log file '", path, "' failed")));
    }
  }
  files_.clear();
  paths_.clear();
  return status;
}

}  // namespace azbench
