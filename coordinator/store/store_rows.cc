#include "coordinator/store/store_rows.h"

namespace azbench {
namespace store_rows {

namespace {

// Unsigned LEB128.
void PutVarint(uint64_t v, std::string& out) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view in, size_t& pos, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && pos < in.size(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in[pos++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

std::string EncodeBuckets(const std::vector<Histogram::Bucket>& buckets) {
  std::string out;
  out.reserve(buckets.size() * 3);
  int32_t previous = 0;
  for (const auto& b : buckets) {
    PutVarint(static_cast<uint64_t>(b.index - previous), out);
    PutVarint(b.count, out);
    previous = b.index;
  }
  return out;
}

bool DecodeBuckets(std::string_view blob, std::vector<Histogram::Bucket>& buckets) {
  size_t pos = 0;
  uint64_t index = 0;
  while (pos < blob.size()) {
    uint64_t delta, count;
    if (!GetVarint(blob, pos, delta) || !GetVarint(blob, pos, count)) return false;
    if (count == 0 || (!buckets.empty() && delta == 0)) return false;
    index += delta;
    if (index >= static_cast<uint64_t>(Histogram::kBucketCount)) return false;
    buckets.push_back({static_cast<int32_t>(index), count});
  }
  return true;
}

json PairsToJson(const std::vector<std::pair<std::string, std::string>>& pairs) {
  json out = json::array();
  for (const auto& [k, v] : pairs) out.push_back(json::array({k, v}));
  return out;
}

bool PairsFromJson(const json& j, std::vector<std::pair<std::string, std::string>>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_array() || item.size() != 2 || !item[0].is_string() || !item[1].is_string()) {
      return false;
    }
    out.emplace_back(item[0].get<std::string>(), item[1].get<std::string>());
  }
  return true;
}

json StringsToJson(const std::vector<std::string>& strings) {
  json out = json::array();
  for (const auto& s : strings) out.push_back(s);
  return out;
}

bool StringsFromJson(const json& j, std::vector<std::string>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_string()) return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

std::string DepthToText(const DepthStats& depth) {
  if (!depth.measured()) return "";
  return json{{"level", depth.level}, {"submit", depth.submit}, {"complete", depth.complete}}
      .dump();
}

bool DepthFromText(const std::string& text, DepthStats& out) {
  out = DepthStats{};
  if (text.empty()) return true;
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  for (auto [key, buckets] : {std::pair{"level", &out.level}, std::pair{"submit", &out.submit},
                              std::pair{"complete", &out.complete}}) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array() || it->size() != DepthStats::kBuckets) return false;
    for (int i = 0; i < DepthStats::kBuckets; ++i) {
      if (!(*it)[i].is_number_unsigned()) return false;
      (*buckets)[i] = (*it)[i].get<uint64_t>();
    }
  }
  return true;
}

std::string SteadyStateToText(const std::optional<SteadyStateResult>& steadystate) {
  if (!steadystate) return "";
  const SteadyStateResult& ss = *steadystate;
  return json{{"iops", ss.spec.iops},
              {"slope", ss.spec.slope},
              {"percent", ss.spec.percent},
              {"limit", ss.spec.limit},
              {"duration_ns", absl::ToInt64Nanoseconds(ss.spec.duration)},
              {"ramp_ns", absl::ToInt64Nanoseconds(ss.spec.ramp)},
              {"attained", ss.attained},
              {"criterion", ss.criterion},
              {"max_deviation", ss.max_deviation},
              {"slope_value", ss.slope},
              {"iops_samples", ss.iops},
              {"bw_samples", ss.bw}}
      .dump();
}

bool SteadyStateFromText(const std::string& text, std::optional<SteadyStateResult>& out) {
  out.reset();
  if (text.empty()) return true;
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  SteadyStateResult ss;
  auto boolean = [&](const char* key, bool& field) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_boolean()) return false;
    field = it->get<bool>();
    return true;
  };
  auto number = [&](const char* key, double& field) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return false;
    field = it->get<double>();
    return true;
  };
  auto nanoseconds = [&](const char* key, absl::Duration& field) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return false;
    field = absl::Nanoseconds(it->get<int64_t>());
    return true;
  };
  auto samples = [&](const char* key, std::vector<uint64_t>& field) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return false;
    for (const json& v : *it) {
      if (!v.is_number_unsigned()) return false;
      field.push_back(v.get<uint64_t>());
    }
    return true;
  };
  if (!boolean("iops", ss.spec.iops) || !boolean("slope", ss.spec.slope) ||
      !boolean("percent", ss.spec.percent) || !number("limit", ss.spec.limit) ||
      !nanoseconds("duration_ns", ss.spec.duration) || !nanoseconds("ramp_ns", ss.spec.ramp) ||
      !boolean("attained", ss.attained) || !number("criterion", ss.criterion) ||
      !number("max_deviation", ss.max_deviation) || !number("slope_value", ss.slope) ||
      !samples("iops_samples", ss.iops) || !samples("bw_samples", ss.bw)) {
    return false;
  }
  out = std::move(ss);
  return true;
}

json JobsToJson(const std::vector<ScenarioJob>& jobs) {
  json out = json::array();
  for (const auto& job : jobs) {
    out.push_back({{"name", job.name},
                   {"workload", job.workload},
                   {"group_id", job.group_id},
                   {"options", PairsToJson(job.options)}});
  }
  return out;
}

bool JobsFromJson(const json& j, std::vector<ScenarioJob>& out) {
  if (!j.is_array()) return false;
  for (const auto& item : j) {
    if (!item.is_object()) return false;
    auto name = item.find("name"), workload = item.find("workload"), group = item.find("group_id"),
         options = item.find("options");
    if (name == item.end() || !name->is_string() || workload == item.end() ||
        !workload->is_string() || group == item.end() || !group->is_number_integer() ||
        options == item.end()) {
      return false;
    }
    ScenarioJob job;
    job.name = name->get<std::string>();
    job.workload = workload->get<std::string>();
    job.group_id = group->get<int>();
    if (!PairsFromJson(*options, job.options)) return false;
    out.push_back(std::move(job));
  }
  return true;
}

std::optional<ScenarioStatus> StatusFromName(std::string_view name) {
  for (ScenarioStatus s : {ScenarioStatus::kComplete, ScenarioStatus::kPartial,
                           ScenarioStatus::kFailed, ScenarioStatus::kSkipped}) {
    if (name == ScenarioStatusName(s)) return s;
  }
  return std::nullopt;
}

}  // namespace store_rows
}  // namespace azbench
