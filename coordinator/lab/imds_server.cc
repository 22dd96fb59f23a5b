#include "coordinator/lab/imds_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {
namespace {

constexpr char kToken[] = "azbench-lab-imds-token";
constexpr char kPrefix[] = "/latest/meta-data/";

std::string StatusText(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    default:
      return "Not Found";
  }
}

void HandleConnection(int fd, const ImdsValues& values) {
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) return;
    request.append(buf, static_cast<size_t>(n));
  }
  std::vector<std::string> lines =
      absl::StrSplit(request.substr(0, request.find("\r\n\r\n")), "\r\n");
  std::vector<std::string> first = absl::StrSplit(lines[0], ' ');
  std::map<std::string, std::string> headers;
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
        std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
  }
  const ImdsAnswer answer =
      first.size() >= 2 ? AnswerImds(values, first[0], first[1], headers) : ImdsAnswer{400, ""};
  const std::string response =
      absl::StrCat("HTTP/1.1 ", answer.status, " ", StatusText(answer.status),
                   "\r\nContent-Type: text/plain\r\nContent-Length: ", answer.body.size(),
                   "\r\nConnection: close\r\n\r\n", answer.body);
  size_t done = 0;
  while (done < response.size()) {
    const ssize_t n = write(fd, response.data() + done, response.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace

ImdsValues LabImdsValues(const LabTopology& lab, int az, int agent) {
  const LabAz& a = lab.azs[az];
  const std::string mac = absl::StrCat("0e:00:00:00:", absl::Hex(az, absl::kZeroPad2), ":",
                                       absl::Hex(agent, absl::kZeroPad2));
  const std::string interface = "network/interfaces/macs/" + mac + "/";
  return {
      {"placement/region", "lab-1"},
      {"placement/availability-zone", a.name},
      {"placement/availability-zone-id", a.id},
      {"instance-id", "i-lab-" + a.agents[agent].name},
      {"instance-type", "lab.local"},
      {"local-ipv4", a.agents[agent].address},
      {"mac", mac},
      {interface + "subnet-id", "subnet-" + a.name},
      {interface + "subnet-ipv4-cidr-block", a.subnet},
  };
}

ImdsAnswer AnswerImds(const ImdsValues& values, const std::string& method, const std::string& path,
                      const std::map<std::string, std::string>& headers) {
  if (method == "PUT" && path == "/latest/api/token") {
    if (headers.count("x-aws-ec2-metadata-token-ttl-seconds") == 0) return {400, ""};
    return {200, kToken};
  }
  auto token = headers.find("x-aws-ec2-metadata-token");
  if (token == headers.end() || token->second != kToken) return {401, ""};
  if (method != "GET" || path.rfind(kPrefix, 0) != 0) return {404, ""};
  const std::string key = path.substr(sizeof(kPrefix) - 1);
  if (auto v = values.find(key); v != values.end()) return {200, v->second};
  if (key.empty() || key.back() == '/') {
    std::string listing;
    std::string last;
    for (const auto& [k, unused] : values) {
      if (k.rfind(key, 0) != 0) continue;
      const std::string rest = k.substr(key.size());
      const size_t slash = rest.find('/');
      const std::string entry = slash == std::string::npos ? rest : rest.substr(0, slash + 1);
      if (entry == last) continue;
      listing += (listing.empty() ? "" : "\n") + entry;
      last = entry;
    }
    if (!listing.empty()) return {200, listing};
  }
  return {404, ""};
}

absl::Status ServeImds(const std::string& address, int port, const ImdsValues& values) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (listener < 0 || inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1 ||
      bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      listen(listener, 64) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot listen on ", address, ":", port, ": ", strerror(errno)));
  }
  // The lab starts the agent only after this line: an agent asks its IMDS once, at start.
  std::cout << kImdsReadyLine << std::endl;
  for (;;) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(absl::StrCat("accept: ", strerror(errno)));
    }
    HandleConnection(fd, values);
    close(fd);
  }
}

}  // namespace azbench
