// The coordinator's check of a visibility workload's options (declared in common/workload_spec.h):
// each value alone, then what depends on the probe chosen. The agent's parser
// (agent/workloads/visibility/visibility_spec.cc) runs it too, then builds the probe's spec.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/workload_spec.h"

namespace azbench {

namespace {

// The probes a visibility option applies to ("" = every probe). An option a probe would ignore is
// refused rather than silently dropped.
std::string VisibilityOptionProbes(const std::string& key) {
  static constexpr std::pair<const char*, const char*> kApplies[] = {
      {"trials", "client_to_client, export, import, conflict"},
      {"spacing", "client_to_client, export, import"},
      {"read_method", "client_to_client, import"},
      {"fsync", "client_to_client"},
      {"close", "client_to_client"},
      {"rename_into_place", "client_to_client"},
      {"read_dir", "client_to_client"},
      {"role", "client_to_client"},
      {"nfs_url", "client_to_client"},
      {"bucket", "export, import, append, conflict"},
      {"key_prefix", "export, import, append, conflict"},
      {"rel_dir", "export, import, append, conflict"},
      {"s3_region", "export, import, append, conflict"},
      {"s3_endpoint", "export, import, append, conflict"},
      {"s3_path_style", "export, import, append, conflict"},
      {"s3_profile", "export, import, append, conflict"},
      {"s3_credentials_file", "export, import, append, conflict"},
      {"append_interval", "append"},
      {"append_duration", "append"},
      {"put_delay", "conflict"},
      {"lost_found_pattern", "conflict"},
  };
  for (const auto& [option, probes] : kApplies) {
    if (key == option) return probes;
  }
  return "";
}

bool ListHas(const std::string& list, const std::string& item) {
  for (absl::string_view part : absl::StrSplit(list, ", ")) {
    if (part == item) return true;
  }
  return false;
}

}  // namespace

absl::Status ValidateVisibilityOptionValue(const std::string& key, const std::string& value) {
  auto fail = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("visibility option ", key, "=", value, ": ", std::string(why)));
  };
  absl::Status s = absl::OkStatus();
  if (!IsWorkloadOption(WorkloadFamily::kVisibility, key)) {
    return absl::InvalidArgumentError(
        UnknownWorkloadOption(WorkloadFamily::kVisibility, key).message());
  } else if (key == "probe") {
    if (value != "client_to_client" && value != "export" && value != "import" &&
        value != "append" && value != "conflict") {
      return fail("allowed are client_to_client, export, import, append, conflict");
    }
  } else if (key == "trials") {
    s = ParseInt(value, 1, 100000).status();
  } else if (key == "spacing" || key == "append_duration" || key == "put_delay") {
    absl::StatusOr<absl::Duration> d = ParseDuration(value);
    if (d.ok() && *d < absl::ZeroDuration()) return fail("must be >= 0");
    s = d.status();
  } else if (key == "poll_interval" || key == "timeout" || key == "append_interval") {
    absl::StatusOr<absl::Duration> d = ParseDuration(value);
    if (d.ok() && *d <= absl::ZeroDuration()) return fail("must be > 0");
    s = d.status();
  } else if (key == "size") {
    s = ParseSize(value).status();
  } else if (key == "fsync" || key == "close" || key == "rename_into_place" ||
             key == "s3_path_style") {
    s = ParseBool(value).status();
  } else if (key == "read_method") {
    if (value != "stat" && value != "open_read" && value != "readdir") {
      return fail("allowed are stat, open_read, readdir");
    }
  } else if (key == "role") {
    if (value != "local" && value != "writer" && value != "reader") {
      return fail("allowed are local, writer, reader");
    }
  } else if (key == "nfs_url") {
    s = ParseNfsUrl(value).status();
  } else if (key == "key_prefix") {
    // Keys are <key_prefix><rel_dir>/<name>: a prefix is a directory of the bucket, or nothing.
    if (!value.empty() && value.back() != '/') {
      return fail("must be empty or end in '/' (the mount shows the bucket directory it names)");
    }
  }
  if (!s.ok()) return fail(std::string(s.message()));
  return absl::OkStatus();
}

absl::Status ValidateVisibilityOptions(
    const std::vector<std::pair<std::string, std::string>>& options) {
  std::string probe;
  bool has_bucket = false;
  // The conflict probe's defaults (agent/workloads/visibility/visibility_spec.cc).
  absl::Duration put_delay = absl::Seconds(10), timeout = absl::Seconds(180);
  std::string put_delay_text = "10s (the default)", timeout_text = "180s (the default)";
  for (const auto& [key, value] : options) {
    RETURN_IF_ERROR(ValidateVisibilityOptionValue(key, value));
    if (key == "probe") probe = value;
    if (key == "bucket") has_bucket = !value.empty();
    if (key == "put_delay") {
      put_delay = *ParseDuration(value);
      put_delay_text = value;
    }
    if (key == "timeout") {
      timeout = *ParseDuration(value);
      timeout_text = value;
    }
  }
  if (probe.empty()) {
    return absl::InvalidArgumentError(
        "visibility workload needs option probe: client_to_client, export, import, append or "
        "conflict");
  }
  if (probe != "client_to_client" && !has_bucket) {
    return absl::InvalidArgumentError(
        absl::StrCat("visibility probe ", probe, " needs option bucket (the synchronised bucket)"));
  }
  for (const auto& [key, value] : options) {
    const std::string applies = VisibilityOptionProbes(key);
    if (!applies.empty() && !ListHas(applies, probe)) {
      return absl::InvalidArgumentError(absl::StrCat("visibility option ", key,
                                                     " does not apply to probe ", probe,
                                                     "; it applies to ", applies));
    }
  }
  if (probe == "conflict" && put_delay >= timeout) {
    // The trial ends `timeout` after the FS write: the PutObject would never be made.
    return absl::InvalidArgumentError(absl::StrCat(
        "visibility option put_delay=", put_delay_text, ": must be less than timeout (",
        timeout_text, "), which counts from the FS write; the PutObject would never be made"));
  }
  return absl::OkStatus();
}

}  // namespace azbench
