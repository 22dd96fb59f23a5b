// bare_uring: the ceiling for an io_uring engine. A bare liburing loop at iodepth D doing 4 KiB
// (or -b bytes) uniformly random reads for N seconds: it fills every free slot with an SQE, submits
// them all and waits for at least one completion in the same io_uring_enter
// (io_uring_submit_and_wait(ring, 1)), then peeks every ready CQE at once. No per-op accounting, no
// clock read per op (one at the start, one at the end; a SIGALRM sets the stop flag). By default
// the buffers and the file are registered (READ_FIXED + IOSQE_FIXED_FILE), as azbench's io_uring
// engine does for O_DIRECT; -u uses plain IORING_OP_READ on the registered file, as azbench does
// for buffered reads; -n uses plain IORING_OP_READ on a plain fd, as fio's io_uring engine does by
// default. Ring set-up flags: by default COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN, as fio 3.33
// sets them (no IPI to run completion task_work; it runs when the loop enters the kernel to wait),
// with the same fall-back as fio when the kernel refuses them; -p uses plain flags (0) (what
// azbench's io_uring engine did before 2026-11-30, when it set only SUBMIT_ALL; it now sets
// COOP_TASKRUN | SINGLE_ISSUER | DEFER_TASKRUN where the kernel has them); -f FLAGS sets
// them explicitly (e.g. -f 0x100 for COOP_TASKRUN alone; no fall-back then). -w NS: when more than
// one read is in flight and none has completed by the end of the submit call, spin NS nanoseconds
// before entering the kernel to wait (submit and wait are then two calls), as azbench's io_uring
// engine does while its waits are short (agent/engines/wait_pause.h): on tmpfs, where io-wq
// workers do the reads, one wait then collects several completions. Prints one line:
// "iops=<n> ops=<n> secs=<s> depth=<d> ring_flags=<hex> usr_ns_per_op=<ns> sys_ns_per_op=<ns>" (the
// loop thread's CPU time per op, getrusage; io-wq workers' time is not in it).
//
//   cc -O2 -o bare_uring bench/bare_uring.c -luring
//   bare_uring [-d] [-u | -n] [-p | -f FLAGS] [-w PAUSE_NS] [-q DEPTH] [-b BLOCK_BYTES]
//              [-t SECONDS] FILE
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
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

static inline uint64_t next_rand(uint64_t* s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static void usage(void) {
  fprintf(
      stderr,
      "usage: bare_uring [-d] [-u | -n] [-p | -f FLAGS] [-w PAUSE_NS] [-q DEPTH] [-b BLOCK_BYTES] "
      "[-t SECONDS] FILE\n");
  exit(2);
}

int main(int argc, char** argv) {
  int direct = 0, plain = 0, plain_buffers = 0, plain_flags = 0, explicit_flags = 0, depth = 1,
      seconds = 5;
  double pause_s = 0;
  unsigned flags =
      IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  uint64_t bs = 4096;
  int opt;
  while ((opt = getopt(argc, argv, "dunpf:w:q:b:t:")) != -1) {
    switch (opt) {
      case 'd':
        direct = 1;
        break;
      case 'u':
        plain_buffers = 1;
        break;
      case 'n':
        plain = 1;
        break;
      case 'p':
        plain_flags = 1;
        break;
      case 'f':
        explicit_flags = 1;
        flags = (unsigned)strtoul(optarg, NULL, 0);
        break;
      case 'w':
        pause_s = atof(optarg) / 1e9;
        break;
      case 'q':
        depth = atoi(optarg);
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
  if (optind != argc - 1 || depth < 1 || depth > 4096 || bs == 0 || seconds <= 0 || pause_s < 0)
    usage();
  const char* path = argv[optind];
  int fd = open(path, O_RDONLY | (direct ? O_DIRECT : 0));
  if (fd < 0) {
    fprintf(stderr, "bare_uring: open %s: %s\n", path, strerror(errno));
    return 1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    fprintf(stderr, "bare_uring: fstat: %s\n", strerror(errno));
    return 1;
  }
  const uint64_t blocks = (uint64_t)st.st_size / bs;
  if (blocks == 0) {
    fprintf(stderr, "bare_uring: %s is smaller than one block\n", path);
    return 1;
  }

  struct io_uring ring;
  if (plain_flags) flags = 0;
  int ret;
  for (;;) {
    ret = io_uring_queue_init((unsigned)depth, &ring, flags);
    if (ret != -EINVAL || flags == 0 || explicit_flags) break;
    // Older kernels: drop DEFER_TASKRUN and SINGLE_ISSUER first, then COOP_TASKRUN (as fio does).
    if (flags & IORING_SETUP_DEFER_TASKRUN) {
      flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER);
    } else {
      flags = 0;
    }
  }
  if (ret < 0) {
    fprintf(stderr, "bare_uring: io_uring_queue_init(%d): %s\n", depth, strerror(-ret));
    return 1;
  }
  struct iovec* iov = calloc((size_t)depth, sizeof(*iov));
  int* free_slots = calloc((size_t)depth, sizeof(int));
  struct io_uring_cqe** cqes = calloc((size_t)depth, sizeof(*cqes));
  if (iov == NULL || free_slots == NULL || cqes == NULL) return 1;
  for (int i = 0; i < depth; ++i) {
    if (posix_memalign(&iov[i].iov_base, 4096, bs) != 0) return 1;
    memset(iov[i].iov_base, 0, bs);
    iov[i].iov_len = bs;
    free_slots[i] = i;
  }
  int file = fd;
  unsigned sqe_flags = 0;
  if (plain) plain_buffers = 1;
  if (!plain_buffers) {
    ret = io_uring_register_buffers(&ring, iov, (unsigned)depth);
    if (ret < 0) {
      fprintf(stderr, "bare_uring: io_uring_register_buffers: %s (use -u)\n", strerror(-ret));
      return 1;
    }
  }
  if (!plain) {
    ret = io_uring_register_files(&ring, &fd, 1);
    if (ret < 0) {
      fprintf(stderr, "bare_uring: io_uring_register_files: %s (use -n)\n", strerror(-ret));
      return 1;
    }
    file = 0;
    sqe_flags = IOSQE_FIXED_FILE;
  }

  signal(SIGALRM, on_alarm);
  uint64_t ops = 0, rng = 0x853c49e6748fea9bULL;
  int nfree = depth, inflight = 0;
  double user0_ns, system0_ns, user1_ns, system1_ns;
  thread_cpu_ns(&user0_ns, &system0_ns);
  const double start = now_s();
  alarm((unsigned)seconds);
  while (!g_stop || inflight > 0) {
    // Fill every free slot (not after the stop flag: then only drain).
    while (!g_stop && nfree > 0) {
      struct io_uring_sqe* sqe = io_uring_get_sqe(&ring);
      if (sqe == NULL) break;
      const int slot = free_slots[--nfree];
      const off_t off = (off_t)((next_rand(&rng) % blocks) * bs);
      if (plain_buffers) {
        io_uring_prep_read(sqe, file, iov[slot].iov_base, (unsigned)bs, off);
      } else {
        io_uring_prep_read_fixed(sqe, file, iov[slot].iov_base, (unsigned)bs, off, slot);
      }
      sqe->flags |= sqe_flags;
      sqe->user_data = (uint64_t)slot;
      ++inflight;
    }
    if (pause_s > 0 && inflight > 1) {
      ret = io_uring_submit(&ring);
      if (ret >= 0 && io_uring_cq_ready(&ring) == 0) {
        const double until = now_s() + pause_s;
        while (now_s() < until) {
        }
        struct io_uring_cqe* cqe;
        ret = io_uring_wait_cqe(&ring, &cqe);
      }
    } else {
      ret = io_uring_submit_and_wait(&ring, 1);
    }
    if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
      fprintf(stderr, "bare_uring: io_uring submit/wait: %s\n", strerror(-ret));
      return 1;
    }
    const unsigned n = io_uring_peek_batch_cqe(&ring, cqes, (unsigned)depth);
    for (unsigned i = 0; i < n; ++i) {
      if (cqes[i]->res != (int)bs) {
        fprintf(stderr, "bare_uring: read returned %d (%s)\n", cqes[i]->res,
                cqes[i]->res < 0 ? strerror(-cqes[i]->res) : "short");
        return 1;
      }
      free_slots[nfree++] = (int)cqes[i]->user_data;
    }
    io_uring_cq_advance(&ring, n);
    inflight -= (int)n;
    ops += n;
  }
  const double secs = now_s() - start;
  thread_cpu_ns(&user1_ns, &system1_ns);
  const double per_op = ops > 0 ? 1.0 / (double)ops : 0;
  printf(
      "iops=%.0f ops=%llu secs=%.3f depth=%d ring_flags=0x%x usr_ns_per_op=%.0f "
      "sys_ns_per_op=%.0f\n",
      (double)ops / secs, (unsigned long long)ops, secs, depth, flags,
      (user1_ns - user0_ns) * per_op, (system1_ns - system0_ns) * per_op);
  io_uring_queue_exit(&ring);
  close(fd);
  return 0;
}
