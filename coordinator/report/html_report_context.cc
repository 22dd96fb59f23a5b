// MakeHtmlReportContext (html_report.h): the stored campaign's context, its YAML read leniently
// when it no longer parses here.
#include "coordinator/report/html_report.h"

#include <string>
#include <utility>

#include "common/units.h"
#include "yaml-cpp/yaml.h"

namespace azbench {

HtmlReportContext MakeHtmlReportContext(const CampaignRecord& record) {
  HtmlReportContext context;
  context.campaign_file = record.file;
  context.started_at_ns = record.started_at_ns;
  context.finished_at_ns = record.finished_at_ns;
  context.azbench_version = record.azbench_version;
  if (absl::StatusOr<Campaign> c = ParseCampaign(record.campaign_yaml, record.file); c.ok()) {
    context.campaign = std::move(*c);
    return context;
  }
  // Lenient: only what the summary shows, each field skipped when it is not what it should be.
  try {
    const YAML::Node root = YAML::Load(record.campaign_yaml);
    if (!root.IsMap()) return context;
    Campaign campaign;
    campaign.name = record.name;
    if (const YAML::Node targets = root["targets"]; targets && targets.IsSequence()) {
      for (const YAML::Node& t : targets) {
        if (!t.IsMap() || !t["name"] || !t["name"].IsScalar()) continue;
        CampaignTarget target;
        target.name = t["name"].as<std::string>();
        if (t["path"] && t["path"].IsScalar()) target.path = t["path"].as<std::string>();
        if (t["server_az"] && t["server_az"].IsScalar()) {
          target.server_az = t["server_az"].as<std::string>();
        }
        if (t["kind"] && t["kind"].IsScalar()) {
          const std::string kind = t["kind"].as<std::string>();
          for (TargetKind k : {TargetKind::kEfs, TargetKind::kFsxOpenZfs, TargetKind::kFsxLustre,
                               TargetKind::kS3Files, TargetKind::kLocal, TargetKind::kOther}) {
            if (TargetKindName(k) == kind) target.kind = k;
          }
        }
        if (t["labels"] && t["labels"].IsMap()) {
          for (const auto& kv : t["labels"]) {
            if (kv.first.IsScalar() && kv.second.IsScalar()) {
              target.labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
            }
          }
        }
        campaign.targets.push_back(std::move(target));
      }
    }
    if (const YAML::Node matrix = root["matrix"]; matrix && matrix.IsMap()) {
      for (const auto& kv : matrix) {
        if (!kv.first.IsScalar() || !kv.second.IsSequence()) continue;
        MatrixAxis axis;
        axis.key = kv.first.as<std::string>();
        for (const YAML::Node& v : kv.second) {
          if (v.IsScalar()) axis.values.push_back(v.as<std::string>());
        }
        campaign.matrix.push_back(std::move(axis));
      }
    }
    if (root["repeats"] && root["repeats"].IsScalar()) {
      absl::StatusOr<int64_t> repeats = ParseInt(root["repeats"].as<std::string>(), 1, 1000000);
      if (repeats.ok()) campaign.repeats = static_cast<int>(*repeats);
    }
    context.campaign = std::move(campaign);
    context.campaign_read_leniently = true;
  } catch (const YAML::Exception&) {
    // Not YAML at all: the summary says the campaign could not be read.
  }
  return context;
}

}  // namespace azbench
