#include "common/fio_jobfile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "common/steady_state.h"

namespace azbench {
namespace {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

constexpr absl::string_view kGlobalSection = "global";
constexpr absl::string_view kCommandLineFile = "command line";
constexpr absl::string_view kIncludeDirective = "include";

// One `key=value` as written, with where it was written ("job.fio:12" or "argument 3 '--bs=4k'").
struct Entry {
  std::string key;
  std::string value;
  std::string origin;
  std::string file;
  int line = 0;
};

// A `[section]` of a job file, or the global part / one `--name=` job of a command line.
struct Section {
  std::string name;
  bool is_global = false;
  std::string origin;  // the header's "file:line" (or argument), prefixed to validation errors
  std::string file;
  int line = 0;
  std::vector<Entry> entries;
};

absl::Status WithPrefix(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, ": ", status.message()));
}

// Replaces every `${VAR}` with the value of the environment variable VAR.
absl::StatusOr<std::string> ExpandEnvironment(absl::string_view text) {
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t start = text.find("${", pos);
    if (start == absl::string_view::npos) break;
    const size_t end = text.find('}', start + 2);
    if (end == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("unterminated '${' in '", text, "': write ${VARIABLE}"));
    }
    const std::string name(text.substr(start + 2, end - start - 2));
    if (name.empty())
      return absl::InvalidArgumentError(absl::StrCat("empty '${}' in '", text, "'"));
    const char* env = std::getenv(name.c_str());
    if (env == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("environment variable '", name, "' (used in '", text, "') is not set"));
    }
    absl::StrAppend(&out, text.substr(pos, start - pos), env);
    pos = end + 1;
  }
  absl::StrAppend(&out, text.substr(pos));
  return out;
}

// fio 3.33's rule: a line ends at its first ';' or '#', wherever it is (even inside a value), and
// is then trimmed.
absl::string_view StripComment(absl::string_view line) {
  return absl::StripAsciiWhitespace(line.substr(0, line.find_first_of(";#")));
}

// Identity of a file for include-cycle detection (the path itself if it cannot be canonicalized).
std::string CanonicalPath(const std::string& path) {
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : canonical.string();
}

// Reads the lines of one job file (and, recursively, of the files it includes) into sections.
class JobFileReader {
 public:
  std::vector<Section>& sections() { return sections_; }

  // `include_stack` holds the canonical paths of the files being read, outermost first.
  absl::Status Read(absl::string_view text, const std::string& file, bool nested,
                    std::vector<std::string>& include_stack) {
    ASSIGN_OR_RETURN(const absl::string_view lines, TextLines(text, file, "fio job file"));
    int line_number = 0;
    for (absl::string_view raw_line : absl::StrSplit(lines, '\n')) {
      ++line_number;
      const absl::string_view line = StripComment(raw_line);
      if (line.empty()) continue;
      const std::string where = absl::StrCat(file, ":", line_number);
      if (line.front() == '[') {
        RETURN_IF_ERROR(StartSection(line, file, line_number, where, nested));
      } else if (IsInclude(line)) {
        RETURN_IF_ERROR(Include(line, file, where, include_stack));
      } else {
        RETURN_IF_ERROR(AddOption(line, where, file, line_number));
      }
    }
    return absl::OkStatus();
  }

 private:
  static bool IsInclude(absl::string_view line) {
    if (!absl::StartsWith(line, kIncludeDirective)) return false;
    const absl::string_view rest = line.substr(kIncludeDirective.size());
    return rest.empty() || absl::ascii_isspace(static_cast<unsigned char>(rest.front()));
  }

  absl::Status StartSection(absl::string_view line, const std::string& file, int line_number,
                            const std::string& where, bool nested) {
    if (nested) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": section '", line,
                       "' in an included file: included files may only hold options"));
    }
    if (line.back() != ']') {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": malformed section header '", line, "': expected [name]"));
    }
    const absl::string_view name = absl::StripAsciiWhitespace(line.substr(1, line.size() - 2));
    if (name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": empty section name '", line, "': expected [global] or [jobname]"));
    }
    sections_.push_back(
        Section{std::string(name), name == kGlobalSection, where, file, line_number, {}});
    return absl::OkStatus();
  }

  absl::Status AddOption(absl::string_view line, const std::string& where, const std::string& file,
                         int line_number) {
    const size_t eq = line.find('=');
    const absl::string_view key = absl::StripAsciiWhitespace(line.substr(0, eq));
    const absl::string_view raw_value = eq == absl::string_view::npos
                                            ? absl::string_view()
                                            : absl::StripAsciiWhitespace(line.substr(eq + 1));
    if (key.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": missing option name in '", line, "': expected key=value or key"));
    }
    const std::string prefix = absl::StrCat(where, ": option '", key, "'");
    if (sections_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          prefix, ": appears before any section; put it under [global] or a [jobname] section"));
    }
    absl::StatusOr<std::string> value = ExpandEnvironment(raw_value);
    if (!value.ok()) return WithPrefix(value.status(), prefix);
    sections_.back().entries.push_back(
        Entry{std::string(key), *std::move(value), where, file, line_number});
    return absl::OkStatus();
  }

  absl::Status Include(absl::string_view line, const std::string& file, const std::string& where,
                       std::vector<std::string>& include_stack) {
    const absl::string_view raw_target =
        absl::StripAsciiWhitespace(line.substr(kIncludeDirective.size()));
    const std::string prefix = absl::StrCat(where, ": include '", raw_target, "'");
    if (raw_target.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": include needs a file name"));
    }
    if (sections_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          prefix, ": appears before any section; includes add options to the current section"));
    }
    absl::StatusOr<std::string> target = ExpandEnvironment(raw_target);
    if (!target.ok()) return WithPrefix(target.status(), prefix);
    std::filesystem::path path(*target);
    if (path.is_relative()) path = std::filesystem::path(file).parent_path() / path;
    const std::string path_string = path.string();
    const std::string canonical = CanonicalPath(path_string);
    for (const std::string& open : include_stack) {
      if (open == canonical) {
        std::vector<std::string> cycle(include_stack.begin(), include_stack.end());
        cycle.push_back(canonical);
        return absl::InvalidArgumentError(
            absl::StrCat(prefix, ": include cycle: ", absl::StrJoin(cycle, " -> ")));
      }
    }
    if (static_cast<int>(include_stack.size()) > kMaxFioIncludeDepth) {
      return absl::InvalidArgumentError(
          absl::StrCat(prefix, ": includes are nested more than ", kMaxFioIncludeDepth, " deep"));
    }
    absl::StatusOr<std::string> contents = ReadWholeFile(path_string, "fio job file");
    if (!contents.ok()) return WithPrefix(contents.status(), prefix);
    include_stack.push_back(canonical);
    absl::Status status = Read(*contents, path_string, /*nested=*/true, include_stack);
    include_stack.pop_back();
    return status;
  }

  std::vector<Section> sections_;
};

// Applies a section's options in order, kb_base first (fio parses kb_base before the other options
// of a section, so the sizes of that section use it).
// Warnings of options without effect go to `warnings` as "<origin>: [<section>] <warning>".
absl::Status ApplyEntries(JobSpec& spec, const Section& section,
                          std::vector<std::string>& warnings) {
  for (const bool kb_base_pass : {true, false}) {
    for (const Entry& e : section.entries) {
      if ((e.key == "kb_base") != kb_base_pass) continue;
      std::vector<std::string> option_warnings;
      absl::Status status = ApplyJobOption(spec, e.key, e.value, &option_warnings);
      if (!status.ok()) return WithPrefix(status, e.origin);
      for (const std::string& warning : option_warnings) {
        warnings.push_back(absl::StrCat(e.origin, ": [", section.name, "] ", warning));
      }
    }
  }
  return absl::OkStatus();
}

bool Selected(const Section& section, const std::vector<std::string>& only_sections) {
  return section.is_global || only_sections.empty() ||
         std::find(only_sections.begin(), only_sections.end(), section.name) != only_sections.end();
}

// Turns sections into validated jobs with fio's reporting groups. `global` sections update the
// defaults for the jobs after them.
absl::StatusOr<std::vector<FioJob>> BuildJobs(const std::vector<Section>& sections,
                                              absl::string_view no_jobs_message,
                                              const std::vector<std::string>& only_sections) {
  for (const std::string& wanted : only_sections) {
    const bool found = std::any_of(sections.begin(), sections.end(), [&](const Section& s) {
      return !s.is_global && s.name == wanted;
    });
    if (!found) {
      std::vector<std::string> names;
      for (const Section& s : sections) {
        if (!s.is_global) names.push_back(s.name);
      }
      return absl::NotFoundError(absl::StrCat("--section=", wanted, ": no such job section; the ",
                                              "job sections are: ", absl::StrJoin(names, ", ")));
    }
  }
  JobSpec defaults;
  std::vector<const Entry*> global_entries;
  std::vector<std::string> global_warnings;
  std::vector<FioJob> jobs;
  int group_id = 0;
  int jobs_in_group = 0;
  for (const Section& section : sections) {
    // As fio's --section: a job section not asked for is not even parsed.
    if (!Selected(section, only_sections)) continue;
    if (section.is_global) {
      RETURN_IF_ERROR(ApplyEntries(defaults, section, global_warnings));
      for (const Entry& e : section.entries) global_entries.push_back(&e);
      continue;
    }
    FioJob job;
    job.spec = defaults;
    job.spec.name = section.name;
    job.section = section.name;
    job.line = section.line;
    job.file = section.file;
    job.warnings = global_warnings;
    RETURN_IF_ERROR(ApplyEntries(job.spec, section, job.warnings));
    for (const Entry* e : global_entries) {
      if (e->key != "name")
        job.options.push_back(FioOption{e->key, e->value, e->file, e->line, true});
    }
    for (const Entry& e : section.entries) {
      if (e.key != "name") job.options.push_back(FioOption{e.key, e.value, e.file, e.line, false});
    }
    job.global_option_count = 0;
    for (const Entry* e : global_entries) job.global_option_count += e->key != "name";
    // fio warns and runs the job by size when time_based has no runtime; so does azbench.
    if (job.spec.time_based && job.spec.runtime <= absl::ZeroDuration()) {
      job.spec.time_based = false;
      job.warnings.push_back(absl::StrCat(section.origin, ": [", section.name,
                                          "] time_based without a runtime has no effect (as in "
                                          "fio): the job ends when its io_size is done"));
    }
    absl::Status valid = ValidateJobSpec(job.spec);
    if (!valid.ok()) {
      return WithPrefix(valid, absl::StrCat(section.origin, ": job '", job.spec.name, "'"));
    }
    // fio looks the waitee up among the jobs added before this one.
    if (!job.spec.wait_for.empty() && std::none_of(jobs.begin(), jobs.end(), [&](const FioJob& j) {
          return j.spec.name == job.spec.wait_for;
        })) {
      return absl::InvalidArgumentError(absl::StrCat(
          section.origin, ": job '", job.spec.name, "': wait_for=", job.spec.wait_for,
          " names no job before this one (a job can wait only for one defined earlier)"));
    }
    // fio's add_job(): stonewall or new_group opens a new group, unless the current one is still
    // empty.
    if ((job.spec.stonewall || job.spec.new_group) && jobs_in_group > 0) {
      ++group_id;
      jobs_in_group = 0;
    }
    job.group_id = group_id;
    // As fio, the jobs of a reporting group judge steady state alike, or not at all.
    for (const FioJob& other : jobs) {
      if (other.group_id == group_id &&
          !SameSteadyState(other.spec.steadystate, job.spec.steadystate)) {
        return absl::InvalidArgumentError(
            absl::StrCat(section.origin, ": job '", job.spec.name,
                         "': its ss, ss_dur and ss_ramp differ from those of job '",
                         other.spec.name, "' of its reporting group; fio needs them alike"));
      }
    }
    ++jobs_in_group;
    jobs.push_back(std::move(job));
  }
  if (jobs.empty()) return absl::InvalidArgumentError(std::string(no_jobs_message));
  return jobs;
}

absl::StatusOr<std::vector<FioJob>> ParseJobFileText(
    absl::string_view text, const std::string& file,
    const std::vector<std::string>& only_sections) {
  JobFileReader reader;
  std::vector<std::string> include_stack = {CanonicalPath(file)};
  RETURN_IF_ERROR(reader.Read(text, file, /*nested=*/false, include_stack));
  return BuildJobs(reader.sections(),
                   absl::StrCat(file, ": no job defined: add a [jobname] section after [global]"),
                   only_sections);
}

}  // namespace

bool FlatOptionsMatchSpec(const FioJob& job) {
  JobSpec flat;
  for (const bool kb_base_pass : {true, false}) {
    for (const FioOption& o : job.options) {
      if ((o.key == "kb_base") != kb_base_pass) continue;
      if (!ApplyJobOption(flat, o.key, o.value).ok()) return false;
    }
  }
  const JobSpec& spec = job.spec;
  return flat.size_bytes == spec.size_bytes && flat.io_size_bytes == spec.io_size_bytes &&
         flat.offset_bytes == spec.offset_bytes && flat.block_size_bytes == spec.block_size_bytes &&
         flat.rate_iops == spec.rate_iops && flat.rate_bytes_per_s == spec.rate_bytes_per_s &&
         flat.rate_min_bytes_per_s == spec.rate_min_bytes_per_s &&
         flat.offset_increment_bytes == spec.offset_increment_bytes && flat.kb_base == spec.kb_base;
}

absl::StatusOr<std::vector<FioJob>> ParseFioJobFile(std::string_view text,
                                                    std::string_view file_name_for_errors,
                                                    const std::vector<std::string>& only_sections) {
  return ParseJobFileText(Av(text), std::string(file_name_for_errors), only_sections);
}

absl::StatusOr<std::vector<FioJob>> ParseFioJobFileAtPath(
    const std::string& path, const std::vector<std::string>& only_sections) {
  ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "fio job file"));
  return ParseJobFileText(text, path, only_sections);
}

std::vector<std::string> FioJobWarnings(const std::vector<FioJob>& jobs) {
  std::vector<std::string> warnings;
  for (const FioJob& job : jobs) {
    for (const std::string& warning : job.warnings) {
      if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
        warnings.push_back(warning);
      }
    }
  }
  return warnings;
}

std::string FioJobsAsCommandLine(const std::vector<FioJob>& jobs) {
  std::string out = "fio ";
  // A [global] option is written once, before the first job that inherits it, as fio writes it
  // where its section is.
  std::vector<std::pair<std::string, int>> written_globals;
  const auto append = [&out](const FioOption& o) {
    absl::StrAppend(&out, "--", o.key, o.value.empty() ? "" : "=", o.value, " ");
  };
  for (const FioJob& job : jobs) {
    for (int i = 0; i < job.global_option_count; ++i) {
      const FioOption& o = job.options[i];
      const std::pair<std::string, int> where{o.file, o.line};
      if (std::find(written_globals.begin(), written_globals.end(), where) !=
          written_globals.end()) {
        continue;
      }
      written_globals.push_back(where);
      append(o);
    }
    absl::StrAppend(&out, "--name=", job.section, " ");
    for (size_t i = job.global_option_count; i < job.options.size(); ++i) append(job.options[i]);
  }
  return out;
}

absl::StatusOr<std::vector<FioJob>> ParseFioCommandLine(const std::vector<std::string>& args) {
  std::vector<Section> sections = {Section{std::string(kGlobalSection),
                                           true,
                                           std::string(kCommandLineFile),
                                           std::string(kCommandLineFile),
                                           0,
                                           {}}};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const int index = static_cast<int>(i) + 1;
    const std::string where = absl::StrCat("argument ", index, " '", arg, "'");
    if (!absl::StartsWith(arg, "--") || arg.size() == 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": expected --option=value or --flag (job files are read with ParseFioJobFile)"));
    }
    const absl::string_view body = absl::string_view(arg).substr(2);
    const size_t eq = body.find('=');
    const absl::string_view key = body.substr(0, eq);
    const absl::string_view value =
        eq == absl::string_view::npos ? absl::string_view() : body.substr(eq + 1);
    if (key.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": missing option name"));
    }
    if (key == "name") {
      if (value.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": option 'name': a job name is required (--name=<job>)"));
      }
      sections.push_back(
          Section{std::string(value), false, where, std::string(kCommandLineFile), index, {}});
      continue;
    }
    sections.back().entries.push_back(
        Entry{std::string(key), std::string(value), where, std::string(kCommandLineFile), index});
  }
  return BuildJobs(sections,
                   "command line: no job defined: add --name=<job> before the job's options", {});
}

}  // namespace azbench
