#include "coordinator/visibility_join.h"

#include <algorithm>
#include <cerrno>

#include "absl/strings/str_cat.h"
#include "common/units.h"

namespace azbench {

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
    uint64_t ops = 0, errors = 0;
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
      }
    }
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
