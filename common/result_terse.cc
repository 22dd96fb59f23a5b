#include "common/result_terse.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {

namespace {

using nlohmann::json;

uint64_t U(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return 0;
  return it->is_number_float() ? static_cast<uint64_t>(it->get<double>()) : it->get<uint64_t>();
}

double D(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

// min; max; mean; stddev of a latency object, ns -> us as fio (integer division for min/max).
void AddLatency(const json& lat, std::string& out) {
  absl::StrAppendFormat(&out, ";%u;%u;%f;%f", U(lat, "min") / 1000, U(lat, "max") / 1000,
                        D(lat, "mean") / 1000, D(lat, "stddev") / 1000);
}

void AddDirection(const json& dir, int terse_version, const ReportChoice& percentiles,
                  std::string& out) {
  absl::StrAppend(&out, ";", U(dir, "io_kbytes"), ";", U(dir, "bw"), ";", U(dir, "iops"), ";",
                  U(dir, "runtime"));
  const json& clat = dir.value("clat_ns", json::object());
  AddLatency(dir.value("slat_ns", json::object()), out);
  AddLatency(clat, out);
  // The total latency's list with lat_percentiles, else clat's, else none; a direction without
  // samples shows the list's values at 0, as fio's.
  const bool listed = percentiles.lat || percentiles.clat;
  const json pct = dir.value(percentiles.lat ? "lat_ns" : "clat_ns", json::object())
                       .value("percentile", json::object());
  const size_t count = listed ? percentiles.list.size() : 0;
  for (size_t i = 0; i < static_cast<size_t>(kMaxPercentiles); ++i) {
    if (i >= count) {
      out += ";0%=0";
      continue;
    }
    const std::string key = absl::StrFormat("%f", percentiles.list[i]);
    absl::StrAppendFormat(&out, ";%s%%=%u", key, U(pct, key.c_str()) / 1000);
  }
  AddLatency(dir.value("lat_ns", json::object()), out);
  absl::StrAppendFormat(&out, ";%u;%u;%f%%;%f;%f", U(dir, "bw_min"), U(dir, "bw_max"),
                        D(dir, "bw_agg"), D(dir, "bw_mean"), D(dir, "bw_dev"));
  // Version 5 adds the bandwidth samples and the IOPS statistics (min; max; mean; stddev;
  // samples).
  if (terse_version == 5) {
    absl::StrAppendFormat(&out, ";%u;%u;%u;%f;%f;%u", U(dir, "bw_samples"), U(dir, "iops_min"),
                          U(dir, "iops_max"), D(dir, "iops_mean"), D(dir, "iops_stddev"),
                          U(dir, "iops_samples"));
  }
}

std::string JobLine(const json& job, const std::string& version, const json& disks,
                    int terse_version, const ReportChoice& percentiles) {
  // Version 2 has no fio version field.
  std::string out = terse_version == 2 ? absl::StrCat("2;", job.value("jobname", std::string()))
                                       : absl::StrCat(terse_version, ";", version, ";",
                                                      job.value("jobname", std::string()));
  absl::StrAppend(&out, ";", U(job, "groupid"), ";", U(job, "error"));
  // unified_rw_reporting (common/report_choice.h): mixed's slots in place of read's and no
  // others; both's after the last direction's.
  if (job.contains("mixed") && !job.contains("read")) {
    AddDirection(job.at("mixed"), terse_version, percentiles, out);
  } else {
    AddDirection(job.value("read", json::object()), terse_version, percentiles, out);
    AddDirection(job.value("write", json::object()), terse_version, percentiles, out);
    // Versions 2, 4 and 5 have trim fields; version 3 has none, as fio's.
    if (terse_version != 3) {
      AddDirection(job.value("trim", json::object()), terse_version, percentiles, out);
    }
    if (job.contains("mixed")) AddDirection(job.at("mixed"), terse_version, percentiles, out);
  }
  absl::StrAppendFormat(&out, ";%f%%;%f%%;%u;%u;%u", D(job, "usr_cpu"), D(job, "sys_cpu"),
                        U(job, "ctx"), U(job, "majf"), U(job, "minf"));
  const json depth = job.value("iodepth_level", json::object());
  for (const char* key : {"1", "2", "4", "8", "16", "32", ">=64"}) {
    absl::StrAppendFormat(&out, ";%3.1f%%", D(depth, key));
  }
  static constexpr std::array<const char*, 10> kRanges = {"2",   "4",   "10",  "20",  "50",
                                                          "100", "250", "500", "750", "1000"};
  const json ns = job.value("latency_ns", json::object());
  const json us = job.value("latency_us", json::object());
  const json ms = job.value("latency_ms", json::object());
  double below_1us = 0;
  for (const char* key : kRanges) below_1us += D(ns, key);
  for (size_t i = 0; i < kRanges.size(); ++i) {
    absl::StrAppendFormat(&out, ";%3.2f%%", D(us, kRanges[i]) + (i == 0 ? below_1us : 0.0));
  }
  for (const char* key : kRanges) absl::StrAppendFormat(&out, ";%3.2f%%", D(ms, key));
  for (const char* key : {"2000", ">=2000"}) absl::StrAppendFormat(&out, ";%3.2f%%", D(ms, key));
  // Version 2 has no disk fields.
  for (const json& disk : terse_version == 2 ? json::array() : disks) {
    absl::StrAppendFormat(
        &out, ";%s;%u;%u;%u;%u;%u;%u;%u;%3.2f%%", disk.value("name", std::string()),
        U(disk, "read_ios"), U(disk, "write_ios"), U(disk, "read_merges"), U(disk, "write_merges"),
        U(disk, "read_ticks"), U(disk, "write_ticks"), U(disk, "in_queue"), D(disk, "util"));
  }
  // As fio: a job with continue_on_error adds its error count and first error.
  if (job.contains("total_err")) {
    absl::StrAppend(&out, ";", U(job, "total_err"), ";", U(job, "first_error"));
  }
  out += "\n";
  return out;
}

}  // namespace

bool IsFioTerseVersion(int version) {
  return std::find(kFioTerseVersions.begin(), kFioTerseVersions.end(), version) !=
         kFioTerseVersions.end();
}

std::string FioTerseLines(const json& document, int terse_version,
                          const std::vector<ReportChoice>& percentiles) {
  const std::string version = document.value("fio version", std::string());
  const json disks = document.value("disk_util", json::array());
  std::string out;
  size_t index = 0;
  for (const json& job : document.value("jobs", json::array())) {
    out += JobLine(job, version, disks, terse_version, ChoiceOfJob(percentiles, index));
    ++index;
  }
  return out;
}

}  // namespace azbench
