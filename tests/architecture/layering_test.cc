// The layout's rules, checked on the source tree: a folder includes only itself and the folders
// below it (docs/architecture.md draws the order), the agent and the coordinator never include
// each other, every quoted include names a file of the repository, and no two files include
// each other, directly or through others.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;

// Lower first. A folder may include folders of a lower rank in its own tree and common/; folders
// of one rank (block_io and visibility) are siblings that never include each other.
const std::map<std::string, int>& Ranks() {
  static const auto* ranks = new std::map<std::string, int>{
      {"common", 0},
      {"agent/s3", 1},
      {"agent/host", 2},
      {"agent/confinement", 3},
      {"agent/engines", 4},
      {"agent/workloads", 5},
      {"agent/workloads/block_io", 6},
      {"agent/workloads/metadata", 6},
      {"agent/workloads/small_files", 6},
      {"agent/workloads/large_stream", 6},
      {"agent/workloads/visibility", 6},
      {"agent/runner", 7},
      {"agent/server", 8},
      {"agent", 9},
      {"coordinator", 1},
      {"coordinator/fleet", 2},
      {"coordinator/campaign", 3},
      {"coordinator/lab", 3},
      {"coordinator/plan", 4},
      {"coordinator/store", 5},
      {"coordinator/run", 6},
      {"coordinator/report", 7},
      {"coordinator/cli", 8},
  };
  return *ranks;
}

std::string Tree(const std::string& folder) { return folder.substr(0, folder.find('/')); }

bool IsSourceFile(const fs::path& p) { return p.extension() == ".cc" || p.extension() == ".h"; }

struct Include {
  std::string target;  // as written, relative to the repository root
  int line = 0;
};

std::map<std::string, std::vector<Include>> ReadIncludes(const fs::path& root) {
  static const std::regex kInclude(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::map<std::string, std::vector<Include>> out;
  for (const char* top : {"common", "agent", "coordinator"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      if (!entry.is_regular_file() || !IsSourceFile(entry.path())) continue;
      const std::string file = fs::relative(entry.path(), root).string();
      std::ifstream in(entry.path());
      std::string text;
      int line = 0;
      auto& includes = out[file];
      while (std::getline(in, text)) {
        ++line;
        std::smatch m;
        if (std::regex_search(text, m, kInclude)) includes.push_back({m[1].str(), line});
      }
    }
  }
  return out;
}

bool IsProjectPath(const std::string& include) {
  return include.rfind("common/", 0) == 0 || include.rfind("agent/", 0) == 0 ||
         include.rfind("coordinator/", 0) == 0;
}

using IncludeMap = std::map<std::string, std::vector<Include>>;

// "file:line includes target" for each include that goes up, sideways or across trees.
std::vector<std::string> UpwardIncludes(const IncludeMap& includes) {
  std::vector<std::string> violations;
  for (const auto& [file, list] : includes) {
    const std::string folder = fs::path(file).parent_path().string();
    auto own = Ranks().find(folder);
    if (own == Ranks().end()) continue;
    // A binary's main.cc sits above every library of its tree.
    const bool is_main = fs::path(file).filename() == "main.cc";
    for (const Include& inc : list) {
      if (!IsProjectPath(inc.target)) continue;
      const std::string target_folder = fs::path(inc.target).parent_path().string();
      if (target_folder == folder) continue;
      auto target = Ranks().find(target_folder);
      const bool same_tree = Tree(target_folder) == Tree(folder) || Tree(target_folder) == "common";
      if (target == Ranks().end() || !same_tree || (target->second >= own->second && !is_main)) {
        violations.push_back(absl::StrCat(file, ":", inc.line, " includes ", inc.target));
      }
    }
  }
  return violations;
}

// Each cycle as "a -> b -> ... -> a" (depth-first search; a back edge closes a cycle).
std::vector<std::string> IncludeCycles(const IncludeMap& includes) {
  std::map<std::string, int> state;  // 0 unvisited, 1 on the stack, 2 done
  std::vector<std::string> stack;
  std::vector<std::string> cycles;
  std::function<void(const std::string&)> visit = [&](const std::string& file) {
    state[file] = 1;
    stack.push_back(file);
    for (const Include& inc : includes.at(file)) {
      if (!includes.contains(inc.target)) continue;
      if (state[inc.target] == 1) {
        std::vector<std::string> path(std::find(stack.begin(), stack.end(), inc.target),
                                      stack.end());
        path.push_back(inc.target);
        cycles.push_back(absl::StrJoin(path, " -> "));
      } else if (state[inc.target] == 0) {
        visit(inc.target);
      }
    }
    stack.pop_back();
    state[file] = 2;
  };
  for (const auto& [file, unused] : includes) {
    if (state[file] == 0) visit(file);
  }
  return cycles;
}

class LayeringTest : public ::testing::Test {
 protected:
  const fs::path root_ = AZBENCH_SOURCE_DIR;
  const IncludeMap includes_ = ReadIncludes(root_);
};

TEST_F(LayeringTest, EveryFolderHasARank) {
  std::set<std::string> missing;
  for (const auto& [file, unused] : includes_) {
    const std::string folder = fs::path(file).parent_path().string();
    if (!Ranks().contains(folder)) missing.insert(folder);
  }
  EXPECT_TRUE(missing.empty()) << "folders without a rank in this test (add them, lower first): "
                               << absl::StrJoin(missing, ", ");
}

TEST_F(LayeringTest, AFolderIncludesOnlyItselfAndTheFoldersBelowIt) {
  const std::vector<std::string> violations = UpwardIncludes(includes_);
  EXPECT_TRUE(violations.empty()) << "includes that go up, sideways or across trees:\n"
                                  << absl::StrJoin(violations, "\n");
}

TEST_F(LayeringTest, EveryQuotedProjectIncludeNamesAFile) {
  std::vector<std::string> missing;
  for (const auto& [file, list] : includes_) {
    for (const Include& inc : list) {
      if (IsProjectPath(inc.target) && !fs::exists(root_ / inc.target)) {
        missing.push_back(absl::StrCat(file, ":", inc.line, " includes ", inc.target));
      }
    }
  }
  EXPECT_TRUE(missing.empty()) << absl::StrJoin(missing, "\n");
}

TEST_F(LayeringTest, NoIncludeCycles) {
  const std::vector<std::string> cycles = IncludeCycles(includes_);
  EXPECT_TRUE(cycles.empty()) << absl::StrJoin(cycles, "\n");
}

TEST(LayeringRules, AnUpwardASidewaysAndACrossTreeIncludeAreCaught) {
  const IncludeMap includes = {
      {"agent/engines/a.cc", {{"agent/runner/runner.h", 3}, {"common/units.h", 4}}},
      {"agent/workloads/block_io/b.cc", {{"agent/workloads/visibility/v.h", 7}}},
      {"coordinator/cli/c.cc", {{"agent/host/mounts.h", 9}, {"coordinator/run/run.h", 10}}},
  };
  EXPECT_EQ(UpwardIncludes(includes),
            (std::vector<std::string>{
                "agent/engines/a.cc:3 includes agent/runner/runner.h",
                "agent/workloads/block_io/b.cc:7 includes agent/workloads/visibility/v.h",
                "coordinator/cli/c.cc:9 includes agent/host/mounts.h"}));
}

TEST(LayeringRules, ACycleThroughThreeFilesIsCaught) {
  const IncludeMap includes = {
      {"common/a.h", {{"common/b.h", 1}}},
      {"common/b.h", {{"common/c.h", 1}}},
      {"common/c.h", {{"common/a.h", 1}}},
      {"common/d.h", {{"common/a.h", 1}}},
  };
  EXPECT_EQ(IncludeCycles(includes),
            (std::vector<std::string>{"common/a.h -> common/b.h -> common/c.h -> common/a.h"}));
}

}  // namespace
}  // namespace azbench
