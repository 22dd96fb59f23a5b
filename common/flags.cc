#include "common/flags.h"

#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/units.h"

namespace azbench {

namespace {

// The entry `name` spells (its name or its alias), or nullptr.
const FlagSpec* Find(const std::vector<FlagSpec>& table, const std::string& name) {
  for (const FlagSpec& spec : table) {
    if (spec.name == name || (!spec.alias.empty() && spec.alias == name)) return &spec;
  }
  return nullptr;
}

bool LooksLikeFlag(const std::string& arg, const FlagSyntax& syntax) {
  if (arg == "-") return false;  // stdin, by convention
  return syntax.single_dash_flags ? absl::StartsWith(arg, "-") : absl::StartsWith(arg, "--");
}

}  // namespace

const std::string* ParsedFlags::Get(const std::string& name) const {
  for (const FlagValue& f : flags) {
    if (f.name == name) return &f.value;
  }
  return nullptr;
}

std::vector<std::string> ParsedFlags::GetAll(const std::string& name) const {
  std::vector<std::string> values;
  for (const FlagValue& f : flags) {
    if (f.name == name) values.push_back(f.value);
  }
  return values;
}

std::string FlagNames(const std::vector<FlagSpec>& table) {
  std::string names;
  for (const FlagSpec& spec : table) {
    absl::StrAppend(&names, names.empty() ? "" : ", ", spec.name);
    if (!spec.alias.empty()) absl::StrAppend(&names, ", ", spec.alias);
  }
  return names.empty() ? "none" : names;
}

absl::StatusOr<ParsedFlags> ParseFlags(const std::vector<FlagSpec>& table,
                                       const std::vector<std::string>& args,
                                       const FlagSyntax& syntax) {
  ParsedFlags parsed;
  // A single-valued flag given twice is an error, not a guess at which one wins.
  std::map<std::string, size_t> given;  // table name -> index of its first occurrence
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!LooksLikeFlag(arg, syntax)) {
      parsed.positional.push_back(arg);
      continue;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const FlagSpec* spec = Find(table, name);
    if (spec == nullptr) {
      if (syntax.keep_unknown && absl::StartsWith(arg, "--")) {
        parsed.unknown.push_back(arg);
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", name, "' (allowed: ", FlagNames(table), ")"));
    }
    FlagValue flag{.name = spec->name, .spelled = name, .value = "", .written = arg};
    if (spec->is_switch) {
      flag.value = "true";
      if (eq != std::string::npos) {
        // "--resume=false" must not resume: a switch's value is read, never ignored.
        absl::StatusOr<bool> on = ParseBool(arg.substr(eq + 1));
        if (!on.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat(name, ": ", on.status().message(), "; '", name,
                           "' is a switch: give it alone, or as ", name, "=true / =false"));
        }
        flag.value = *on ? "true" : "false";
      }
    } else if (eq != std::string::npos) {
      flag.value = arg.substr(eq + 1);
    } else if (syntax.value_in_next_argument && i + 1 < args.size() &&
               (syntax.value_may_start_with_dashes || !absl::StartsWith(args[i + 1], "--"))) {
      flag.value = args[++i];
      flag.written = absl::StrCat(arg, " ", flag.value);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("flag '", name, "' needs a value"));
    }
    if (!spec->repeatable) {
      if (auto it = given.find(spec->name); it != given.end()) {
        const std::string& first_name = parsed.flags[it->second].spelled;
        if (first_name != name) {
          return absl::InvalidArgumentError(
              absl::StrCat(first_name, " and ", name, " are the same flag: give one"));
        }
        return absl::InvalidArgumentError(absl::StrCat(name, " is given twice ('",
                                                       parsed.flags[it->second].written, "' and '",
                                                       flag.written, "'): give it once"));
      }
      given.emplace(spec->name, parsed.flags.size());
    }
    parsed.flags.push_back(std::move(flag));
  }
  return parsed;
}

}  // namespace azbench
