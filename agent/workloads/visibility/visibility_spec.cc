#include "agent/workloads/visibility/visibility_spec.h"

#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent/s3/default_credentials.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/workload_spec.h"

namespace azbench {
namespace {

absl::Status OptionError(const std::string& key, const std::string& value,
                         const absl::Status& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("visibility option ", key, "=", value, ": ", why.message()));
}

}  // namespace

const char* VisibilityProbeName(VisibilityProbe probe) {
  switch (probe) {
    case VisibilityProbe::kClientToClient:
      return "client_to_client";
    case VisibilityProbe::kExport:
      return "export";
    case VisibilityProbe::kImport:
      return "import";
    case VisibilityProbe::kAppend:
      return "append";
    case VisibilityProbe::kConflict:
      return "conflict";
  }
  return "unknown";
}

absl::StatusOr<VisibilitySpec> ParseVisibilityOptions(
    const std::vector<std::pair<std::string, std::string>>& options) {
  std::map<std::string, std::string> given;
  for (const auto& [key, value] : options) given[key] = value;
  VisibilitySpec spec;
  auto probe_it = given.find("probe");
  if (probe_it == given.end()) {
    return absl::InvalidArgumentError(
        "visibility workload needs option probe: client_to_client, export, import, append or "
        "conflict");
  }
  const std::string& probe = probe_it->second;
  if (probe == "client_to_client") {
    spec.probe = VisibilityProbe::kClientToClient;
    spec.schedule = {20, absl::Seconds(1), absl::Milliseconds(100), absl::Seconds(60)};
    spec.size_bytes = 4096;
  } else if (probe == "export") {
    spec.probe = VisibilityProbe::kExport;
    spec.schedule = {20, absl::Seconds(5), absl::Milliseconds(500), absl::Seconds(180)};
  } else if (probe == "import") {
    spec.probe = VisibilityProbe::kImport;
    spec.schedule = {20, absl::Seconds(3), absl::Milliseconds(200), absl::Seconds(180)};
  } else if (probe == "append") {
    spec.probe = VisibilityProbe::kAppend;
    spec.schedule = {1, absl::ZeroDuration(), absl::Milliseconds(500), absl::Seconds(180)};
    spec.size_bytes = 64;
  } else if (probe == "conflict") {
    spec.probe = VisibilityProbe::kConflict;
    spec.schedule = {1, absl::ZeroDuration(), absl::Milliseconds(500), absl::Seconds(180)};
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("visibility option probe=", probe,
                     ": allowed are client_to_client, export, import, append, conflict"));
  }
  for (const auto& option : given) {
    const std::string& key = option.first;
    const std::string& value = option.second;
    auto fail = [&](const absl::Status& s) { return OptionError(key, value, s); };
    auto duration = [&](absl::Duration* out, bool positive) -> absl::Status {
      absl::StatusOr<absl::Duration> d = ParseDuration(value);
      if (!d.ok()) return fail(d.status());
      if (positive ? *d <= absl::ZeroDuration() : *d < absl::ZeroDuration()) {
        return fail(absl::InvalidArgumentError(positive ? "must be > 0" : "must be >= 0"));
      }
      *out = *d;
      return absl::OkStatus();
    };
    auto boolean = [&](bool* out) -> absl::Status {
      absl::StatusOr<bool> b = ParseBool(value);
      if (!b.ok()) return fail(b.status());
      *out = *b;
      return absl::OkStatus();
    };
    if (key == "probe") continue;
    if (key == "trials") {
      absl::StatusOr<int64_t> n = ParseInt(value, 1, 100000);
      if (!n.ok()) return fail(n.status());
      spec.schedule.trials = static_cast<int>(*n);
    } else if (key == "spacing") {
      RETURN_IF_ERROR(duration(&spec.schedule.spacing, false));
    } else if (key == "poll_interval") {
      RETURN_IF_ERROR(duration(&spec.schedule.poll_interval, true));
    } else if (key == "timeout") {
      RETURN_IF_ERROR(duration(&spec.schedule.timeout, true));
    } else if (key == "size") {
      absl::StatusOr<uint64_t> n = ParseSize(value);
      if (!n.ok()) return fail(n.status());
      spec.size_bytes = *n;
    } else if (key == "read_method") {
      absl::StatusOr<VisibilityReadMethod> m = ParseVisibilityReadMethod(value);
      if (!m.ok()) return fail(m.status());
      spec.read_method = *m;
    } else if (key == "fsync") {
      RETURN_IF_ERROR(boolean(&spec.write.fsync));
    } else if (key == "close") {
      RETURN_IF_ERROR(boolean(&spec.write.close));
    } else if (key == "rename_into_place") {
      RETURN_IF_ERROR(boolean(&spec.write.rename_into_place));
    } else if (key == "read_dir") {
      spec.read_dir = value;
    } else if (key == "role") {
      if (value == "local") {
        spec.role = VisibilityRole::kLocal;
      } else if (value == "writer") {
        spec.role = VisibilityRole::kWriter;
      } else if (value == "reader") {
        spec.role = VisibilityRole::kReader;
      } else {
        return fail(absl::InvalidArgumentError("allowed are local, writer, reader"));
      }
    } else if (key == "bucket") {
      spec.target.bucket = value;
    } else if (key == "key_prefix") {
      spec.target.key_prefix = value;
    } else if (key == "rel_dir") {
      spec.target.rel_dir = value;
    } else if (key == "run_id") {
      spec.target.run_id = value;
    } else if (key == "append_interval") {
      RETURN_IF_ERROR(duration(&spec.append_interval, true));
    } else if (key == "append_duration") {
      RETURN_IF_ERROR(duration(&spec.append_duration, false));
    } else if (key == "put_delay") {
      RETURN_IF_ERROR(duration(&spec.put_delay, false));
    } else if (key == "lost_found_pattern") {
      spec.lost_found_pattern = value;
    } else if (key == "s3_region") {
      spec.s3.region = value;
    } else if (key == "s3_endpoint") {
      spec.s3.endpoint = value;
    } else if (key == "s3_path_style") {
      RETURN_IF_ERROR(boolean(&spec.s3.path_style));
    } else if (key == "s3_profile") {
      spec.s3_profile = value;
    } else if (key == "s3_credentials_file") {
      spec.s3_credentials_file = value;
    } else if (key == "nfs_url") {
      spec.nfs_url = value;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "visibility option '", key,
          "' is unknown; allowed: probe, trials, spacing, poll_interval, timeout, size, "
          "read_method, fsync, close, rename_into_place, read_dir, role, bucket, key_prefix, "
          "rel_dir, "
          "run_id, append_interval, append_duration, put_delay, lost_found_pattern, s3_region, "
          "s3_endpoint, s3_path_style, s3_profile, s3_credentials_file, nfs_url"));
    }
  }
  spec.write.size_bytes = spec.size_bytes;
  if (spec.probe != VisibilityProbe::kClientToClient && spec.target.bucket.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("visibility probe ", probe,
                                                   " needs option bucket (the synchronised "
                                                   "bucket)"));
  }
  // The coordinator's check, so that the rules between options (common/workload_spec.h) are
  // written once and a campaign that plans is one every agent accepts.
  RETURN_IF_ERROR(ValidateVisibilityOptions(options));
  return spec;
}

absl::StatusOr<VisibilityResult> RunVisibility(const VisibilitySpec& spec,
                                               const std::string& directory,
                                               s3::MetadataSource* metadata, ProbeClock& clock,
                                               std::function<bool()> cancelled, absl::Time start_at,
                                               const VisibilityBaseDirs& dirs) {
  if (spec.probe == VisibilityProbe::kClientToClient) {
    ClientToClientOptions o;
    o.write_dir = directory;
    o.read_dir = spec.read_dir.empty() ? directory : spec.read_dir;
    o.write_base = dirs.directory;
    o.read_base = spec.read_dir.empty() ? dirs.directory : dirs.read_dir;
    o.read_pending = dirs.read_pending;
    o.name_prefix = absl::StrCat(spec.target.run_id, "-c2c");
    o.write = spec.write;
    o.read_method = spec.read_method;
    o.schedule = spec.schedule;
    o.cancelled = cancelled;
    o.nfs_url = spec.nfs_url;
    if (spec.role == VisibilityRole::kLocal) return RunClientToClientProbe(o, clock);
    if (start_at == absl::InfinitePast()) start_at = clock.Now();
    absl::StatusOr<std::vector<TrialOutcome>> half =
        spec.role == VisibilityRole::kWriter ? RunClientToClientWriter(o, start_at, clock)
                                             : RunClientToClientReader(o, start_at, clock);
    RETURN_IF_ERROR(half.status());
    VisibilityResult result;
    result.probe = spec.role == VisibilityRole::kWriter ? "client_to_client_writer"
                                                        : "client_to_client_reader";
    result.resolution = spec.schedule.poll_interval;
    result.timeout = spec.schedule.timeout;
    result.trials = std::move(*half);
    return result;
  }
  s3::DefaultChainOptions chain;
  chain.credentials_file = spec.s3_credentials_file;
  chain.profile = spec.s3_profile;
  chain.metadata = metadata;
  s3::S3Client client(spec.s3, s3::MakeDefaultCredentialsChain(std::move(chain)));
  S3ProbeTarget target = spec.target;
  target.mount_dir = directory;
  target.mount = dirs.directory;
  switch (spec.probe) {
    case VisibilityProbe::kExport: {
      ExportProbeOptions o{target, spec.schedule, spec.size_bytes, cancelled};
      return RunExportProbe(o, client, clock);
    }
    case VisibilityProbe::kImport: {
      ImportProbeOptions o{target, spec.schedule, spec.size_bytes, spec.read_method, cancelled};
      return RunImportProbe(o, client, clock);
    }
    case VisibilityProbe::kAppend: {
      AppendProbeOptions o;
      o.target = target;
      o.append_interval = spec.append_interval;
      o.append_duration = spec.append_duration;
      o.poll_interval = spec.schedule.poll_interval;
      o.timeout = spec.schedule.timeout;
      o.append_bytes = spec.size_bytes;
      o.cancelled = cancelled;
      return RunAppendProbe(o, client, clock);
    }
    case VisibilityProbe::kConflict: {
      ConflictProbeOptions o;
      o.target = target;
      o.put_delay = spec.put_delay;
      o.poll_interval = spec.schedule.poll_interval;
      o.timeout = spec.schedule.timeout;
      o.lost_found_pattern = spec.lost_found_pattern;
      o.size_bytes = spec.size_bytes;
      o.trials = spec.schedule.trials;
      o.cancelled = cancelled;
      return RunConflictProbe(o, client, clock);
    }
    case VisibilityProbe::kClientToClient:
      break;
  }
  return absl::InternalError("unreachable visibility probe");
}

}  // namespace azbench
