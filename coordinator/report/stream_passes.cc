#include "coordinator/report/stream_passes.h"

#include <algorithm>
#include <climits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/stats.h"

namespace azbench {

namespace {

constexpr char kLargeStream[] = "large_stream";
constexpr char kPassSuffix[] = ".pass";

// The pass number of a result named "<job>.pass<N>" (N >= 1), or 0.
int PassNumber(const std::string& result_name, const std::string& job) {
  const std::string prefix = absl::StrCat(job, kPassSuffix);
  if (result_name.size() <= prefix.size() || result_name.compare(0, prefix.size(), prefix) != 0) {
    return 0;
  }
  int pass = 0;
  if (!absl::SimpleAtoi(std::string(result_name.substr(prefix.size())), &pass)) return 0;
  return pass >= 1 && pass <= 1'000'000 ? pass : 0;
}

double MibPerSecond(uint64_t bytes, uint64_t ns) {
  return ns == 0 ? 0 : static_cast<double>(bytes) / kMiB / (static_cast<double>(ns) / 1e9);
}

std::optional<double> Mean(const std::vector<std::optional<double>>& values) {
  double sum = 0;
  int n = 0;
  for (const auto& v : values) {
    if (!v) continue;
    sum += *v;
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

StreamPasses BuildJob(const ScenarioResult& result, const std::string& job) {
  StreamPasses out;
  out.job = job;
  struct Window {
    int64_t first_start = INT64_MAX, last_end = INT64_MIN;
    uint64_t bytes = 0;
    bool timed = true;
  };
  std::vector<Window> windows;
  for (const AgentJobResult& r : result.results) {
    const int pass = PassNumber(r.result.name, job);
    if (pass == 0) continue;
    auto agent = std::find_if(out.agents.begin(), out.agents.end(),
                              [&](const AgentStreamPasses& a) { return a.agent_id == r.agent_id; });
    if (agent == out.agents.end()) {
      agent = out.agents.insert(out.agents.end(), AgentStreamPasses{r.agent_id, {}, std::nullopt});
    }
    if (agent->passes.size() < static_cast<size_t>(pass)) agent->passes.resize(pass);
    std::optional<StreamPass>& slot = agent->passes[pass - 1];
    if (!slot) slot.emplace();
    StreamPass& p = *slot;
    for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
      if (const OpStats* s = r.result.Find(kind)) p.bytes += s->bytes;
    }
    p.errors += r.result.TotalErrors();
    p.runtime_ns = std::max(p.runtime_ns, r.result.runtime_ns);
    p.mib_s = MibPerSecond(p.bytes, p.runtime_ns);
    out.passes = std::max(out.passes, pass);

    if (windows.size() < static_cast<size_t>(pass)) windows.resize(pass);
    Window& w = windows[pass - 1];
    for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
      if (const OpStats* s = r.result.Find(kind)) w.bytes += s->bytes;
    }
    if (r.result.start_realtime_ns == 0 || r.result.end_realtime_ns <= r.result.start_realtime_ns) {
      w.timed = false;
    } else {
      w.first_start = std::min(w.first_start, r.result.start_realtime_ns);
      w.last_end = std::max(w.last_end, r.result.end_realtime_ns);
    }
  }
  for (AgentStreamPasses& agent : out.agents) {
    agent.passes.resize(out.passes);
    std::vector<std::optional<double>> values;
    for (const auto& p : agent.passes) {
      values.push_back(p && p->runtime_ns > 0 ? std::optional<double>(p->mib_s) : std::nullopt);
    }
    agent.mean_mib_s = Mean(values);
  }
  out.aggregate_mib_s.resize(out.passes);
  for (int pass = 0; pass < out.passes; ++pass) {
    if (out.agents.size() == 1) {
      const auto& p = out.agents[0].passes[pass];
      if (p && p->runtime_ns > 0) out.aggregate_mib_s[pass] = p->mib_s;
      continue;
    }
    const Window& w = windows[pass];
    if (w.timed && w.last_end > w.first_start) {
      out.aggregate_mib_s[pass] =
          MibPerSecond(w.bytes, static_cast<uint64_t>(w.last_end - w.first_start));
      continue;
    }
    double sum = 0;
    bool any = false;
    for (const AgentStreamPasses& agent : out.agents) {
      const auto& p = agent.passes[pass];
      if (p && p->runtime_ns > 0) {
        sum += p->mib_s;
        any = true;
      }
    }
    if (any) out.aggregate_mib_s[pass] = sum;
  }
  out.aggregate_mean_mib_s = Mean(out.aggregate_mib_s);
  return out;
}

}  // namespace

std::vector<StreamPasses> BuildStreamPasses(const ScenarioResult& result) {
  std::vector<StreamPasses> out;
  for (const ScenarioJob& job : result.scenario.jobs) {
    if (job.workload != kLargeStream) continue;
    if (std::any_of(out.begin(), out.end(), [&](const auto& s) { return s.job == job.name; })) {
      continue;
    }
    out.push_back(BuildJob(result, job.name));
  }
  return out;
}

StreamPassTable BuildStreamPassTable(const ReportInput& input, const ReportCell& cell) {
  StreamPassTable table;
  for (const TargetColumn& column : cell.targets) {
    for (size_t i : column.kept) {
      const ScenarioResult& r = input.scenarios[i];
      for (const StreamPasses& job : BuildStreamPasses(r)) {
        if (job.passes == 0) continue;
        table.passes = std::max(table.passes, job.passes);
        for (const AgentStreamPasses& agent : job.agents) {
          StreamPassRow row{column.target,   r.scenario.repeat, job.job, agent.agent_id, false, {},
                            agent.mean_mib_s};
          for (const auto& p : agent.passes) {
            row.mib_s.push_back(p && p->runtime_ns > 0 ? std::optional<double>(p->mib_s)
                                                       : std::nullopt);
          }
          table.rows.push_back(std::move(row));
        }
        if (job.agents.size() > 1) {
          table.rows.push_back(StreamPassRow{column.target, r.scenario.repeat, job.job,
                                             "all agents", true, job.aggregate_mib_s,
                                             job.aggregate_mean_mib_s});
        }
      }
    }
  }
  for (StreamPassRow& row : table.rows) row.mib_s.resize(table.passes);
  return table;
}

std::string FormatPassMibPerSecond(const std::optional<double>& mib_s) {
  return mib_s ? FormatMibPerSecond(*mib_s) : "-";
}

}  // namespace azbench
