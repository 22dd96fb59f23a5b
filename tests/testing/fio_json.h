// Test helper: reads a JSON document written by fio or by azbench in fio's format.
#ifndef AZBENCH_TESTS_TESTING_FIO_JSON_H_
#define AZBENCH_TESTS_TESTING_FIO_JSON_H_

#include <string>

#include "nlohmann/json.hpp"
#include "tests/testing/temp_dir.h"

namespace azbench::testing {

// The JSON document in the file at `path`; fio may print notes before it, so it is parsed from the
// first '{'. A discarded (null-like) value when there is none or it does not parse.
inline nlohmann::json LoadFioJson(const std::string& path) {
  const std::string text = FileContents(path);
  const size_t start = text.find('{');
  if (start == std::string::npos) return nlohmann::json();
  return nlohmann::json::parse(text.substr(start), nullptr, /*allow_exceptions=*/false);
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_FIO_JSON_H_
