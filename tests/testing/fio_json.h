// Test helper: reads a JSON document written by fio or by azbench in fio's format.
#ifndef AZBENCH_TESTS_TESTING_FIO_JSON_H_
#define AZBENCH_TESTS_TESTING_FIO_JSON_H_

#include <string>

#include "nlohmann/json.hpp"
#include "tests/testing/temp_dir.h"

namespace azbench::testing {

// The JSON document in the file at `path`; fio may print notes before it, so it is parsed from the
// first '{'. fio 3.33 writes a steady-state figure it could not compute as a bare `nan` or `-nan`,
// which is no JSON: such a value reads as null. A discarded (null-like) value when there is no
// document or it does not parse.
inline nlohmann::json LoadFioJson(const std::string& path) {
  std::string text = FileContents(path);
  const size_t start = text.find('{');
  if (start == std::string::npos) return nlohmann::json();
  text.erase(0, start);
  for (const std::string nan : {": -nan", ": nan"}) {
    for (size_t at = text.find(nan); at != std::string::npos; at = text.find(nan, at)) {
      text.replace(at, nan.size(), ": null");
    }
  }
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_FIO_JSON_H_
