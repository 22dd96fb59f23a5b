// TEST ONLY: sets (or, given nullptr, unsets) an environment variable for a scope and puts back
// what was there before.
//
//   testing::ScopedEnv timeout("AWS_METADATA_SERVICE_TIMEOUT", "10");
#ifndef AZBENCH_TESTS_TESTING_SCOPED_ENV_H_
#define AZBENCH_TESTS_TESTING_SCOPED_ENV_H_

#include <stdlib.h>

#include <optional>
#include <string>

namespace azbench::testing {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name); old != nullptr) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ScopedEnv(const char* name, const std::string& value) : ScopedEnv(name, value.c_str()) {}
  ~ScopedEnv() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_SCOPED_ENV_H_
