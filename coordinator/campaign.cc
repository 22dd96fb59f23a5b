#include "coordinator/campaign.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/file_util.h"
#include "common/fio_jobfile.h"
#include "common/job_spec.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "common/workload_spec.h"
#include "coordinator/cidr.h"
#include "coordinator/fleet.h"

namespace azbench {
namespace {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

constexpr absl::string_view kCampaignKeys[] = {"name",     "fleet",   "targets", "workloads",
                                               "matrix",   "repeats", "keep",    "warmup",
                                               "cooldown", "results", "topology"};
constexpr absl::string_view kTopologyKeys[] = {"subnets"};
constexpr absl::string_view kFleetKeys[] = {"local", "hosts", "hosts_file", "tls", "token_file"};
constexpr absl::string_view kFleetTlsKeys[] = {"ca_file", "cert_file", "key_file", "server_name"};
constexpr absl::string_view kLocalFleetKeys[] = {"agents", "azs"};
constexpr absl::string_view kTargetKeys[] = {"name", "path", "kind", "labels", "server_az"};
constexpr absl::string_view kWorkloadKeys[] = {"name", "workload", "options", "fio_job"};
constexpr int64_t kMaxNodes = 1'000'000;

struct KindName {
  TargetKind kind;
  absl::string_view name;
};
constexpr KindName kKindNames[] = {
    {TargetKind::kEfs, "efs"},
    {TargetKind::kFsxOpenZfs, "fsx-openzfs"},
    {TargetKind::kFsxLustre, "fsx-lustre"},
    {TargetKind::kS3Files, "s3files"},
    {TargetKind::kLocal, "local"},
    {TargetKind::kOther, "other"},
};

struct KeepName {
  KeepPolicy keep;
  absl::string_view name;
};
constexpr KeepName kKeepNames[] = {
    {KeepPolicy::kAll, "all"}, {KeepPolicy::kLast, "last"}, {KeepPolicy::kMedian, "median"}};

template <typename T, size_t N>
std::string JoinNames(const T (&entries)[N]) {
  std::vector<std::string> names;
  for (const T& e : entries) names.emplace_back(e.name);
  return absl::StrJoin(names, ", ");
}

std::string ListOf(const absl::string_view* begin, const absl::string_view* end) {
  return absl::StrJoin(begin, end, ", ");
}

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

bool IsValidName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

// `path` relative to the directory of `base_file` (absolute paths are kept).
std::string ResolveRelativeTo(const std::string& base_file, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  const std::filesystem::path dir = std::filesystem::path(base_file).parent_path();
  return dir.empty() ? path : (dir / p).string();
}

// Applies options to `spec` as an agent does: kb_base first (fio parses it before the other
// options of a section), then the others in order. Unknown options become InvalidArgument.
absl::Status ApplyOptions(JobSpec& spec, const JobOptions& options) {
  for (const bool kb_base_pass : {true, false}) {
    for (const auto& [key, value] : options) {
      if ((key == "kb_base") != kb_base_pass) continue;
      absl::Status status = ApplyJobOption(spec, key, value);
      if (absl::IsNotFound(status)) {
        return absl::InvalidArgumentError(
            absl::StrCat("unknown job option '", key,
                         "'; supported: ", absl::StrJoin(SupportedJobOptionNames(), ", ")));
      }
      if (!status.ok()) return absl::InvalidArgumentError(status.message());
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<JobSpec> SpecFromOptions(const JobOptions& options, absl::string_view job_name) {
  JobSpec spec;
  spec.name = std::string(job_name);
  RETURN_IF_ERROR(ApplyOptions(spec, options));
  RETURN_IF_ERROR(ValidateJobSpec(spec));
  return spec;
}

// --- fio job files -----------------------------------------------------------------------------

absl::StatusOr<std::vector<WorkloadJob>> WorkloadJobsFromFioJobsImpl(
    const std::vector<FioJob>& parsed) {
  std::vector<WorkloadJob> jobs;
  for (const FioJob& fio : parsed) {
    // Agents apply one flat option list (kb_base first); fio applies kb_base per section. They only
    // differ when a job section sets kb_base while [global] set sizes: refuse that case.
    if (!FlatOptionsMatchSpec(fio)) {
      return absl::InvalidArgumentError(
          absl::StrCat(fio.file, ":", fio.line, ": job '", fio.spec.name,
                       "': its sizes depend on kb_base set in a job section after [global] sizes, "
                       "which agents cannot reproduce from one option list; set kb_base in "
                       "[global] only"));
    }
    WorkloadJob job;
    job.name = fio.spec.name;
    job.group_id = fio.group_id;
    for (const FioOption& o : fio.options) job.options.emplace_back(o.key, o.value);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// --- YAML walking ------------------------------------------------------------------------------

std::string NodeTypeName(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "nothing (null)";
    case YAML::NodeType::Scalar:
      return absl::StrCat("the value '", node.Scalar(), "'");
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Undefined:
      break;
  }
  return "nothing";
}

struct Field {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

struct MapFields {
  YAML::Node node;
  std::vector<Field> fields;
  const Field* Find(absl::string_view key) const {
    for (const Field& f : fields) {
      if (f.key == key) return &f;
    }
    return nullptr;
  }
};

class CampaignParser {
 public:
  explicit CampaignParser(std::string file) : file_(std::move(file)) {}

  absl::StatusOr<Campaign> Parse(const YAML::Node& root) {
    Campaign campaign;
    campaign.file = file_;
    if (!root.IsMap()) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(root), ": the campaign must be a map with the keys ",
                       ListOf(std::begin(kCampaignKeys), std::end(kCampaignKeys)), "; got ",
                       NodeTypeName(root)));
    }
    ASSIGN_OR_RETURN(MapFields top, ReadMap(root, "campaign", kCampaignKeys));

    ASSIGN_OR_RETURN(const Field* name, Require(top, "name", ""));
    ASSIGN_OR_RETURN(campaign.name, Name(name->value, "name"));

    ASSIGN_OR_RETURN(const Field* fleet, Require(top, "fleet", ""));
    ASSIGN_OR_RETURN(campaign.fleet, ParseFleet(fleet->value));

    ASSIGN_OR_RETURN(const Field* targets, Require(top, "targets", ""));
    ASSIGN_OR_RETURN(campaign.targets, ParseTargets(targets->value, campaign.fleet));

    ASSIGN_OR_RETURN(const Field* workloads, Require(top, "workloads", ""));
    ASSIGN_OR_RETURN(campaign.workloads, ParseWorkloads(workloads->value));

    if (const Field* matrix = top.Find("matrix")) {
      ASSIGN_OR_RETURN(campaign.matrix, ParseMatrix(matrix->value));
    }
    if (const Field* repeats = top.Find("repeats")) {
      ASSIGN_OR_RETURN(std::string text, Scalar(repeats->value, "repeats", "a count"));
      absl::StatusOr<int64_t> n = ParseInt(text, 1, kMaxRepeats);
      if (!n.ok()) return Error(repeats->value, "repeats", n.status().message());
      campaign.repeats = static_cast<int>(*n);
    }
    if (const Field* keep = top.Find("keep")) {
      ASSIGN_OR_RETURN(std::string text, Scalar(keep->value, "keep", "one of all, last, median"));
      bool found = false;
      for (const KeepName& k : kKeepNames) {
        if (k.name == text) {
          campaign.keep = k.keep;
          found = true;
        }
      }
      if (!found) {
        return Error(keep->value, "keep",
                     absl::StrCat("'", text, "' is not allowed; allowed: ", JoinNames(kKeepNames)));
      }
    }
    if (const Field* warmup = top.Find("warmup")) {
      ASSIGN_OR_RETURN(campaign.warmup, Duration(warmup->value, "warmup"));
      if (campaign.warmup > absl::ZeroDuration() && campaign.warmup < absl::Milliseconds(1)) {
        return Error(warmup->value, "warmup", "must be 0 (no warmup) or at least 1ms");
      }
    }
    if (const Field* cooldown = top.Find("cooldown")) {
      ASSIGN_OR_RETURN(campaign.cooldown, Duration(cooldown->value, "cooldown"));
    }
    std::string results = absl::StrCat(campaign.name, ".db");
    if (const Field* field = top.Find("results")) {
      ASSIGN_OR_RETURN(results, Scalar(field->value, "results", "a file path"));
      if (results.empty()) return Error(field->value, "results", "must not be empty");
    }
    campaign.results_path = ResolveRelativeTo(file_, results);
    if (const Field* topology = top.Find("topology")) {
      ASSIGN_OR_RETURN(campaign.topology_subnets, ParseTopology(topology->value));
    }

    RETURN_IF_ERROR(ValidateCells(campaign));
    return campaign;
  }

 private:
  std::string Where(const YAML::Node& node) const { return Location(node).ToString(); }

  SourceLocation Location(const YAML::Node& node) const {
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0) return SourceLocation{file_, 1, 1};
    return SourceLocation{file_, mark.line + 1, mark.column + 1};
  }

  absl::Status Error(const YAML::Node& node, absl::string_view field,
                     absl::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat(Where(node), ": ", field, ": ", message));
  }

  // The entries of a map, checked against the allowed keys (unknown and repeated keys are errors).
  template <size_t N>
  absl::StatusOr<MapFields> ReadMap(const YAML::Node& node, absl::string_view field,
                                    const absl::string_view (&allowed)[N]) const {
    if (!node.IsMap()) {
      return Error(node, field,
                   absl::StrCat("must be a map with the keys ",
                                ListOf(std::begin(allowed), std::end(allowed)), "; got ",
                                NodeTypeName(node)));
    }
    MapFields map{node, {}};
    for (const auto& entry : node) {
      const YAML::Node key = entry.first;
      if (!key.IsScalar()) return Error(key, field, "keys must be plain words");
      const std::string& name = key.Scalar();
      bool known = false;
      for (absl::string_view a : allowed) known = known || a == name;
      if (!known) {
        return Error(key, field,
                     absl::StrCat("unknown key '", name,
                                  "'; allowed: ", ListOf(std::begin(allowed), std::end(allowed))));
      }
      if (map.Find(name) != nullptr) {
        return Error(key, field, absl::StrCat("key '", name, "' is given twice"));
      }
      map.fields.push_back(Field{name, key, entry.second});
    }
    return map;
  }

  // `parent` is the field holding the map ("" for the campaign itself).
  absl::StatusOr<const Field*> Require(const MapFields& map, absl::string_view key,
                                       absl::string_view parent) const {
    const Field* f = map.Find(key);
    if (f != nullptr) return f;
    if (parent.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(map.node), ": missing required key '", key,
                       "' (a campaign needs name, fleet, targets and workloads)"));
    }
    return Error(map.node, parent, absl::StrCat("missing required key '", key, "'"));
  }

  absl::StatusOr<std::string> Scalar(const YAML::Node& node, absl::string_view field,
                                     absl::string_view expected) const {
    if (!node.IsScalar()) {
      return Error(node, field, absl::StrCat("must be ", expected, "; got ", NodeTypeName(node)));
    }
    return node.Scalar();
  }

  absl::StatusOr<std::string> Name(const YAML::Node& node, absl::string_view field) const {
    ASSIGN_OR_RETURN(std::string name, Scalar(node, field, "a name"));
    if (!IsValidName(name)) {
      return Error(
          node, field,
          absl::StrCat("'", name, "' is not a valid name; use letters, digits, '.', '_' and '-'"));
    }
    return name;
  }

  absl::StatusOr<absl::Duration> Duration(const YAML::Node& node, absl::string_view field) const {
    ASSIGN_OR_RETURN(std::string text, Scalar(node, field, "a duration such as 0, 500ms or 2s"));
    absl::StatusOr<absl::Duration> d = ParseDuration(text, absl::Seconds(1));
    if (!d.ok()) return Error(node, field, d.status().message());
    if (*d < absl::ZeroDuration()) return Error(node, field, "must not be negative");
    return *d;
  }

  // A non-empty list, as its items.
  absl::StatusOr<std::vector<YAML::Node>> List(const YAML::Node& node, absl::string_view field,
                                               absl::string_view example) const {
    if (!node.IsSequence()) {
      return Error(node, field,
                   absl::StrCat("must be a list, e.g. ", example, "; got ", NodeTypeName(node)));
    }
    std::vector<YAML::Node> items;
    for (const auto& item : node) items.push_back(item);
    if (items.empty()) {
      return Error(node, field, absl::StrCat("must not be empty, e.g. ", example));
    }
    return items;
  }

  // --- fleet --------------------------------------------------------------------------------

  // fleet.tls {ca_file, cert_file, key_file, server_name} and fleet.token_file (files relative to
  // the campaign), then the agents (local, hosts or hosts_file).
  absl::StatusOr<FleetSpec> ParseFleet(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(MapFields all, ReadMap(node, "fleet", kFleetKeys));
    MapFields source;
    source.node = all.node;
    ClientSecurity security;
    for (const Field& f : all.fields) {
      if (f.key == "token_file") {
        ASSIGN_OR_RETURN(std::string file, Scalar(f.value, "fleet.token_file", "a file path"));
        security.token_file = ResolveRelativeTo(file_, file);
      } else if (f.key == "tls") {
        ASSIGN_OR_RETURN(MapFields tls, ReadMap(f.value, "fleet.tls", kFleetTlsKeys));
        for (const Field& t : tls.fields) {
          const std::string field = absl::StrCat("fleet.tls.", t.key);
          ASSIGN_OR_RETURN(std::string value, Scalar(t.value, field, "a file path"));
          if (t.key == "server_name") {
            security.server_name = value;
          } else {
            (t.key == "ca_file"     ? security.ca_file
             : t.key == "cert_file" ? security.cert_file
                                    : security.key_file) = ResolveRelativeTo(file_, value);
          }
        }
      } else {
        source.fields.push_back(f);
      }
    }
    if (absl::Status s = ValidateClientSecurity(security, "fleet.tls"); !s.ok()) {
      return Error(node, "fleet", s.message());
    }
    ASSIGN_OR_RETURN(FleetSpec fleet, ParseFleetSource(source, node));
    if (fleet.kind == FleetSpec::Kind::kLocal && !security.empty()) {
      return Error(node, "fleet",
                   "tls and token_file are for remote agents (hosts, hosts_file); the local fleet "
                   "talks plaintext over loopback");
    }
    fleet.security = security;
    return fleet;
  }

  absl::StatusOr<FleetSpec> ParseFleetSource(const MapFields& map, const YAML::Node& node) const {
    if (map.fields.size() != 1) {
      return Error(node, "fleet",
                   absl::StrCat("give exactly one of local, hosts, hosts_file; got ",
                                map.fields.empty() ? "none" : "several"));
    }
    const Field& f = map.fields.front();
    FleetSpec fleet;
    if (f.key == "local") {
      fleet.kind = FleetSpec::Kind::kLocal;
      ASSIGN_OR_RETURN(MapFields local, ReadMap(f.value, "fleet.local", kLocalFleetKeys));
      ASSIGN_OR_RETURN(const Field* agents, Require(local, "agents", "fleet.local"));
      ASSIGN_OR_RETURN(std::string count,
                       Scalar(agents->value, "fleet.local.agents", "a count of agents"));
      absl::StatusOr<int64_t> n = ParseInt(count, 1, kMaxLocalAgents);
      if (!n.ok()) {
        return Error(agents->value, "fleet.local.agents",
                     absl::StrCat(n.status().message(), " (at least 1 agent)"));
      }
      fleet.local_agents = static_cast<int>(*n);
      if (const Field* azs = local.Find("azs")) {
        ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                         List(azs->value, "fleet.local.azs", "[local-a, local-b]"));
        for (const YAML::Node& item : items) {
          ASSIGN_OR_RETURN(std::string az, Name(item, "fleet.local.azs"));
          for (const std::string& seen : fleet.local_azs) {
            if (seen == az) {
              return Error(item, "fleet.local.azs", absl::StrCat("'", az, "' is listed twice"));
            }
          }
          fleet.local_azs.push_back(az);
        }
      } else {
        fleet.local_azs = {"local"};
      }
      return fleet;
    }
    fleet.kind = FleetSpec::Kind::kHosts;
    if (f.key == "hosts") {
      ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                       List(f.value, "fleet.hosts", "[10.0.1.5:7480, 10.0.2.7]"));
      for (const YAML::Node& item : items) {
        ASSIGN_OR_RETURN(std::string text, Scalar(item, "fleet.hosts", "host[:port]"));
        absl::StatusOr<std::string> host = NormalizeAddress(std::string(text));
        if (!host.ok()) return Error(item, "fleet.hosts", host.status().message());
        RETURN_IF_ERROR(AddHost(fleet, *host, [&](absl::string_view message) {
          return Error(item, "fleet.hosts", message);
        }));
      }
      return fleet;
    }
    // hosts_file
    ASSIGN_OR_RETURN(std::string name, Scalar(f.value, "fleet.hosts_file", "a file path"));
    fleet.hosts_file = ResolveRelativeTo(file_, name);
    absl::StatusOr<std::string> text = ReadWholeFile(fleet.hosts_file, "hosts file");
    if (!text.ok()) {
      return absl::Status(
          text.status().code(),
          absl::StrCat(Where(f.value), ": fleet.hosts_file: ", text.status().message()));
    }
    int line_number = 0;
    for (absl::string_view raw : absl::StrSplit(*text, '\n')) {
      ++line_number;
      absl::string_view line = raw.substr(0, raw.find('#'));
      line = absl::StripAsciiWhitespace(line);
      if (line.empty()) continue;
      const std::string where = absl::StrCat(fleet.hosts_file, ":", line_number);
      absl::StatusOr<std::string> host = NormalizeAddress(std::string(line));
      if (!host.ok()) {
        return Error(f.value, "fleet.hosts_file",
                     absl::StrCat(where, ": ", host.status().message()));
      }
      RETURN_IF_ERROR(AddHost(fleet, *host, [&](absl::string_view message) {
        return Error(f.value, "fleet.hosts_file", absl::StrCat(where, ": ", message));
      }));
    }
    if (fleet.hosts.empty()) {
      return Error(
          f.value, "fleet.hosts_file",
          absl::StrCat("'", fleet.hosts_file, "' lists no hosts; write one host[:port] per line"));
    }
    return fleet;
  }

  template <typename MakeError>
  static absl::Status AddHost(FleetSpec& fleet, const std::string& host, MakeError make_error) {
    for (const std::string& seen : fleet.hosts) {
      if (seen == host) return make_error(absl::StrCat("host '", host, "' is listed twice"));
    }
    fleet.hosts.push_back(host);
    return absl::OkStatus();
  }

  // --- targets ------------------------------------------------------------------------------

  absl::StatusOr<std::vector<CampaignTarget>> ParseTargets(const YAML::Node& node,
                                                           const FleetSpec& fleet) const {
    ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                     List(node, "targets", "[{name: efs, path: /mnt/efs/azbench, kind: efs}]"));
    std::vector<CampaignTarget> targets;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = absl::StrCat("targets[", i, "]");
      ASSIGN_OR_RETURN(MapFields map, ReadMap(items[i], field, kTargetKeys));
      CampaignTarget target;
      target.location = Location(items[i]);
      ASSIGN_OR_RETURN(const Field* name, Require(map, "name", field));
      ASSIGN_OR_RETURN(target.name, Name(name->value, field + ".name"));
      for (const CampaignTarget& seen : targets) {
        if (seen.name == target.name) {
          return Error(name->value, field + ".name",
                       absl::StrCat("target name '", target.name, "' is already used by ",
                                    seen.location.ToString()));
        }
      }
      ASSIGN_OR_RETURN(const Field* path, Require(map, "path", field));
      ASSIGN_OR_RETURN(target.path, Scalar(path->value, field + ".path", "a directory path"));
      RETURN_IF_ERROR(CheckTargetPath(path->value, field + ".path", target.path, fleet));
      if (const Field* kind = map.Find("kind")) {
        ASSIGN_OR_RETURN(std::string text, Scalar(kind->value, field + ".kind", "a kind"));
        bool found = false;
        for (const KindName& k : kKindNames) {
          if (k.name == text) {
            target.kind = k.kind;
            found = true;
          }
        }
        if (!found) {
          return Error(
              kind->value, field + ".kind",
              absl::StrCat("'", text, "' is not allowed; allowed: ", JoinNames(kKindNames)));
        }
      }
      if (const Field* labels = map.Find("labels")) {
        if (!labels->value.IsMap()) {
          return Error(labels->value, field + ".labels",
                       absl::StrCat("must be a map of strings, e.g. {tier: gold}; got ",
                                    NodeTypeName(labels->value)));
        }
        for (const auto& entry : labels->value) {
          ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, field + ".labels", "a word"));
          ASSIGN_OR_RETURN(std::string value,
                           Scalar(entry.second, absl::StrCat(field, ".labels.", key), "a string"));
          if (key.empty()) return Error(entry.first, field + ".labels", "empty label name");
          if (!target.labels.emplace(key, value).second) {
            return Error(entry.first, field + ".labels",
                         absl::StrCat("label '", key, "' is given twice"));
          }
        }
      }
      if (const Field* az = map.Find("server_az")) {
        ASSIGN_OR_RETURN(target.server_az, Name(az->value, field + ".server_az"));
      }
      targets.push_back(std::move(target));
    }
    return targets;
  }

  absl::Status CheckTargetPath(const YAML::Node& node, const std::string& field,
                               const std::string& path, const FleetSpec& fleet) const {
    if (path.empty()) return Error(node, field, "must not be empty");
    const std::filesystem::path p(path);
    if (p.is_absolute()) return absl::OkStatus();
    if (fleet.kind != FleetSpec::Kind::kLocal) {
      return Error(node, field,
                   absl::StrCat("'", path,
                                "' must be an absolute path on the agents (relative paths are "
                                "allowed only with fleet.local, inside each agent's work "
                                "directory)"));
    }
    for (const auto& part : p) {
      if (part == "..") {
        return Error(
            node, field,
            absl::StrCat("'", path, "' must stay inside each agent's work directory (no '..')"));
      }
    }
    return absl::OkStatus();
  }

  // --- workloads ----------------------------------------------------------------------------

  absl::StatusOr<std::vector<Workload>> ParseWorkloads(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(
        std::vector<YAML::Node> items,
        List(node, "workloads", "[{name: randread, options: {rw: randread, bs: 4k, size: 1g}}]"));
    std::vector<Workload> workloads;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = absl::StrCat("workloads[", i, "]");
      ASSIGN_OR_RETURN(MapFields map, ReadMap(items[i], field, kWorkloadKeys));
      Workload workload;
      workload.location = Location(items[i]);
      ASSIGN_OR_RETURN(const Field* name, Require(map, "name", field));
      ASSIGN_OR_RETURN(workload.name, Name(name->value, field + ".name"));
      for (const Workload& seen : workloads) {
        if (seen.name == workload.name) {
          return Error(name->value, field + ".name",
                       absl::StrCat("workload name '", workload.name, "' is already used by ",
                                    seen.location.ToString()));
        }
      }
      if (const Field* family = map.Find("workload")) {
        ASSIGN_OR_RETURN(workload.family,
                         Scalar(family->value, field + ".workload", "a workload family"));
        if (absl::Status s = ParseWorkloadFamily(workload.family).status(); !s.ok()) {
          return Error(family->value, field + ".workload", s.message());
        }
      }
      const Field* options = map.Find("options");
      const Field* fio_job = map.Find("fio_job");
      if (workload.family != "block_io" && fio_job != nullptr) {
        return Error(fio_job->value, field + ".fio_job",
                     absl::StrCat("fio_job is only for workload block_io; give ", workload.family,
                                  "'s options as a map"));
      }
      if (workload.family != "block_io") {
        if (options == nullptr) {
          return Error(
              items[i], field,
              absl::StrCat("workload ", workload.family, " needs options (a map, may be {})"));
        }
        ASSIGN_OR_RETURN(JobOptions job_options,
                         ParseFamilyOptions(options->value, field + ".options", workload.family));
        workload.jobs.push_back(WorkloadJob{workload.name, std::move(job_options), 0});
        workloads.push_back(std::move(workload));
        continue;
      }
      if ((options == nullptr) == (fio_job == nullptr)) {
        return Error(items[i], field,
                     "give exactly one of options (fio options as a map) or fio_job (a fio job "
                     "file)");
      }
      if (options != nullptr) {
        ASSIGN_OR_RETURN(JobOptions job_options, ParseOptions(options->value, field + ".options"));
        workload.jobs.push_back(WorkloadJob{workload.name, std::move(job_options), 0});
      } else {
        ASSIGN_OR_RETURN(std::string path,
                         Scalar(fio_job->value, field + ".fio_job", "a fio job file path"));
        workload.fio_job_path = ResolveRelativeTo(file_, path);
        absl::StatusOr<std::vector<WorkloadJob>> jobs = LoadFioJob(workload.fio_job_path);
        if (!jobs.ok()) {
          return absl::Status(jobs.status().code(),
                              absl::StrCat(Where(fio_job->value), ": ", field,
                                           ".fio_job: ", jobs.status().message()));
        }
        workload.jobs = *std::move(jobs);
      }
      workloads.push_back(std::move(workload));
    }
    return workloads;
  }

  // Errors: the file's read error code, or InvalidArgument for its contents.
  static absl::StatusOr<std::vector<WorkloadJob>> LoadFioJob(const std::string& path) {
    ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "fio job file"));
    absl::StatusOr<std::vector<FioJob>> parsed = ParseFioJobFile(text, path);
    if (!parsed.ok()) {
      // Every problem inside the file is a bad campaign input (the parser's NotFound for an
      // unknown option included), worded like the campaign's own option errors.
      return absl::InvalidArgumentError(absl::StrReplaceAll(
          parsed.status().message(), {{"unknown option '", "unknown job option '"}}));
    }
    return WorkloadJobsFromFioJobsImpl(*parsed);
  }

  // A non-block_io family's options: each key must be one of the family's, each value valid.
  absl::StatusOr<JobOptions> ParseFamilyOptions(const YAML::Node& node, const std::string& field,
                                                const std::string& family_name) const {
    const WorkloadFamily family = *ParseWorkloadFamily(family_name);
    if (!node.IsMap()) {
      return Error(
          node, field,
          absl::StrCat("must be a map of ", family_name, " options; got ", NodeTypeName(node)));
    }
    JobOptions options;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, field, "an option name"));
      for (const auto& [seen, unused] : options) {
        if (seen == key) {
          return Error(entry.first, field, absl::StrCat("option '", key, "' is given twice"));
        }
      }
      if (key == "name") {
        return Error(entry.first, field,
                     "option 'name' is not allowed here: the job is named after the workload");
      }
      std::string value;
      if (!entry.second.IsNull()) {
        ASSIGN_OR_RETURN(value, Scalar(entry.second, absl::StrCat(field, ".", key), "a value"));
      }
      if (!IsWorkloadOption(family, key)) {
        return Error(
            entry.first, field,
            absl::StrCat("option '", key, "' is not supported by workload ", family_name,
                         "; supported: ", absl::StrJoin(WorkloadOptionNames(family), ", ")));
      }
      absl::Status status = ValidateSingleFamilyOption(family, key, value);
      if (!status.ok()) {
        return Error(value.empty() ? entry.first : entry.second, field + "." + key,
                     status.message());
      }
      options.emplace_back(std::move(key), std::move(value));
    }
    return options;
  }

  static absl::Status ValidateSingleFamilyOption(WorkloadFamily family, const std::string& key,
                                                 const std::string& value) {
    MetadataSpec md;
    SmallFilesSpec sf;
    LargeStreamSpec ls;
    switch (family) {
      case WorkloadFamily::kMetadata:
        return ApplyMetadataOption(md, key, value);
      case WorkloadFamily::kSmallFiles:
        return ApplySmallFilesOption(sf, key, value);
      case WorkloadFamily::kLargeStream:
        return ApplyLargeStreamOption(ls, key, value);
      case WorkloadFamily::kBlockIo: {
        JobSpec spec;
        return ApplyJobOption(spec, key, value);
      }
      case WorkloadFamily::kVisibility:  // this value alone; the whole set is checked later
        return ValidateVisibilityOptions({{"probe", "export"}, {"bucket", "b"}, {key, value}});
    }
    return absl::OkStatus();
  }

  absl::StatusOr<JobOptions> ParseOptions(const YAML::Node& node, const std::string& field) const {
    if (!node.IsMap()) {
      return Error(node, field,
                   absl::StrCat("must be a map of fio options, e.g. {rw: randread, bs: 4k, size: "
                                "1g}; got ",
                                NodeTypeName(node)));
    }
    JobOptions options;
    JobSpec scratch;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, field, "an option name"));
      for (const auto& [seen, unused] : options) {
        if (seen == key) {
          return Error(entry.first, field, absl::StrCat("option '", key, "' is given twice"));
        }
      }
      if (key == "name") {
        return Error(entry.first, field,
                     "option 'name' is not allowed here: the job is named after the workload");
      }
      std::string value;
      if (!entry.second.IsNull()) {  // `time_based:` alone is fio's bare flag
        ASSIGN_OR_RETURN(value, Scalar(entry.second, absl::StrCat(field, ".", key), "a value"));
      }
      RETURN_IF_ERROR(CheckOption(scratch, entry.first, entry.second, field, key, value));
      options.emplace_back(std::move(key), std::move(value));
    }
    return options;
  }

  // Applies one option to `scratch`: unknown options point at the key, bad values at the value.
  absl::Status CheckOption(JobSpec& scratch, const YAML::Node& key_node,
                           const YAML::Node& value_node, const std::string& field,
                           const std::string& key, const std::string& value) const {
    absl::Status status = ApplyJobOption(scratch, key, value);
    if (absl::IsNotFound(status)) {
      return Error(key_node, field,
                   absl::StrCat("unknown job option '", key,
                                "'; supported: ", absl::StrJoin(SupportedJobOptionNames(), ", ")));
    }
    if (!status.ok()) {
      return Error(value_node.IsNull() ? key_node : value_node, field + "." + key,
                   status.message());
    }
    return absl::OkStatus();
  }

  // --- topology -----------------------------------------------------------------------------

  absl::StatusOr<std::vector<TopologySubnet>> ParseTopology(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(MapFields map, ReadMap(node, "topology", kTopologyKeys));
    std::vector<TopologySubnet> subnets;
    const Field* field = map.Find("subnets");
    if (field == nullptr) return subnets;
    if (!field->value.IsMap()) {
      return Error(field->value, "topology.subnets",
                   absl::StrCat("must be a map of CIDR -> AZ, e.g. {10.0.1.0/24: us-east-1a}; got ",
                                NodeTypeName(field->value)));
    }
    for (const auto& entry : field->value) {
      ASSIGN_OR_RETURN(std::string cidr_text, Scalar(entry.first, "topology.subnets", "a CIDR"));
      absl::StatusOr<Cidr> cidr = ParseCidr(cidr_text);
      if (!cidr.ok()) return Error(entry.first, "topology.subnets", cidr.status().message());
      const std::string where = absl::StrCat("topology.subnets.", cidr_text);
      ASSIGN_OR_RETURN(std::string az, Name(entry.second, where));
      TopologySubnet subnet{cidr->ToString(), az, Location(entry.first)};
      for (const TopologySubnet& seen : subnets) {
        if (seen.cidr == subnet.cidr) {
          return Error(entry.first, "topology.subnets",
                       absl::StrCat("subnet ", subnet.cidr, " is already given at ",
                                    seen.location.ToString()));
        }
      }
      subnets.push_back(std::move(subnet));
    }
    return subnets;
  }

  // --- matrix -------------------------------------------------------------------------------

  absl::StatusOr<std::vector<MatrixAxis>> ParseMatrix(const YAML::Node& node) const {
    if (!node.IsMap()) {
      return Error(node, "matrix",
                   absl::StrCat("must be a map of axis -> list of values, e.g. {iodepth: [1, 16], "
                                "nodes: [1, all]}; got ",
                                NodeTypeName(node)));
    }
    std::vector<MatrixAxis> axes;
    for (const auto& entry : node) {
      ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, "matrix", "an axis name"));
      for (const MatrixAxis& seen : axes) {
        if (seen.key == key) {
          return Error(entry.first, "matrix", absl::StrCat("axis '", key, "' is given twice"));
        }
      }
      if (key == "directory" || key == "name") {
        return Error(entry.first, "matrix",
                     absl::StrCat("'", key, "' cannot be a matrix axis: ",
                                  key == "name" ? "jobs are named after their workload"
                                                : "list the directories as targets instead"));
      }
      const bool is_nodes = key == kNodesAxis || key == kNodesPerAzAxis;
      const bool is_placement = key == kPlacementAxis;
      // A family's own option (metadata's `files`, small_files' `filesizes`, ...) is an axis too.
      std::optional<WorkloadFamily> axis_family;
      if (!is_nodes && !is_placement && !IsSupportedJobOption(key)) {
        for (WorkloadFamily f : {WorkloadFamily::kMetadata, WorkloadFamily::kSmallFiles,
                                 WorkloadFamily::kLargeStream, WorkloadFamily::kVisibility}) {
          if (!axis_family && IsWorkloadOption(f, key)) axis_family = f;
        }
      }
      if (!is_nodes && !is_placement && !IsSupportedJobOption(key) && !axis_family) {
        return Error(entry.first, "matrix",
                     absl::StrCat("unknown axis '", key,
                                  "'; allowed: nodes, nodes_per_az, placement, a job option (",
                                  absl::StrJoin(SupportedJobOptionNames(), ", "),
                                  ") or a workload family's option (see README)"));
      }
      const std::string field = absl::StrCat("matrix.", key);
      MatrixAxis axis;
      axis.key = key;
      axis.location = Location(entry.first);
      ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                       List(entry.second, field, is_nodes ? "[1, 2, all]" : "[1, 16]"));
      for (const YAML::Node& item : items) {
        ASSIGN_OR_RETURN(std::string value, Scalar(item, field, "a value"));
        if (is_placement) {
          if (value != kPlacementSameAz && value != kPlacementCrossAz) {
            return Error(item, field,
                         absl::StrCat("'", value, "' is not allowed; allowed: ", kPlacementSameAz,
                                      ", ", kPlacementCrossAz));
          }
        } else if (is_nodes) {
          if (value != kNodesAll) {
            absl::StatusOr<int64_t> n = ParseInt(value, 1, kMaxNodes);
            if (!n.ok()) {
              return Error(item, field,
                           absl::StrCat("'", value, "' is not allowed; allowed: a count >= 1 or ",
                                        kNodesAll));
            }
          }
        } else if (axis_family) {
          if (absl::Status st = ValidateSingleFamilyOption(*axis_family, key, value); !st.ok()) {
            return Error(item, field, st.message());
          }
        } else {
          JobSpec scratch;
          RETURN_IF_ERROR(CheckOption(scratch, entry.first, item, field, key, value));
        }
        for (const std::string& seen : axis.values) {
          if (seen == value) {
            return Error(item, field, absl::StrCat("value '", value, "' is listed twice"));
          }
        }
        axis.values.push_back(value);
      }
      axes.push_back(std::move(axis));
    }
    return axes;
  }

  // Every workload job must be valid in every matrix cell (the nodes axis does not change jobs).
  absl::Status ValidateCells(const Campaign& campaign) const {
    std::vector<MatrixAxis> job_axes;
    for (const MatrixAxis& axis : campaign.matrix) {
      if (axis.key != kNodesAxis && axis.key != kNodesPerAzAxis && axis.key != kPlacementAxis) {
        job_axes.push_back(axis);
      }
    }
    for (const MatrixAxis& axis : job_axes) {
      bool used = false;
      for (const Workload& workload : campaign.workloads) {
        const absl::StatusOr<WorkloadFamily> family = ParseWorkloadFamily(workload.family);
        used = used || (family.ok() && IsWorkloadOption(*family, axis.key));
      }
      if (!used) {
        return absl::InvalidArgumentError(
            absl::StrCat(axis.location.ToString(), ": matrix: axis '", axis.key,
                         "' is an option of no workload in this campaign"));
      }
    }
    // metadata's stride reads other agents' files: it needs a target every agent sees.
    for (size_t w = 0; w < campaign.workloads.size(); ++w) {
      const Workload& workload = campaign.workloads[w];
      if (workload.family != "metadata") continue;
      bool strided = false;
      for (const WorkloadJob& job : workload.jobs) {
        for (const auto& [key, value] : job.options)
          strided = strided || (key == "stride" && value != "0");
      }
      for (const MatrixAxis& axis : campaign.matrix) {
        for (const std::string& v : axis.values)
          strided = strided || (axis.key == "stride" && v != "0");
      }
      for (const CampaignTarget& target : campaign.targets) {
        if (strided && !std::filesystem::path(target.path).is_absolute()) {
          return absl::InvalidArgumentError(absl::StrCat(
              workload.location.ToString(), ": workloads[", w, "] '", workload.name,
              "': stride makes agents read each other's files, but target '", target.name,
              "' has a relative path, which is each local agent's own directory; give an "
              "absolute path that every agent shares"));
        }
      }
    }
    for (size_t w = 0; w < campaign.workloads.size(); ++w) {
      const Workload& workload = campaign.workloads[w];
      std::vector<MatrixAxis> axes;
      for (const MatrixAxis& axis : WorkloadAxes(workload, job_axes)) {
        if (axis.key != kNodesAxis && axis.key != kNodesPerAzAxis) axes.push_back(axis);
      }
      const std::vector<MatrixCell> cells = MatrixCells(axes);
      for (const MatrixCell& cell : cells) {
        for (const WorkloadJob& job : workload.jobs) {
          absl::Status status = ValidateWorkloadJobOptions(
              workload, CellJobOptions(job, cell, campaign.targets.front()), job.name);
          if (status.ok()) continue;
          std::vector<std::string> parts;
          for (const auto& [key, value] : cell) parts.push_back(absl::StrCat(key, "=", value));
          const std::string job_name =
              workload.fio_job_path.empty() ? "" : absl::StrCat(" job '", job.name, "'");
          const std::string in_cell =
              cell.empty() ? "" : absl::StrCat(" with ", absl::StrJoin(parts, ", "));
          return absl::InvalidArgumentError(
              absl::StrCat(workload.location.ToString(), ": workloads[", w, "] '", workload.name,
                           "'", job_name, in_cell, ": ", status.message()));
        }
      }
    }
    return absl::OkStatus();
  }

  std::string file_;
};

}  // namespace

std::string SourceLocation::ToString() const {
  if (column <= 0) return absl::StrCat(file, ":", line);
  return absl::StrCat(file, ":", line, ":", column);
}

std::string_view TargetKindName(TargetKind kind) {
  for (const KindName& k : kKindNames) {
    if (k.kind == kind) return std::string_view(k.name.data(), k.name.size());
  }
  return "other";
}

std::string_view KeepPolicyName(KeepPolicy keep) {
  for (const KeepName& k : kKeepNames) {
    if (k.keep == keep) return std::string_view(k.name.data(), k.name.size());
  }
  return "all";
}

absl::StatusOr<Campaign> ParseCampaign(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  absl::StatusOr<Campaign> campaign;
  // yaml-cpp reports syntax errors (and misuse) with exceptions: this is the only place they are
  // caught and turned into a status.
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsDefined() || root.IsNull()) {
      return absl::InvalidArgumentError(
          absl::StrCat(file,
                       ":1:1: the campaign is empty; it needs at least name, fleet, targets "
                       "and workloads"));
    }
    campaign = CampaignParser(file).Parse(root);
  } catch (const YAML::Exception& e) {
    const SourceLocation where{file, e.mark.line < 0 ? 1 : e.mark.line + 1,
                               e.mark.column < 0 ? 1 : e.mark.column + 1};
    return absl::InvalidArgumentError(
        absl::StrCat(where.ToString(), ": YAML syntax error: ", e.msg));
  }
  if (campaign.ok()) campaign->text = std::string(text);
  return campaign;
}

absl::StatusOr<Campaign> ParseCampaignFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "campaign file"));
  return ParseCampaign(text, path);
}

std::vector<MatrixCell> MatrixCells(const std::vector<MatrixAxis>& matrix) {
  std::vector<MatrixCell> cells = {MatrixCell{}};
  for (const MatrixAxis& axis : matrix) {
    std::vector<MatrixCell> next;
    next.reserve(cells.size() * axis.values.size());
    for (const MatrixCell& cell : cells) {
      for (const std::string& value : axis.values) {
        MatrixCell extended = cell;
        extended.emplace_back(axis.key, value);
        next.push_back(std::move(extended));
      }
    }
    cells = std::move(next);
  }
  return cells;
}

JobOptions CellJobOptions(const WorkloadJob& job, const MatrixCell& cell,
                          const CampaignTarget& target) {
  JobOptions options;
  std::string subdirectory;
  for (const auto& [key, value] : job.options) {
    if (key == "directory") {
      subdirectory = std::filesystem::path(value).is_absolute() ? "" : value;
      continue;
    }
    bool overridden = false;
    for (const auto& [axis, unused] : cell) overridden = overridden || axis == key;
    if (!overridden) options.emplace_back(key, value);
  }
  for (const auto& [axis, value] : cell) {
    if (axis != kNodesAxis && axis != kNodesPerAzAxis && axis != kPlacementAxis) {
      options.emplace_back(axis, value);
    }
  }
  std::string directory = target.path;
  if (!subdirectory.empty()) {
    directory = (std::filesystem::path(target.path) / subdirectory).string();
  }
  options.emplace_back("directory", std::move(directory));
  return options;
}

absl::StatusOr<std::vector<WorkloadJob>> WorkloadJobsFromFioJobs(const std::vector<FioJob>& jobs) {
  return WorkloadJobsFromFioJobsImpl(jobs);
}

absl::Status ValidateJobOptions(const JobOptions& options, std::string_view job_name) {
  return SpecFromOptions(options, Av(job_name)).status();
}

std::vector<MatrixAxis> WorkloadAxes(const Workload& workload,
                                     const std::vector<MatrixAxis>& matrix) {
  const absl::StatusOr<WorkloadFamily> family = ParseWorkloadFamily(workload.family);
  std::vector<MatrixAxis> axes;
  bool has_sizes_axis = false;
  for (const MatrixAxis& axis : matrix) {
    if (axis.key == kNodesAxis || axis.key == kNodesPerAzAxis || axis.key == kPlacementAxis ||
        (family.ok() && IsWorkloadOption(*family, axis.key))) {
      axes.push_back(axis);
      has_sizes_axis = has_sizes_axis || axis.key == "filesizes";
    }
  }
  if (family.ok() && *family == WorkloadFamily::kSmallFiles && !has_sizes_axis) {
    MatrixAxis sizes;
    sizes.key = "filesizes";
    sizes.location = workload.location;
    std::string list = "4k:64k:128k:256k:1m";
    if (!workload.jobs.empty()) {
      for (const auto& [key, value] : workload.jobs.front().options) {
        if (key == "filesizes") list = value;
      }
    }
    sizes.values = SplitSizeList(list);
    axes.push_back(std::move(sizes));
  }
  return axes;
}

absl::Status ValidateWorkloadJobOptions(const Workload& workload, const JobOptions& options,
                                        std::string_view job_name) {
  ASSIGN_OR_RETURN(WorkloadFamily family, ParseWorkloadFamily(workload.family));
  if (family == WorkloadFamily::kBlockIo) return ValidateJobOptions(options, job_name);
  return ValidateWorkloadOptions(family, options, job_name);
}

}  // namespace azbench
