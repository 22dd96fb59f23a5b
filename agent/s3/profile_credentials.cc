#include "agent/s3/profile_credentials.h"

#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/file_util.h"

namespace azbench::s3 {

absl::StatusOr<Credentials> ParseProfileCredentials(const std::string& text,
                                                    const std::string& file_name,
                                                    const std::string& profile) {
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  bool in_profile = false;
  bool found = false;
  int section_line = 0;
  Credentials c;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string stripped(absl::StripAsciiWhitespace(line));
    if (stripped.empty() || stripped[0] == '#' || stripped[0] == ';') continue;
    if (stripped[0] == '[') {
      if (stripped.back() != ']') {
        return absl::InvalidArgumentError(
            absl::StrCat(file_name, ":", line_number, ": section header lacks ']': ", stripped));
      }
      std::string name(absl::StripAsciiWhitespace(stripped.substr(1, stripped.size() - 2)));
      if (absl::StartsWith(name, "profile ")) {
        name = std::string(absl::StripAsciiWhitespace(name.substr(8)));
      }
      in_profile = name == profile;
      if (in_profile) {
        found = true;
        section_line = line_number;
      }
      continue;
    }
    const size_t eq = stripped.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(file_name, ":", line_number, ": expected 'key = value', got: ", stripped));
    }
    if (!in_profile) continue;
    const std::string key =
        absl::AsciiStrToLower(absl::StripAsciiWhitespace(stripped.substr(0, eq)));
    const std::string value(absl::StripAsciiWhitespace(stripped.substr(eq + 1)));
    if (key == "aws_access_key_id") c.access_key_id = value;
    if (key == "aws_secret_access_key") c.secret_access_key = value;
    if (key == "aws_session_token") c.session_token = value;
  }
  if (!found) {
    return absl::NotFoundError(absl::StrCat("profile [", profile, "] not in ", file_name));
  }
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(file_name, ":", section_line, ": profile [", profile, "] lacks ",
                     c.access_key_id.empty() ? "aws_access_key_id" : "aws_secret_access_key"));
  }
  c.source = absl::StrCat("shared credentials file ", file_name, " [profile ", profile, "]");
  return c;
}

std::string ProfileCredentialsProvider::ResolvedFile() const {
  if (!file_.empty()) return file_;
  if (auto f = env_("AWS_SHARED_CREDENTIALS_FILE"); f.has_value() && !f->empty()) return *f;
  const std::optional<std::string> home = env_("HOME");
  return absl::StrCat(home.has_value() ? *home : "", "/.aws/credentials");
}

std::string ProfileCredentialsProvider::ResolvedProfile() const {
  if (!profile_.empty()) return profile_;
  if (auto p = env_("AWS_PROFILE"); p.has_value() && !p->empty()) return *p;
  return "default";
}

absl::StatusOr<Credentials> ProfileCredentialsProvider::Get() {
  const std::string file = ResolvedFile();
  const std::string profile = ResolvedProfile();
  const bool profile_chosen = profile != "default";
  absl::StatusOr<std::string> text = ReadWholeFile(file, "credentials file");
  if (!text.ok()) {
    // A FIFO, device or directory in its place is a mistake to report, not a file to wait on.
    if (absl::IsInvalidArgument(text.status())) return text.status();
    if (profile_chosen) {
      return absl::InvalidArgumentError(absl::StrCat("profile [", profile,
                                                     "] was asked for but the credentials file ",
                                                     file, " cannot be read"));
    }
    return absl::NotFoundError(absl::StrCat(file, " does not exist"));
  }
  absl::StatusOr<Credentials> c = ParseProfileCredentials(*text, file, profile);
  if (!c.ok() && absl::IsNotFound(c.status()) && profile_chosen) {
    return absl::InvalidArgumentError(
        absl::StrCat(c.status().message(), " (chosen by AWS_PROFILE or the profile setting)"));
  }
  return c;
}

}  // namespace azbench::s3
