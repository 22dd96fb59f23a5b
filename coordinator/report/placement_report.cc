#include "coordinator/report/placement_report.h"

#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/campaign/campaign.h"

namespace azbench {
namespace {

using Parameters = std::vector<std::pair<std::string, std::string>>;

std::string PlacementOf(const Parameters& parameters) {
  for (const auto& [axis, value] : parameters) {
    if (axis == kPlacementAxis) return value;
  }
  return "";
}

Parameters WithoutPlacement(const Parameters& parameters) {
  Parameters out;
  for (const auto& p : parameters) {
    if (p.first != kPlacementAxis) out.push_back(p);
  }
  return out;
}

std::string Ratio(double same, double cross) {
  if (same <= 0 || cross <= 0) return "-";
  return absl::StrFormat("%.2fx", cross / same);
}

std::string Escape(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\";
    out.push_back(c);
  }
  return out;
}

// Why a side of a comparison has no figures: the first failed/skipped scenario's reason.
std::string MissingReason(const ReportInput& input, const TargetColumn* column) {
  if (column == nullptr) return "not run";
  for (size_t i : column->failed) {
    const ScenarioResult& r = input.scenarios[i];
    const std::string reason = r.scenario.skipped ? r.scenario.skip_reason : r.status_detail;
    return absl::StrCat(ScenarioStatusName(r.status), reason.empty() ? "" : ": ", reason);
  }
  return "no data";
}

struct Comparison {
  std::string workload;
  Parameters parameters;  // without placement
  std::map<std::string, const ReportCell*> by_placement;
};

void RenderComparison(const ReportInput& input, const Comparison& c, std::string& out) {
  std::vector<std::string> targets;
  for (const auto& [placement, cell] : c.by_placement) {
    for (const TargetColumn& t : cell->targets) {
      if (std::find(targets.begin(), targets.end(), t.target) == targets.end()) {
        targets.push_back(t.target);
      }
    }
  }
  auto column = [&](const std::string& placement,
                    const std::string& target) -> const TargetColumn* {
    auto it = c.by_placement.find(placement);
    if (it == c.by_placement.end()) return nullptr;
    for (const TargetColumn& t : it->second->targets) {
      if (t.target == target) return &t;
    }
    return nullptr;
  };
  const std::string params = ParametersText(c.parameters);
  for (const std::string& target : targets) {
    const TargetColumn* same = column(kPlacementSameAz, target);
    const TargetColumn* cross = column(kPlacementCrossAz, target);
    const bool same_ok = same != nullptr && !same->repeats.empty();
    const bool cross_ok = cross != nullptr && !cross->repeats.empty();
    absl::StrAppend(&out, "### ", c.workload, params.empty() ? "" : absl::StrCat(" (", params, ")"),
                    ": ", target, "\n\n");
    if (!same_ok && !cross_ok) {
      absl::StrAppend(&out, "same-az: ", Escape(MissingReason(input, same)),
                      "\n\ncross-az: ", Escape(MissingReason(input, cross)), "\n\n");
      continue;
    }
    absl::StrAppend(&out, "| metric | same-az | cross-az | cross/same |\n|---|---:|---:|---:|\n");
    std::vector<OpKind> kinds;
    for (const TargetColumn* t : {same, cross}) {
      if (t == nullptr) continue;
      for (const KeptOp& op : t->ops) {
        if (std::find(kinds.begin(), kinds.end(), op.kind) == kinds.end()) kinds.push_back(op.kind);
      }
    }
    std::sort(kinds.begin(), kinds.end());
    for (OpKind kind : kinds) {
      const KeptOp* s = same_ok ? same->Find(kind) : nullptr;
      const KeptOp* x = cross_ok ? cross->Find(kind) : nullptr;
      const std::string prefix =
          kinds.size() > 1 ? absl::StrCat(std::string(OpKindName(kind)), " ") : "";
      auto row = [&](const std::string& metric, auto value, auto format) {
        const double sv = s != nullptr ? value(*s) : 0;
        const double xv = x != nullptr ? value(*x) : 0;
        absl::StrAppend(&out, "| ", prefix, metric, " | ", s != nullptr ? format(sv) : "-", " | ",
                        x != nullptr ? format(xv) : "-", " | ",
                        s != nullptr && x != nullptr ? Ratio(sv, xv) : "-", " |\n");
      };
      const auto nanos = [](double v) { return FormatNanos(v); };
      row(
          "IOPS", [](const KeptOp& o) { return o.iops; }, [](double v) { return FormatIops(v); });
      const bool bytes = (s != nullptr && s->bytes > 0) || (x != nullptr && x->bytes > 0);
      if (bytes) {
        row(
            "MiB/s", [](const KeptOp& o) { return o.mib_s; },
            [](double v) { return FormatMibPerSecond(v); });
      }
      row(
          "mean lat", [](const KeptOp& o) { return o.lat.mean_ns(); }, nanos);
      row(
          "p50", [](const KeptOp& o) { return static_cast<double>(o.lat.Percentile(50)); }, nanos);
      row(
          "p99", [](const KeptOp& o) { return static_cast<double>(o.lat.Percentile(99)); }, nanos);
    }
    absl::StrAppend(&out, "| agents | ", same_ok ? absl::StrCat(same->max_agents) : "-", " | ",
                    cross_ok ? absl::StrCat(cross->max_agents) : "-", " | |\n\n");
    if (!same_ok) {
      absl::StrAppend(&out, "same-az: ", Escape(MissingReason(input, same)), "\n\n");
    }
    if (!cross_ok) {
      absl::StrAppend(&out, "cross-az: ", Escape(MissingReason(input, cross)), "\n\n");
    }
  }
}

void RenderEvidence(const ReportInput& input, std::string& out) {
  const std::vector<const PlacementEvidence*> rows = DistinctPlacementEvidence(input);
  if (rows.empty()) return;
  absl::StrAppend(&out, "### Placement evidence\n\n",
                  "| agent | target | placement | agent AZ (source) | server address | subnet "
                  "(source) | server AZ (source) | reason | mount and options |\n"
                  "|---|---|---|---|---|---|---|---|---|\n");
  for (const PlacementEvidence* e : rows) {
    const std::string agent_az = e->agent_az.empty()
                                     ? "?"
                                     : (e->agent_az_id.empty() || e->agent_az_id == e->agent_az
                                            ? e->agent_az
                                            : absl::StrCat(e->agent_az, "/", e->agent_az_id));
    absl::StrAppend(
        &out, "| ", e->agent_id, " | ", e->target, " | ", std::string(PlacementName(e->placement)),
        " | ", agent_az, " (", e->az_source, ") | ",
        e->server_address.empty() ? "-"
                                  : absl::StrCat(e->server_address, " (", e->address_source, ")"),
        " | ", e->subnet.empty() ? "-" : absl::StrCat(e->subnet, " (", e->subnet_source, ")"),
        " | ",
        e->server_az.empty() ? "-" : absl::StrCat(e->server_az, " (", e->server_az_source, ")"),
        " | ", Escape(e->reason), " | ", e->mount.empty() ? "-" : Escape(e->mount), " |\n");
  }
  absl::StrAppend(&out, "\n");
}

}  // namespace

std::vector<const PlacementEvidence*> DistinctPlacementEvidence(const ReportInput& input) {
  using Key =
      std::tuple<std::string, std::string, Placement, std::string, std::string, std::string>;
  std::set<Key> seen;
  std::vector<const PlacementEvidence*> rows;
  for (const ScenarioResult& r : input.scenarios) {
    for (const PlacementEvidence& e : r.scenario.placements) {
      if (seen.insert(
                  Key{e.agent_id, e.target, e.placement, e.server_address, e.server_az, e.mount})
              .second) {
        rows.push_back(&e);
      }
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
    return std::tie(a->agent_id, a->target) < std::tie(b->agent_id, b->target);
  });
  return rows;
}

std::string RenderPlacementView(const ReportInput& input) {
  bool any_axis = false, any_evidence = false;
  for (const ScenarioResult& r : input.scenarios) {
    any_axis = any_axis || !PlacementOf(r.scenario.parameters).empty();
    // Evidence that only says "unknown" (local disks, a local fleet) is no view of its own.
    for (const PlacementEvidence& e : r.scenario.placements) {
      any_evidence = any_evidence || e.placement != Placement::kUnknown;
    }
  }
  if (!any_axis && !any_evidence) return "";
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  const std::vector<ReportCell> cells = BuildCells(input, figures);
  std::vector<Comparison> comparisons;
  for (const ReportCell& cell : cells) {
    const std::string placement = PlacementOf(cell.parameters);
    if (placement.empty()) continue;
    const Parameters rest = WithoutPlacement(cell.parameters);
    Comparison* c = nullptr;
    for (Comparison& existing : comparisons) {
      if (existing.workload == cell.workload && existing.parameters == rest) c = &existing;
    }
    if (c == nullptr) {
      comparisons.push_back(Comparison{cell.workload, rest, {}});
      c = &comparisons.back();
    }
    c->by_placement[placement] = &cell;
  }
  std::string out = "## Placement: same-AZ vs cross-AZ\n\n";
  if (comparisons.empty()) {
    absl::StrAppend(&out,
                    "No `placement` axis in this campaign: the evidence below says where "
                    "each agent ran relative to each target.\n\n");
  }
  for (const Comparison& c : comparisons) RenderComparison(input, c, out);
  RenderEvidence(input, out);
  return out;
}

}  // namespace azbench
