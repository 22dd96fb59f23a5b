#include "coordinator/lab/delay_line.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace azbench {
namespace {

constexpr std::chrono::microseconds kSpin(100);
// struct virtio_net_hdr (flags, gso_type, hdr_len, gso_size, csum_start, csum_offset): the TUN
// default header size. <linux/virtio_net.h> does not compile as C++.
constexpr int kVnetHeaderBytes = 10;

}  // namespace

DelayLine::DelayLine(LabTopology lab)
    : lab_(std::move(lab)), one_way_(absl::ToChronoNanoseconds(lab_.options.cross_az_delay / 2)) {}

DelayLine::~DelayLine() {
  for (int fd : fds_) close(fd);
}

absl::Status DelayLine::Open() {
  // The default 50 us timer slack would be added to every packet's wait.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  for (const LabAz& az : lab_.azs) {
    const int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    ifreq ifr{};
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI | IFF_VNET_HDR;
    strncpy(ifr.ifr_name, az.tun.c_str(), IFNAMSIZ - 1);
    // With a virtio-net header and offloads a read carries a whole TCP segment of up to 64 KiB
    // rather than one MTU-sized packet: one read and one write per segment, not per packet, which
    // is what lets one thread carry a gigabit.
    const int header_bytes = kVnetHeaderBytes;
    if (fd < 0 || ioctl(fd, TUNSETIFF, &ifr) != 0 ||
        ioctl(fd, TUNSETVNETHDRSZ, &header_bytes) != 0 ||
        ioctl(fd, TUNSETOFFLOAD, TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6) != 0) {
      const int saved = errno;
      if (fd >= 0) close(fd);
      return absl::InternalError(
          absl::StrCat("cannot attach to TUN device ", az.tun, ": ", strerror(saved)));
    }
    fds_.push_back(fd);
  }
  return absl::OkStatus();
}

void DelayLine::ReadAvailable(int fd) {
  char buf[kVnetHeaderBytes + 65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) return;
    // IPv4 only (the lab has no IPv6 addresses); after the virtio-net header (passed on as it
    // is), the destination address is bytes 16..19 of the IP header.
    const unsigned char* ip = reinterpret_cast<const unsigned char*>(buf) + kVnetHeaderBytes;
    if (n < kVnetHeaderBytes + 20 || (ip[0] >> 4) != 4) continue;
    const uint32_t dst = (static_cast<uint32_t>(ip[16]) << 24) |
                         (static_cast<uint32_t>(ip[17]) << 16) |
                         (static_cast<uint32_t>(ip[18]) << 8) | static_cast<uint32_t>(ip[19]);
    const int az = LabAzOfAddress(lab_, dst);
    if (az < 0) continue;
    // A buffer of a packet already sent is reused: no allocation per packet once the queue
    // has been as long as it gets.
    std::string bytes;
    if (!spare_.empty()) {
      bytes = std::move(spare_.back());
      spare_.pop_back();
    }
    bytes.assign(buf, static_cast<size_t>(n));
    queue_.push_back({std::chrono::steady_clock::now() + one_way_, fds_[az], std::move(bytes)});
  }
}

void DelayLine::WriteDue(std::chrono::steady_clock::time_point now) {
  while (!queue_.empty() && queue_.front().due <= now) {
    const Packet& p = queue_.front();
    // A full TUN queue drops the packet, as a full link would; TCP resends it.
    (void)!write(p.out_fd, p.bytes.data(), p.bytes.size());
    spare_.push_back(std::move(queue_.front().bytes));
    queue_.pop_front();
  }
}

absl::Status DelayLine::Run() {
  std::vector<pollfd> polls;
  for (int fd : fds_) polls.push_back({fd, POLLIN, 0});
  for (;;) {
    timespec timeout{};
    timespec* wait = nullptr;
    if (!queue_.empty()) {
      const auto left = queue_.front().due - std::chrono::steady_clock::now();
      // Sleep until shortly before the packet is due, then poll without sleeping: a wake-up
      // from ppoll comes tens of microseconds late, and every packet would carry that.
      const int64_t ns = std::max<int64_t>(
          0, std::chrono::duration_cast<std::chrono::nanoseconds>(left - kSpin).count());
      timeout.tv_sec = ns / 1'000'000'000;
      timeout.tv_nsec = ns % 1'000'000'000;
      wait = &timeout;
    }
    const int ready = ppoll(polls.data(), polls.size(), wait, nullptr);
    if (ready < 0 && errno != EINTR) {
      return absl::InternalError(absl::StrCat("ppoll: ", strerror(errno)));
    }
    for (const pollfd& p : polls) {
      if (ready > 0 && (p.revents & POLLIN) != 0) ReadAvailable(p.fd);
    }
    WriteDue(std::chrono::steady_clock::now());
  }
}

}  // namespace azbench
