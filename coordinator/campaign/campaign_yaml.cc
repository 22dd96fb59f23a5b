#include "coordinator/campaign/campaign_yaml.h"

#include <filesystem>

#include "absl/strings/ascii.h"
#include "common/status_macros.h"
#include "common/units.h"

namespace azbench::campaign_internal {

std::string ListOf(const absl::string_view* begin, const absl::string_view* end) {
  return absl::StrJoin(begin, end, ", ");
}

namespace {

bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

}  // namespace

bool IsValidName(absl::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || name == "." || name == "..") return false;
  for (char c : name) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

std::string ResolveRelativeTo(const std::string& base_file, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  const std::filesystem::path dir = std::filesystem::path(base_file).parent_path();
  return dir.empty() ? path : (dir / p).string();
}

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

SourceLocation CampaignYaml::Location(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.line < 0) return SourceLocation{file_, 1, 1};
  return SourceLocation{file_, mark.line + 1, mark.column + 1};
}

absl::Status CampaignYaml::Error(const YAML::Node& node, absl::string_view field,
                                 absl::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(Where(node), ": ", field, ": ", message));
}

absl::StatusOr<const Field*> CampaignYaml::Require(const MapFields& map, absl::string_view key,
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

absl::StatusOr<std::string> CampaignYaml::Scalar(const YAML::Node& node, absl::string_view field,
                                                 absl::string_view expected) const {
  if (!node.IsScalar()) {
    return Error(node, field, absl::StrCat("must be ", expected, "; got ", NodeTypeName(node)));
  }
  return node.Scalar();
}

absl::StatusOr<std::string> CampaignYaml::Name(const YAML::Node& node,
                                               absl::string_view field) const {
  ASSIGN_OR_RETURN(std::string name, Scalar(node, field, "a name"));
  if (!IsValidName(name)) {
    // A long name is shown by its start and its length, not whole.
    const std::string shown =
        name.size() > kMaxNameLength
            ? absl::StrCat(name.substr(0, 40), "...' (", name.size(), " characters)")
            : absl::StrCat(name, "'");
    return Error(node, field,
                 absl::StrCat("'", shown, " is not a valid name; use 1 to ", kMaxNameLength,
                              " letters, digits, '.', '_' and '-' (not '.' or '..'): names become "
                              "parts of file names"));
  }
  return name;
}

absl::StatusOr<absl::Duration> CampaignYaml::Duration(const YAML::Node& node,
                                                      absl::string_view field) const {
  ASSIGN_OR_RETURN(std::string text, Scalar(node, field, "a duration such as 0, 500ms or 2s"));
  absl::StatusOr<absl::Duration> d = ParseDuration(text, absl::Seconds(1));
  if (!d.ok()) return Error(node, field, d.status().message());
  if (*d < absl::ZeroDuration()) return Error(node, field, "must not be negative");
  return *d;
}

absl::StatusOr<std::vector<YAML::Node>> CampaignYaml::List(const YAML::Node& node,
                                                           absl::string_view field,
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

}  // namespace azbench::campaign_internal
