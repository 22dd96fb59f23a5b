// azbench: the coordinator CLI. See coordinator/cli/cli.h for the commands.
#include <string>
#include <vector>

#include "coordinator/cli/cli.h"

int main(int argc, char** argv) {
  return azbench::RunCli(std::vector<std::string>(argv + 1, argv + argc));
}
