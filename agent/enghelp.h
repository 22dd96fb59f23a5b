// `azbench-agent --enghelp[=ENGINE[,OPTION]]`, as fio's: the built-in I/O engines, one engine's
// own options (fio 3.33's engine options and azbench's, with what azbench does with each), or one
// of them in full (as --cmdhelp=OPTION).
//   --enghelp                 "Available IO engines:" and one name a line
//   --enghelp=io_uring        "<option> : <help>" a line
//   --enghelp=io_uring,fixedbufs
#ifndef AZBENCH_AGENT_ENGHELP_H_
#define AZBENCH_AGENT_ENGHELP_H_

#include <ostream>
#include <string_view>

namespace azbench {

// True for "--enghelp" and "--enghelp=...".
bool IsEnghelpArgument(std::string_view arg);

// Writes the help `arg` asks for to `out`; returns the exit code: 0, or 1 (as fio) with a line on
// `err` for an engine that is not built in, one without options, or an option it does not have.
int RunEnghelp(std::string_view arg, std::ostream& out, std::ostream& err);

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGHELP_H_
