// `azbench-agent --cmdhelp[=NAME]`, as fio's: the option table (common/fio_option_table.h) as text.
//   --cmdhelp            every option, one line each, with what azbench does with it
//   --cmdhelp=NAME       one option (name or alias): type, range, default, help, azbench status
//   --cmdhelp=markdown   docs/fio-options.md
#ifndef AZBENCH_AGENT_CMDHELP_H_
#define AZBENCH_AGENT_CMDHELP_H_

#include <ostream>
#include <string_view>

namespace azbench {

// True for "--cmdhelp" and "--cmdhelp=...".
bool IsCmdhelpArgument(std::string_view arg);

// Writes the help `arg` asks for to `out`; returns the exit code: 0, or 1 after an error on `err`
// naming the unknown option and the closest one.
int RunCmdhelp(std::string_view arg, std::ostream& out, std::ostream& err);

}  // namespace azbench

#endif  // AZBENCH_AGENT_CMDHELP_H_
