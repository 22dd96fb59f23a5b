// bare_nfs: the ceiling for azbench's nfs engine. A bare libnfs loop doing 4 KiB (or -b bytes)
// uniformly random reads of one file for N seconds on one connection: at depth 1 with libnfs's
// synchronous nfs_pread (as the engine does at iodepth 1), deeper with nfs_pread_async keeping D
// reads in flight and one poll + nfs_service per wait (the engine's loop, without its accounting).
// Each reply is copied into a buffer of the read's size, as the engine's completion does. No clock
// read per op: the mean latency printed is Little's law over the run (depth x seconds / ops), which
// holds when the loop always has D reads in flight. Prints one line:
// "iops=<n> ops=<n> secs=<s> depth=<d> mean_lat_ns=<ns>". With -r it removes the file instead (the
// benchmark script's clean-up).
//
//   cc -O2 -o bare_nfs bench/bare_nfs.c -lnfs
//   bare_nfs [-q DEPTH] [-b BLOCK_BYTES] [-t SECONDS] NFS_URL
//   bare_nfs -r NFS_URL
//   (NFS_URL: nfs://SERVER/EXPORT/FILE?version=3&nfsport=2049&mountport=20048)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// xorshift64*: cheap uniform offsets, as in bare_pread.c.
static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void) {
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 2685821657736338717ull;
}

struct loop {
  struct nfs_context* nfs;
  struct nfsfh* fh;
  uint64_t blocks;
  uint64_t block_bytes;
  char* buffer;
  int inflight;
  int failed;
  uint64_t ops;
};

static void on_read(int err, struct nfs_context* nfs, void* data, void* private_data) {
  struct loop* l = private_data;
  --l->inflight;
  if (err < 0 || (uint64_t)err != l->block_bytes) {
    fprintf(stderr, "bare_nfs: read failed: %s\n", err < 0 ? nfs_get_error(nfs) : "short read");
    l->failed = 1;
    return;
  }
  memcpy(l->buffer, data, l->block_bytes);
  ++l->ops;
}

static int issue(struct loop* l) {
  const uint64_t offset = (next_random() % l->blocks) * l->block_bytes;
  if (nfs_pread_async(l->nfs, l->fh, offset, l->block_bytes, on_read, l) != 0) {
    fprintf(stderr, "bare_nfs: nfs_pread_async: %s\n", nfs_get_error(l->nfs));
    return -1;
  }
  ++l->inflight;
  return 0;
}

int main(int argc, char** argv) {
  int depth = 1;
  uint64_t block_bytes = 4096;
  double seconds = 5;
  int remove = 0;
  int opt;
  while ((opt = getopt(argc, argv, "q:b:t:r")) != -1) {
    switch (opt) {
      case 'r':
        remove = 1;
        break;
      case 'q':
        depth = atoi(optarg);
        break;
      case 'b':
        block_bytes = strtoull(optarg, NULL, 10);
        break;
      case 't':
        seconds = atof(optarg);
        break;
      default:
        fprintf(stderr, "usage: bare_nfs [-r | -q DEPTH -b BLOCK_BYTES -t SECONDS] NFS_URL\n");
        return 2;
    }
  }
  if (optind + 1 != argc || depth < 1 || block_bytes == 0 || seconds <= 0) {
    fprintf(stderr, "usage: bare_nfs [-r | -q DEPTH -b BLOCK_BYTES -t SECONDS] NFS_URL\n");
    return 2;
  }
  struct loop l = {0};
  l.block_bytes = block_bytes;
  l.nfs = nfs_init_context();
  if (l.nfs == NULL) {
    fprintf(stderr, "bare_nfs: nfs_init_context failed\n");
    return 1;
  }
  struct nfs_url* url = nfs_parse_url_full(l.nfs, argv[optind]);
  if (url == NULL) {
    fprintf(stderr, "bare_nfs: %s: %s\n", argv[optind], nfs_get_error(l.nfs));
    return 1;
  }
  if (nfs_mount(l.nfs, url->server, url->path) != 0) {
    fprintf(stderr, "bare_nfs: mount %s:%s: %s\n", url->server, url->path, nfs_get_error(l.nfs));
    return 1;
  }
  if (remove) {
    const int rc = nfs_unlink(l.nfs, url->file);
    if (rc != 0 && rc != -ENOENT) {
      fprintf(stderr, "bare_nfs: remove %s: %s\n", url->file, nfs_get_error(l.nfs));
      return 1;
    }
    return 0;
  }
  if (nfs_open(l.nfs, url->file, O_RDONLY, &l.fh) != 0) {
    fprintf(stderr, "bare_nfs: open %s: %s\n", url->file, nfs_get_error(l.nfs));
    return 1;
  }
  struct nfs_stat_64 st;
  if (nfs_fstat64(l.nfs, l.fh, &st) != 0 || st.nfs_size < block_bytes) {
    fprintf(stderr, "bare_nfs: %s is smaller than one block\n", url->file);
    return 1;
  }
  l.blocks = st.nfs_size / block_bytes;
  l.buffer = malloc(block_bytes);
  if (l.buffer == NULL) return 1;

  const double start = now_s();
  const double stop = start + seconds;
  double end = start;
  if (depth == 1) {
    // One op per iteration; the clock is read every 64 ops only.
    for (;;) {
      const uint64_t offset = (next_random() % l.blocks) * block_bytes;
      const int n = nfs_pread(l.nfs, l.fh, offset, block_bytes, l.buffer);
      if (n < 0 || (uint64_t)n != block_bytes) {
        fprintf(stderr, "bare_nfs: read failed: %s\n", nfs_get_error(l.nfs));
        return 1;
      }
      if ((++l.ops & 63) == 0 && (end = now_s()) >= stop) break;
    }
  } else {
    while (l.inflight < depth) {
      if (issue(&l) != 0) return 1;
    }
    int stopping = 0;
    while (l.inflight > 0) {
      struct pollfd pfd = {.fd = nfs_get_fd(l.nfs), .events = (short)nfs_which_events(l.nfs)};
      const int rc = poll(&pfd, 1, 100);
      if (rc < 0 && errno != EINTR) {
        perror("bare_nfs: poll");
        return 1;
      }
      if (nfs_service(l.nfs, rc > 0 ? pfd.revents : 0) < 0) {
        fprintf(stderr, "bare_nfs: connection failed: %s\n", nfs_get_error(l.nfs));
        return 1;
      }
      if (l.failed) return 1;
      if (!stopping && (end = now_s()) >= stop) stopping = 1;
      while (!stopping && l.inflight < depth) {
        if (issue(&l) != 0) return 1;
      }
    }
    end = now_s();
  }
  const double secs = end - start;
  printf("iops=%.1f ops=%llu secs=%.3f depth=%d mean_lat_ns=%.0f\n", (double)l.ops / secs,
         (unsigned long long)l.ops, secs, depth, depth * secs * 1e9 / (double)l.ops);
  nfs_close(l.nfs, l.fh);
  nfs_destroy_url(url);
  nfs_destroy_context(l.nfs);
  free(l.buffer);
  return 0;
}
