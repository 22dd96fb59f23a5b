#include "agent/workloads/block_io/block_io.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "agent/workloads/block_io/block_io_clone.h"
#include "agent/workloads/block_io/cache_traps.h"
#include "agent/workloads/block_io/existing_file_sizes.h"
#include "agent/workloads/event_relay.h"
#include "agent/workloads/nfs_file_layout.h"
#include "agent/workloads/offset_generator.h"
#include "agent/workloads/random_distribution.h"
#include "agent/workloads/verify_block.h"
#include "common/clock.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

// random_distribution=sequence: no block a clone's I/Os would reach may lie beyond its region
// (fio fails the job with EINVAL at such a block of the list, and ends a strided list's I/O
// there); checked before anything runs. A mixed job's I/Os of one direction are counted as all of
// its I/Os, so the check may refuse a job fio would have ended before that block.
absl::Status CheckSequence(const JobSpec& s, int clone, uint64_t blocks, const std::string& path) {
  const RandomDistributionSpec& seq = s.random_distribution;
  if (seq.sequence_stride && s.time_based) {
    return absl::InvalidArgumentError(absl::StrCat(
        "job '", s.name,
        "': random_sequence_stride=1 with time_based runs past the end of the region; give "
        "io_size and no time_based"));
  }
  const uint64_t min_bytes =
      std::max<uint64_t>(1, std::min(s.BlockSizes(false).min_bytes, s.BlockSizes(true).min_bytes));
  const unsigned __int128 ios_wide =
      static_cast<unsigned __int128>(s.CloneIoSize(clone) / min_bytes) *
      static_cast<uint64_t>(std::max(1, s.loops));
  const uint64_t ios = s.time_based || ios_wide > std::numeric_limits<uint64_t>::max()
                           ? std::numeric_limits<uint64_t>::max()
                           : static_cast<uint64_t>(ios_wide);
  const uint64_t reached = RandomDistribution::SequenceReachesBlock(seq, ios);
  if (reached >= blocks) {
    return absl::InvalidArgumentError(absl::StrCat(
        "job '", s.name, "': random_distribution=sequence reaches block ", reached, " of '", path,
        "', whose region has ", blocks, " blocks",
        seq.sequence_stride
            ? " (random_sequence_stride moves the list on by its length each round: give a "
              "smaller io_size)"
            : ""));
  }
  return absl::OkStatus();
}

absl::Status CheckCapabilities(const JobSpec& spec, const IoEngine& engine,
                               std::vector<std::string>& warnings) {
  const EngineCapabilities caps = engine.capabilities();
  if (spec.direct && !caps.supports_direct) {
    return absl::InvalidArgumentError(absl::StrCat("job '", spec.name, "': engine ",
                                                   std::string(engine.name()),
                                                   " does not support direct=1"));
  }
  if (spec.iodepth > caps.max_iodepth && caps.is_async) {
    return absl::InvalidArgumentError(absl::StrCat("job '", spec.name, "': iodepth=", spec.iodepth,
                                                   " exceeds engine ", std::string(engine.name()),
                                                   "'s limit of ", caps.max_iodepth));
  }
  if (spec.iodepth > 1 && !caps.is_async && caps.does_io) {
    warnings.push_back(absl::StrCat("iodepth=", spec.iodepth,
                                    " has no effect with the synchronous ",
                                    std::string(engine.name()), " engine: it runs at iodepth 1"));
  }
  if (spec.unlink_each_loop && caps.opens_files) {
    return absl::InvalidArgumentError(
        absl::StrCat("job '", spec.name, "': unlink_each_loop is not supported with engine ",
                     std::string(engine.name()), ", which opens its files itself"));
  }
  if (spec.unlink_each_loop && spec.registerfiles.value_or(false)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "job '", spec.name,
        "': unlink_each_loop opens the files again after each loop, which registered files "
        "(registerfiles=1) would not follow; set registerfiles=0"));
  }
  if (DoesWrite(spec.rw) == false && (spec.fsync_every_n > 0 || spec.fdatasync_every_n > 0)) {
    warnings.push_back("fsync/fdatasync have no effect on a job that does not write");
  }
  return absl::OkStatus();
}

// The descriptors this process may still open: RLIMIT_NOFILE's soft limit less those open now.
uint64_t DescriptorsAvailable(uint64_t* limit, uint64_t* open_now) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
    *limit = *open_now = 0;
    return UINT64_MAX;
  }
  *limit = rl.rlim_cur;
  *open_now = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++*open_now;
  }
  return *limit > *open_now ? *limit - *open_now : 0;
}

// fio writes random data (from the verify seed) into a block it will verify, shaped by
// buffer_compress_percentage over the whole block; verify=null writes nothing of its own.
bool VerifyFillsBlocks(const JobSpec& s) {
  const VerifyType type = s.EffectiveVerify();
  return type != VerifyType::kNone && type != VerifyType::kNull;
}

// fio's num_unique_pages: dedupe_working_set_percentage of the job's size, in smallest writes.
uint64_t DedupeWorkingSetBlocks(const JobSpec& s) {
  if (!s.dedupe_working_set) return 0;
  const uint64_t block_bytes = std::max<uint64_t>(1, s.BlockSizes(true).min_bytes);
  const unsigned __int128 set_bytes =
      static_cast<unsigned __int128>(s.size_bytes) * s.dedupe_working_set_percentage / 100;
  return static_cast<uint64_t>(set_bytes / block_bytes);
}

BufferOptions WriteBufferOptions(const JobSpec& s, int depth, uint64_t seed) {
  BufferOptions o{.count = depth,
                  .size_bytes = s.MaxBlockSizeBytes(),
                  .alignment_bytes = 4096,
                  .compress_percentage = s.buffer_compress_percentage,
                  .scramble = s.scramble_buffers,
                  .refill = s.refill_buffers,
                  .seed = seed,
                  .zero = s.zero_buffers,
                  .pattern = s.buffer_pattern,
                  .compress_chunk_bytes = s.buffer_compress_chunk_bytes,
                  .min_write_bytes = s.BlockSizes(true).min_bytes,
                  .dedupe_percentage = s.dedupe_percentage,
                  .dedupe_working_set = s.dedupe_working_set,
                  .dedupe_working_set_blocks = DedupeWorkingSetBlocks(s)};
  if (VerifyFillsBlocks(s)) {
    o.zero = false;
    o.dedupe_percentage = 0;
    // fio turns 100% compressible into zero_buffers before verify ignores that.
    if (o.compress_percentage == 100) o.compress_percentage = 0;
    if (o.compress_percentage == 0) o.pattern = "";
    o.compress_chunk_bytes = 0;
    o.min_write_bytes = o.size_bytes;
    o.refill = true;
    o.scramble = false;
  }
  return o;
}

}  // namespace

absl::Status CheckDescriptorsAvailable(uint64_t files_opened, int nrfiles, int numjobs) {
  // Besides the files: a clone's engine (an io_uring ring, an eventfd) and what the run opens
  // around it (op logs, sockets).
  constexpr uint64_t kMarginPerClone = 2, kMargin = 32;
  const uint64_t clones = static_cast<uint64_t>(std::max(1, numjobs));
  const uint64_t needed = files_opened + clones * kMarginPerClone + kMargin;
  uint64_t limit = 0, open_now = 0;
  const uint64_t available = DescriptorsAvailable(&limit, &open_now);
  if (needed <= available) return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(
      "it opens ", files_opened, " files (nrfiles ", nrfiles, " x numjobs ", clones,
      "), needing about ", needed, " file descriptors, but this process may open ", available,
      " more (RLIMIT_NOFILE soft limit ", limit, ", ", open_now,
      " open); lower nrfiles or numjobs, or raise the limit (ulimit -n, LimitNOFILE=)"));
}

BlockIoJob::~BlockIoJob() = default;

absl::StatusOr<std::unique_ptr<BlockIoJob>> BlockIoJob::Prepare(const JobSpec& spec, int group_id,
                                                                const EngineFactory& create_engine,
                                                                const std::atomic<bool>* cancel,
                                                                int job_index,
                                                                DedupeThreads* dedupe_threads) {
  RETURN_IF_ERROR(ValidateJobSpec(spec));
  if (IsFileOpEngineName(spec.ioengine)) {
    return absl::InvalidArgumentError(absl::StrCat("job '", spec.name,
                                                   "': ioengine=", spec.ioengine,
                                                   " moves no data: it runs as a FileOpJob "
                                                   "(agent/workloads/block_io/file_op_job.h)"));
  }
  // Sizes from the files (size not given, percentages) are decided here, where the files are.
  JobSpec resolved = spec;
  RETURN_IF_ERROR(ResolveSizesFromFiles(resolved));
  RETURN_IF_ERROR(ValidateJobSpec(resolved));
  std::unique_ptr<BlockIoJob> job(new BlockIoJob());
  job->spec_ = std::move(resolved);
  job->group_id_ = group_id;
  job->job_index_ = job_index;
  JobSpec& s = job->spec_;

  {
    ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> probe, create_engine(s.ioengine));
    RETURN_IF_ERROR(CheckCapabilities(s, *probe, job->warnings_));
  }
  ASSIGN_OR_RETURN(job->op_clock_, ResolveOpClock(s.clocksource));
  ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> first_engine, create_engine(s.ioengine));
  const EngineCapabilities caps = first_engine->capabilities();
  const int depth = caps.is_async ? s.iodepth : 1;
  // Agents sharing a file (stream_index > 0) each draw their own offsets.
  const int stream_count = std::max(1, s.shared_stream_count);
  const int stream_index = std::clamp(s.shared_stream_index, 0, stream_count - 1);
  const uint64_t base_seed = (s.randrepeat ? s.randseed.value_or(kBlockIoDefaultSeed)
                                           : std::random_device{}() ^ MonotonicNanos()) +
                             static_cast<uint64_t>(stream_index) * 0xD1B54A32D192ED03ULL;

  ASSIGN_OR_RETURN(VerifyFormat verify_format, VerifyFormat::ForJob(s));
  const VerifyType verify = s.EffectiveVerify();
  if (verify != VerifyType::kNone && DoesWrite(s.rw) && s.do_verify && !s.verify_only &&
      s.time_based && s.runtime > absl::ZeroDuration()) {
    job->warnings_.push_back(
        "verify: the writes of a time_based job take all of its runtime, so nothing is read "
        "back (as in fio)");
  }
  // A trim needs a descriptor open for writing (fallocate's hole, BLKDISCARD); fio opens a
  // trimming job's files for reading and writing.
  const bool trims = DoesTrim(s.rw);
  const bool writes = DoesWrite(s.rw) || trims;
  // A write job that reads back what it wrote opens its files for reading too.
  const bool reads = DoesRead(s.rw) || (verify != VerifyType::kNone && DoesWrite(s.rw) &&
                                        (s.do_verify || s.verify_only));
  if (verify != VerifyType::kNone && !caps.does_io) {
    job->warnings_.push_back(absl::StrCat("verify: ioengine=", s.ioengine,
                                          " does no I/O, so no block is checked (as in fio)"));
  }

  // Lay out every clone's files first (a failure removes what was created).
  std::vector<LayoutRequest> layout;
  std::unordered_map<std::string, size_t> laid_out;  // path -> its entry in `layout`
  uint64_t descriptors = 0;                          // each clone opens each of its files
  uint64_t working_set_bytes = 0;                    // each file's largest region
  for (int c = 0; c < s.numjobs; ++c) {
    // fill_device: the files are written as they come, never extended first (fio).
    const uint64_t region_bytes = s.CloneRegionBytes(c);
    const uint64_t end_bytes = s.fill_device ? 0 : s.CloneOffset(c) + region_bytes;
    for (const std::string& path : s.FilePaths(c)) {
      ++descriptors;
      // Clones sharing one filename share the file, which must hold every clone's region.
      auto [it, inserted] = laid_out.emplace(path, layout.size());
      if (!inserted) {
        layout[it->second].required_bytes = std::max(layout[it->second].required_bytes, end_bytes);
        continue;
      }
      working_set_bytes += region_bytes;
      layout.push_back({path, end_bytes, reads, s.fallocate});
    }
  }
  // An engine with its own files has no page cache here; fill_device's working set is the disk.
  if (caps.does_io && !caps.opens_files && !s.fill_device) {
    job->working_set_bytes_ = working_set_bytes;
    job->client_memory_bytes_ = ClientMemoryBytes().value_or(0);
  }
  if (caps.opens_files) {
    job->warnings_.push_back(absl::StrCat(
        "ioengine=", s.ioengine,
        " reaches the server with no kernel client: no page or attribute cache, so the figures "
        "are the server's and the network's, not those of a client that mounts the file system"));
  }
  if (s.ioengine == "nfs") {
    // An op is then several RPCs on the wire, not one: the figures must say so.
    absl::StatusOr<NfsUrl> url = ParseNfsUrl(s.nfs_url);
    const uint64_t max_bytes = s.MaxBlockSizeBytes();
    if (url.ok() && url->version == 4 &&
        ((DoesWrite(s.rw) && max_bytes > kNfsV4MaxWriteBytes) ||
         (reads && max_bytes > kNfsV4MaxReadBytes))) {
      job->warnings_.push_back(absl::StrCat(
          "ioengine=nfs with version=4: libnfs 4.0 carries at most ", kNfsV4MaxWriteBytes,
          " bytes in one NFSv4 WRITE and ", kNfsV4MaxReadBytes,
          " in one READ, so a larger I/O goes as several RPCs sent at once and completes with the "
          "last (with version=3, libnfs splits at the server's own limits, at most 1 MiB)"));
    }
  }
  if (VerifyFillsBlocks(s) && (s.zero_buffers || s.dedupe_percentage > 0 ||
                               (!s.buffer_pattern.empty() && s.buffer_compress_percentage == 0))) {
    job->warnings_.push_back(
        "zero_buffers, dedupe_percentage, buffer_compress_percentage=100 and buffer_pattern "
        "(without buffer_compress_percentage) have no effect with verify: as in fio, verified "
        "blocks are random data, "
        "buffer_compress_percentage of each block zeros or buffer_pattern");
  }
  if (caps.does_io) {
    // Before any file is made: a job that would run out of descriptors at its last file's open
    // fails now, not after laying out all the others.
    RETURN_IF_ERROR(CheckDescriptorsAvailable(descriptors, s.nrfiles, s.numjobs));
    ASSIGN_OR_RETURN(BufferPool filler,
                     BufferPool::Create({.count = 1,
                                         .size_bytes = 4096,
                                         .compress_percentage = s.buffer_compress_percentage,
                                         .seed = base_seed,
                                         .zero = s.zero_buffers,
                                         .pattern = s.buffer_pattern,
                                         .compress_chunk_bytes = s.buffer_compress_chunk_bytes,
                                         .min_write_bytes = s.BlockSizes(true).min_bytes}));
    if (caps.opens_files) {
      ASSIGN_OR_RETURN(job->files_, LayOutNfsFiles(s.nfs_url, layout, filler, cancel));
    } else {
      ASSIGN_OR_RETURN(job->files_, LayOutFiles(layout, filler, cancel));
    }
  }

  auto fail = [&](absl::Status status) -> absl::Status {
    job->clones_.clear();
    (void)job->RemoveCreatedFiles();
    return status;
  };

  // What the clones' engines could not set up as asked, with how many clones reported each.
  std::vector<std::pair<std::string, int>> fallbacks;
  for (int c = 0; c < s.numjobs; ++c) {
    auto clone = std::make_unique<Clone>();
    clone->index = c;
    clone->seed = base_seed + static_cast<uint64_t>(c) * 0x9E3779B97F4A7C15ULL;
    if (c == 0) {
      clone->engine = std::move(first_engine);
    } else {
      absl::StatusOr<std::unique_ptr<IoEngine>> engine = create_engine(s.ioengine);
      if (!engine.ok()) return fail(engine.status());
      clone->engine = std::move(*engine);
    }
    clone->caps = caps;
    clone->verify = verify_format;
    clone->verify.thread = static_cast<uint16_t>(c + 1);
    // Each job of the run writes its own data, as each of fio's threads does; job 0 keeps the
    // clone's seed.
    absl::StatusOr<BufferPool> buffers = BufferPool::Create(WriteBufferOptions(
        s, depth, clone->seed ^ (static_cast<uint64_t>(job_index) * 0xA24BAED4963EE407ULL)));
    if (!buffers.ok()) return fail(buffers.status());
    clone->buffers = std::make_unique<BufferPool>(std::move(*buffers));
    // Every clone counts among fio's threads that a global working set is spread over.
    DedupeThreads* threads = dedupe_threads;
    if (threads == nullptr && s.dedupe_global) threads = &job->own_dedupe_threads_;
    if (threads != nullptr) threads->Add({job_index, c}, clone->buffers->SeedStream());
    if (s.dedupe_global && s.dedupe_working_set) job->dedupe_threads_ = threads;
    for (int dir = 0; dir < 3; ++dir) {
      // Its own stream per direction, apart from the offsets' (fio's bsrange_state).
      clone->block_sizes.emplace_back(dir == 2 ? s.TrimBlockSizes() : s.BlockSizes(dir == 1),
                                      clone->seed ^ (0xB5B5B5B5ULL + static_cast<uint64_t>(dir)));
    }
    const std::vector<std::string> paths = s.FilePaths(c);
    EngineOptions options = EngineOptionsForJob(s, depth);
    options.buffers = clone->buffers->iovecs();
    // An engine that opens its files itself (nfs) needs its connection first.
    if (caps.opens_files) {
      if (absl::Status st = clone->engine->Init(options); !st.ok()) {
        return fail(absl::Status(st.code(), absl::StrCat("job '", s.name, "': ", st.message())));
      }
    }
    for (size_t f = 0; f < paths.size(); ++f) {
      Clone::File file;
      file.path = paths[f];
      if (caps.opens_files) {
        absl::StatusOr<int> handle = clone->engine->OpenFile(paths[f], reads || trims, writes);
        if (!handle.ok()) return fail(handle.status());
        file.fd = *handle;
        file.engine_handle = true;
      } else if (caps.does_io) {
        absl::StatusOr<int> fd = OpenForRun(paths[f], reads || trims, writes, s.direct);
        if (!fd.ok()) return fail(fd.status());
        file.fd = *fd;
        if (s.invalidate && !s.direct) InvalidateCache(file.fd);
      }
      const uint64_t file_seed = clone->seed + f * 7919;
      const uint64_t region_start_bytes = s.CloneOffset(c);
      const uint64_t region_bytes = s.CloneRegionBytes(c);
      file.region_start_bytes = region_start_bytes;
      file.region_end_bytes = region_start_bytes + region_bytes;
      for (int dir = 0; dir < 3; ++dir) {
        file.last_start_bytes[dir] = file.last_end_bytes[dir] = region_start_bytes;
      }
      for (int dir = 0; dir < 3; ++dir) {
        if (dir == 2 && !trims) break;
        const BlockSizeChoice sizes = dir == 2 ? s.TrimBlockSizes() : s.BlockSizes(dir == 1);
        // Random offsets are multiples of blockalign (fio's ba, by default the smallest size)
        // that leave room for the smallest size before the region's end; sequential ones step
        // by each I/O's size.
        const uint64_t unit = IsRandom(s.rw) ? sizes.align_bytes : sizes.min_bytes;
        const uint64_t offset_span = IsRandom(s.rw) && region_bytes >= sizes.min_bytes
                                         ? region_bytes - sizes.min_bytes + unit
                                         : region_bytes;
        // Sequential agents sharing a file start k/n of the way into it (in whole blocks).
        const uint64_t blocks = offset_span / unit;
        const uint64_t first_block = static_cast<uint64_t>(static_cast<unsigned __int128>(blocks) *
                                                           stream_index / stream_count);
        // lfsr: every block once per pass, with or without norandommap, as fio's LFSR.
        const bool with_replacement = s.norandommap && s.random_generator != RandomGenerator::kLfsr;
        file.offsets[dir] =
            std::make_unique<OffsetGenerator>(region_start_bytes, offset_span, unit, IsRandom(s.rw),
                                              with_replacement, file_seed + dir, first_block);
        if (IsRandom(s.rw) && s.random_distribution.kind == RandomDistributionKind::kSequence) {
          absl::Status st = CheckSequence(s, c, file.offsets[dir]->blocks(), paths[f]);
          if (!st.ok()) return fail(st);
        }
        if (IsRandom(s.rw) && s.random_distribution.kind != RandomDistributionKind::kUniform) {
          file.offsets[dir]->UseDistribution(std::make_unique<RandomDistribution>(
              s.random_distribution, /*write=*/dir == 1, file.offsets[dir]->blocks(), unit,
              file_seed + dir + 0x5851F42D4C957F2DULL));
        }
      }
      clone->files.push_back(std::move(file));
    }
    for (const auto& f : clone->files) options.fds.push_back(f.fd);
    if (absl::Status st = caps.opens_files ? absl::OkStatus() : clone->engine->Init(options);
        !st.ok()) {
      return fail(absl::Status(st.code(), absl::StrCat("job '", s.name, "': ", st.message())));
    }
    for (std::string& fallback : clone->engine->InitFallbacks()) {
      auto seen = std::find_if(fallbacks.begin(), fallbacks.end(),
                               [&](const auto& f) { return f.first == fallback; });
      if (seen == fallbacks.end()) {
        fallbacks.emplace_back(std::move(fallback), 1);
      } else {
        ++seen->second;
      }
    }
    job->clones_.push_back(std::move(clone));
  }
  // One warning per fallback, saying how many clones it concerns when not all (a memlock limit
  // shared by every ring of the user can run out part-way through the clones).
  for (auto& [message, clones] : fallbacks) {
    job->warnings_.push_back(clones == s.numjobs ? std::move(message)
                                                 : absl::StrCat(message, " (in ", clones, " of ",
                                                                s.numjobs, " clones)"));
  }
  std::vector<JobEtaProfile> profiles;
  for (size_t i = 0; i < job->clones_.size(); ++i) {
    profiles.push_back(EtaProfileOf(job->spec_, static_cast<int>(i)));
  }
  job->progress_ = std::make_unique<JobProgress>(std::move(profiles));
  return job;
}

EngineOptions EngineOptionsForJob(const JobSpec& spec, int iodepth) {
  EngineOptions options;
  options.iodepth = iodepth;
  options.batch_submit = spec.iodepth_batch_submit;
  options.register_buffers = spec.fixedbufs.value_or(spec.direct);
  // unlink_each_loop opens each file again after a loop: registered files would stay the old ones.
  options.register_files = spec.registerfiles.value_or(!spec.unlink_each_loop);
  options.nfs_url = spec.nfs_url;
  options.rw_flags = (spec.hipri ? RWF_HIPRI : 0) | (spec.nowait ? RWF_NOWAIT : 0);
  if (spec.uring_wait_pause) {
    options.wait_pause.pause_ns =
        static_cast<uint64_t>(absl::ToInt64Nanoseconds(*spec.uring_wait_pause));
  }
  return options;
}

void BlockIoJob::JoinFlows(FlowRegistry& flows) {
  if (spec_.flow_weight == 0) return;
  for (auto& clone : clones_) {
    if (clone->flow == nullptr) clone->flow = flows.Join(spec_.flow_id, spec_.flow_weight);
  }
}

absl::StatusOr<JobResult> BlockIoJob::Run(const RunControl& control) {
  if (control.interval_ns == 0) return absl::InvalidArgumentError("interval must be positive");
  // A common start instant, or 0: each clone starts when its thread does (a thread that a loaded
  // host starts late still runs its whole runtime, as a fio job does).
  const uint64_t start_ns = control.start_monotonic_ns;
  // Intervals and op-log batches leave the clone threads through the relay (event_relay.h): a
  // slow stream or file never holds a clone's I/O, and a clone thread touches no descriptor but
  // its job's files.
  EventRelay relay;
  const RunControl clone_control = RelayedControl(control, relay);
  std::vector<JobResult> results(clones_.size());
  // Every clone joins its flow before any starts, so none runs ahead of the others' weight; each
  // leaves as it ends, so the rest of the flow does not wait for it.
  FlowRegistry& flows = control.flows != nullptr ? *control.flows : own_flows_;
  // dedupe_global: every job of the run is prepared, so every clone's seeds are known.
  if (dedupe_threads_ != nullptr && spec_.dedupe_percentage > 0 && spec_.dedupe_percentage < 100 &&
      !VerifyFillsBlocks(spec_)) {
    for (size_t i = 0; i < clones_.size(); ++i) {
      clones_[i]->buffers->SetDedupeWorkingSet(dedupe_threads_->GlobalWorkingSet(
          {job_index_, static_cast<int>(i)}, DedupeWorkingSetBlocks(spec_)));
    }
  }
  JoinFlows(flows);
  // Every path out of Run leaves the flow: a membership left behind would hold the others back.
  absl::Cleanup leave_flows = [this] {
    for (auto& clone : clones_) clone->flow.reset();
  };
  std::vector<std::thread> threads;
  threads.reserve(clones_.size());
  for (size_t i = 0; i < clones_.size(); ++i) {
    threads.emplace_back([&, i] {
      results[i] = RunBlockIoClone(spec_, *clones_[i], clone_control, op_clock_, start_ns,
                                   ops_done_, bytes_done_, progress_->clones[i].get());
      clones_[i]->flow.reset();
      if (control.on_clone_end) {
        control.on_clone_end(results[i].error_errno != 0 || !results[i].error_message.empty());
      }
    });
  }
  for (auto& t : threads) t.join();
  relay.Drain();  // every interval the result holds has been delivered (RunControl's contract)
  JobResult merged = std::move(results[0]);
  for (size_t i = 1; i < results.size(); ++i) merged.Merge(results[i]);
  merged.group_id = group_id_;
  for (const auto& w : warnings_) merged.warnings.push_back(w);
  if (working_set_bytes_ > 0) {
    auto bytes = [&merged](OpKind kind) {
      const OpStats* stats = merged.Find(kind);
      return stats == nullptr ? uint64_t{0} : stats->bytes;
    };
    for (std::string& w : CacheTrapWarnings({
             .direct = spec_.direct,
           .syncs_during_run = spec_.fsync_every_n > 0 || spec_.fdatasync_every_n > 0,
           .end_fsync = spec_.end_fsync,
           .invalidate = spec_.invalidate,
           .working_set_bytes = working_set_bytes_,
           .bytes_read = bytes(OpKind::kRead),
           .bytes_written = bytes(OpKind::kWrite),
           .client_memory_bytes = client_memory_bytes_,
         })) {
      merged.warnings.push_back(std::move(w));
    }
  }
  return merged;
}

absl::Status BlockIoJob::RemoveCreatedFiles() {
  absl::Status status = spec_.ioengine == "nfs" ? RemoveCreatedNfsFiles(spec_.nfs_url, files_)
                                                : azbench::RemoveCreatedFiles(files_);
  for (auto& f : files_) f.created = false;
  return status;
}

}  // namespace azbench
