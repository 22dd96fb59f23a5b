#include "coordinator/visibility_join.h"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/units.h"
#include "common/visibility_summary.h"

namespace azbench {

namespace {

// The reader agent's own summary counted its trials against its schedule; after the join it is
// restated with the joined counts (a trial the writer failed is failed), and its "seen before the
// write returned" line is dropped: the join's note gives the joined count.
void RestateReaderSummary(JobResult& result, uint64_t visible, uint64_t timed_out, uint64_t failed,
                          size_t trials) {
  std::vector<std::string> kept;
  for (std::string& w : result.warnings) {
    if (IsSeenBeforeWrite(w)) continue;
    if (std::optional<VisibilityCounts> counts = ParseVisibilityCounts(w); counts.has_value()) {
      counts->visible = visible;
      counts->trials = trials;
      counts->timed_out = timed_out;
      counts->failed = failed;
      w = FormatVisibilityCounts(*counts);
    }
    kept.push_back(std::move(w));
  }
  result.warnings = std::move(kept);
}

}  // namespace

bool IsClientToClientWriter(const std::vector<OpRecord>& records) {
  return !records.empty() && records.front().kind == OpKind::kWrite;
}

void JoinClientToClient(const ClientToClientHalf& writer,
                        std::vector<ClientToClientHalf>& readers) {
  const std::vector<OpRecord>& written = *writer.records;
  for (ClientToClientHalf& reader : readers) {
    std::vector<OpRecord>& seen = *reader.records;
    JobResult& result = *reader.result;
    if (seen.size() != written.size()) {
      result.warnings.push_back(absl::StrCat(
          "client_to_client: not joined with writer ", writer.agent_id, " (", written.size(),
          " trials, this reader ", seen.size(),
          "): latency counted from the scheduled instant, so it includes the write time"));
      continue;
    }
    uint64_t ops = 0, errors = 0, timed_out = 0;
    Histogram lat;  // exact: one Record per joined sample
    int early = 0, writer_failed = 0;
    for (size_t i = 0; i < seen.size(); ++i) {
      const OpRecord& w = written[i];
      OpRecord& r = seen[i];
      const int64_t done_ns = writer.result->start_realtime_ns + static_cast<int64_t>(w.start_ns) +
                              static_cast<int64_t>(w.latency_ns);
      const int64_t seen_ns = result.start_realtime_ns + static_cast<int64_t>(r.start_ns) +
                              static_cast<int64_t>(r.latency_ns);
      r.start_ns = static_cast<uint64_t>(std::max<int64_t>(0, done_ns - result.start_realtime_ns));
      if (w.error != 0) {
        ++writer_failed;
        ++errors;
        r.error = EIO;
        r.latency_ns = 0;
        continue;
      }
      int64_t latency_ns = seen_ns - done_ns;
      if (latency_ns < 0) {
        if (r.error == 0) ++early;
        latency_ns = 0;
      }
      r.latency_ns = static_cast<uint64_t>(latency_ns);
      if (r.error == 0) {
        ++ops;
        lat.Record(r.latency_ns);
      } else {
        ++errors;
        if (r.error == ETIMEDOUT) ++timed_out;
      }
    }
    RestateReaderSummary(result, ops, timed_out, errors - timed_out, seen.size());
    OpStats& probe = result.Stats(OpKind::kProbe);
    probe.ops = ops;
    probe.errors = errors;
    probe.lat = lat;
    const int64_t uncertainty_ns = (writer.clock_rtt_ns + reader.clock_rtt_ns) / 2;
    std::string note = absl::StrCat(
        "client_to_client: visibility latency counted from writer ", writer.agent_id,
        "'s write completion, on the coordinator clock; clock-offset uncertainty +-",
        FormatNanos(static_cast<double>(uncertainty_ns)), " (writer RTT/2 + reader RTT/2); ", early,
        " trial(s) seen before the write returned, clamped to 0");
    if (writer_failed > 0) absl::StrAppend(&note, "; ", writer_failed, " failed at the writer");
    result.warnings.push_back(std::move(note));
  }
}

}  // namespace azbench
