// fio job files and fio command lines -> validated JobSpecs.
//
// Job file syntax (fio's INI dialect, as fio 3.33 reads it):
//   - `[global]` sections hold defaults. There may be several; each applies to the jobs after it,
//   and a later
//     one adds to (and overrides) the earlier ones.
//   - `[jobname]` starts a job that inherits every global option seen so far; its name is the
//   section name
//     (a `name=` option inside it overrides that).
//   - `key=value` or a bare `key` (a flag such as `time_based`: the empty value means true). Keys
//   and values
//     are trimmed. A line ends at its first `#` or `;` (fio 3.33's rule, so `bs=4k ; note` is
//     `bs=4k`, and neither character can be part of a value); blank lines are ignored.
//   - `kb_base` is applied before the other options of its section, as fio does, so `size=1m` means
//   the same
//     wherever `kb_base=1000` appears in that section.
//   - `${VAR}` in a value is replaced by the environment variable VAR (an unset variable is an
//   error).
//   - `include other.fio` adds the options of another file to the current section (fio forbids
//   sections in
//     included files, and so does azbench). A relative path is relative to the including file's
//     directory. Includes nest at most kMaxFioIncludeDepth deep; a file that includes itself
//     (directly or not) is an error naming the cycle.
//   - Options before the first section are an error, as in fio.
// Command lines: `--name=x --rw=read --bs=4m ...`. Options before the first `--name=` are global;
// each
// `--name=` starts a job; `--flag` with no `=` is a bare flag.
//
// Errors carry where they happened: "job.fio:12: option 'bs': '4x' is not a valid size: ...", or
// "argument 3 '--bs=4x': ..." for command lines. Unknown and refused options keep the codes of
// ApplyJobOption (NotFound, Unimplemented), bad values InvalidArgument, unreadable files the
// errno-derived code (NotFound for a missing file).
//
// Example:
//   ASSIGN_OR_RETURN(std::vector<FioJob> jobs, ParseFioJobFileAtPath("study-c.fio"));
//   for (const FioJob& job : jobs) Schedule(job.spec, job.group_id);
#ifndef AZBENCH_COMMON_FIO_JOBFILE_H_
#define AZBENCH_COMMON_FIO_JOBFILE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_spec.h"

namespace azbench {

inline constexpr int kMaxFioIncludeDepth = 16;

// One option as written: key, value (${VAR} expanded, units kept), and where it was written.
struct FioOption {
  std::string key;
  std::string value;
  std::string file;     // the file holding the line (an included file for included options)
  int line = 0;         // 1-based; command lines: the argument's 1-based index
  bool global = false;  // from a [global] section (command lines: before the first --name=)
};

struct FioJob {
  JobSpec spec;  // globals applied, then the section's options; ValidateJobSpec has passed
  // Job files: the line of the `[name]` header. Command lines: the 1-based index of the `--name=`
  // argument.
  int line = 0;
  // fio's reporting group (0-based): a job with stonewall or new_group starts a new group unless it
  // is the first job of the current one. numjobs clones of one job share its group.
  int group_id = 0;
  std::string file;  // the file holding the section header; "command line" for ParseFioCommandLine
  // The section's name as written (`[name]`, `--name=`), even when a `name=` option renames the
  // job.
  std::string section;
  // Options that are accepted without effect in azbench (the option table's kNoEffect), each
  // "<file>:<line>: [<section>] option 'thread' has no effect in azbench: <why>" (command lines:
  // "argument 3 '--thread': ..."). [global] ones appear in every job that inherits them.
  std::vector<std::string> warnings;
  // The job's options as written, in the order fio applies them: every [global] option seen before
  // the section (in file order, includes inlined), then the section's own. `name` is left out (it
  // is spec.name). This is the form agents receive a job in (proto JobSpec.options); applying it
  // with ApplyJobOption (kb_base first) gives `spec`, except when a job section sets kb_base while
  // [global] sizes came before it (fio applies kb_base per section; see FlatOptionsMatchSpec).
  std::vector<FioOption> options;
  // How many of `options` (the first ones) came from [global] sections.
  int global_option_count = 0;
};

// True when applying `job.options` as one flat list (kb_base first, then in order; the way agents
// apply a job's options) yields the same sizes as `job.spec`. False only in the corner case named
// above, which a caller that ships option lists must refuse.
bool FlatOptionsMatchSpec(const FioJob& job);

// Parses job file text. `file_name_for_errors` prefixes every error and is the base for relative
// includes. Errors: see the header comment; InvalidArgument also for a file with no job section.
// `only_sections` (fio's --section): when not empty, only these job sections are read and run
// ([global] sections always are); NotFound naming the sections for one that is not in the file.
absl::StatusOr<std::vector<FioJob>> ParseFioJobFile(
    std::string_view text, std::string_view file_name_for_errors,
    const std::vector<std::string>& only_sections = {});

// Reads and parses the job file at `path`. Errors: as ParseFioJobFile, plus the errno-derived code
// when the file cannot be read (NotFound if it does not exist).
absl::StatusOr<std::vector<FioJob>> ParseFioJobFileAtPath(
    const std::string& path, const std::vector<std::string>& only_sections = {});

// Every job's warnings, each once, in order (a [global] warning is on every job).
std::vector<std::string> FioJobWarnings(const std::vector<FioJob>& jobs);

// The jobs as one fio command line, as `fio --showcmd` prints a job file: "fio --bs=4k --name=a
// --rw=read ... " (each [global] option once, before the first job that inherits it; a bare flag
// as `--flag`; a trailing space, no newline).
std::string FioJobsAsCommandLine(const std::vector<FioJob>& jobs);

// Parses fio's command-line job form. `args` are the arguments after the program name.
absl::StatusOr<std::vector<FioJob>> ParseFioCommandLine(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_COMMON_FIO_JOBFILE_H_
