// bare_pread: the ceiling for a synchronous engine. A bare pread/pwrite loop on one file for N
// seconds, with no per-op accounting and no clock read per op (one clock read at the start, one at
// the end; a SIGALRM sets the stop flag). Prints one line: "iops=<n> mbps=<MiB/s> ops=<n>
// secs=<s> usr_ns_per_op=<ns> sys_ns_per_op=<ns>" (the loop thread's CPU time per op, getrusage).
//
//   cc -O2 -o bare_pread bench/bare_pread.c
//   bare_pread [-d] [-w] [-s] [-b BLOCK_BYTES] [-t SECONDS] FILE
//     -d  O_DIRECT          -w  pwrite instead of pread
//     -s  sequential (wraps at the end of the file) instead of uniformly random block offsets
//     -b  block size in bytes (default 4096; 4194304 for the 4 MiB sequential cases)
//     -t  seconds to run (default 5)
// The file must already exist; its size sets the offset range (whole blocks only).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop = 0;

static void on_alarm(int sig) {
  (void)sig;
  g_stop = 1;
}

// User and system CPU time of the calling thread so far, in nanoseconds.
static void thread_cpu_ns(double* user_ns, double* system_ns) {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  *user_ns = (double)ru.ru_utime.tv_sec * 1e9 + (double)ru.ru_utime.tv_usec * 1e3;
  *system_ns = (double)ru.ru_stime.tv_sec * 1e9 + (double)ru.ru_stime.tv_usec * 1e3;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// xorshift64*: a few instructions per offset.
static inline uint64_t next_rand(uint64_t* s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static void usage(void) {
  fprintf(stderr, "usage: bare_pread [-d] [-w] [-s] [-b BLOCK_BYTES] [-t SECONDS] FILE\n");
  exit(2);
}

int main(int argc, char** argv) {
  int direct = 0, write_mode = 0, sequential = 0, seconds = 5;
  uint64_t bs = 4096;
  int opt;
  while ((opt = getopt(argc, argv, "dwsb:t:")) != -1) {
    switch (opt) {
      case 'd':
        direct = 1;
        break;
      case 'w':
        write_mode = 1;
        break;
      case 's':
        sequential = 1;
        break;
      case 'b':
        bs = strtoull(optarg, NULL, 0);
        break;
      case 't':
        seconds = atoi(optarg);
        break;
      default:
        usage();
    }
  }
  if (optind != argc - 1 || bs == 0 || seconds <= 0) usage();
  const char* path = argv[optind];
  int fd = open(path, (write_mode ? O_RDWR : O_RDONLY) | (direct ? O_DIRECT : 0));
  if (fd < 0) {
    fprintf(stderr, "bare_pread: open %s: %s\n", path, strerror(errno));
    return 1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    fprintf(stderr, "bare_pread: fstat: %s\n", strerror(errno));
    return 1;
  }
  const uint64_t blocks = (uint64_t)st.st_size / bs;
  if (blocks == 0) {
    fprintf(stderr, "bare_pread: %s is smaller than one block\n", path);
    return 1;
  }
  void* buf = NULL;
  if (posix_memalign(&buf, 4096, bs) != 0) {
    fprintf(stderr, "bare_pread: cannot allocate %llu bytes\n", (unsigned long long)bs);
    return 1;
  }
  // Random content, so a write is not a page of zeros.
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  for (uint64_t i = 0; i + 8 <= bs; i += 8) {
    uint64_t v = next_rand(&seed);
    memcpy((char*)buf + i, &v, 8);
  }

  signal(SIGALRM, on_alarm);
  uint64_t ops = 0, block = 0, rng = 0x853c49e6748fea9bULL;
  double user0_ns, system0_ns, user1_ns, system1_ns;
  thread_cpu_ns(&user0_ns, &system0_ns);
  const double start = now_s();
  alarm((unsigned)seconds);
  while (!g_stop) {
    uint64_t b;
    if (sequential) {
      b = block++;
      if (block == blocks) block = 0;
    } else {
      b = next_rand(&rng) % blocks;
    }
    ssize_t r =
        write_mode ? pwrite(fd, buf, bs, (off_t)(b * bs)) : pread(fd, buf, bs, (off_t)(b * bs));
    if (r != (ssize_t)bs) {
      if (r < 0 && errno == EINTR) continue;  // the alarm itself
      fprintf(stderr, "bare_pread: %s at block %llu returned %zd (%s)\n",
              write_mode ? "pwrite" : "pread", (unsigned long long)b, r,
              r < 0 ? strerror(errno) : "short");
      return 1;
    }
    ++ops;
  }
  const double secs = now_s() - start;
  thread_cpu_ns(&user1_ns, &system1_ns);
  const double per_op = ops > 0 ? 1.0 / (double)ops : 0;
  printf("iops=%.0f mbps=%.1f ops=%llu secs=%.3f usr_ns_per_op=%.0f sys_ns_per_op=%.0f\n",
         (double)ops / secs, (double)ops * (double)bs / secs / 1048576.0, (unsigned long long)ops,
         secs, (user1_ns - user0_ns) * per_op, (system1_ns - system0_ns) * per_op);
  free(buf);
  close(fd);
  return 0;
}
