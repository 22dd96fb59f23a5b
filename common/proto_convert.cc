#include "common/proto_convert.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

absl::StatusOr<int> KindIndex(int proto_kind, const std::string& where) {
  if (proto_kind < 0 || proto_kind >= kOpKindCount) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": unknown op kind ", proto_kind,
                                                   " (expected 0..", kOpKindCount - 1, ")"));
  }
  return proto_kind;
}

}  // namespace

void HistogramToProto(const Histogram::Sparse& sparse, v1::Histogram* out) {
  out->set_count(sparse.count);
  out->set_min_ns(sparse.min_ns);
  out->set_max_ns(sparse.max_ns);
  out->set_sum_ns(sparse.sum_ns);
  out->set_sum_sq_hi(sparse.sum_sq_hi);
  out->set_sum_sq_lo(sparse.sum_sq_lo);
  out->set_sum_ns_hi(sparse.sum_ns_hi);
  out->set_sum_sq_top(sparse.sum_sq_top);
  out->mutable_bucket_index()->Reserve(static_cast<int>(sparse.buckets.size()));
  out->mutable_bucket_count()->Reserve(static_cast<int>(sparse.buckets.size()));
  for (const auto& b : sparse.buckets) {
    out->add_bucket_index(b.index);
    out->add_bucket_count(b.count);
  }
}

absl::StatusOr<Histogram::Sparse> HistogramFromProto(const v1::Histogram& proto) {
  if (proto.bucket_index_size() != proto.bucket_count_size()) {
    return absl::InvalidArgumentError(absl::StrCat("histogram has ", proto.bucket_index_size(),
                                                   " bucket indices but ",
                                                   proto.bucket_count_size(), " counts"));
  }
  Histogram::Sparse sparse;
  sparse.count = proto.count();
  sparse.min_ns = proto.min_ns();
  sparse.max_ns = proto.max_ns();
  sparse.sum_ns = proto.sum_ns();
  sparse.sum_sq_hi = proto.sum_sq_hi();
  sparse.sum_sq_lo = proto.sum_sq_lo();
  sparse.sum_ns_hi = proto.sum_ns_hi();
  sparse.sum_sq_top = proto.sum_sq_top();
  sparse.buckets.reserve(proto.bucket_index_size());
  for (int i = 0; i < proto.bucket_index_size(); ++i) {
    sparse.buckets.push_back({proto.bucket_index(i), proto.bucket_count(i)});
  }
  // Validate by rebuilding (bounds, order, consistency); the sparse form is what callers keep.
  RETURN_IF_ERROR(Histogram::FromSparse(sparse).status());
  return sparse;
}

void IntervalToProto(const IntervalStats& interval, v1::Interval* out) {
  out->set_index(interval.index);
  for (int k = 0; k < kOpKindCount; ++k) {
    const IntervalOpStats& s = interval.by_kind[k];
    if (s.ops == 0 && s.errors == 0 && s.lat.count == 0) continue;
    v1::IntervalOpStats* op = out->add_ops();
    op->set_kind(static_cast<v1::OpKind>(k));
    op->set_ops(s.ops);
    op->set_bytes(s.bytes);
    op->set_errors(s.errors);
    HistogramToProto(s.lat, op->mutable_lat());
  }
}

absl::StatusOr<IntervalStats> IntervalFromProto(const v1::Interval& proto) {
  IntervalStats interval;
  interval.index = proto.index();
  for (const auto& op : proto.ops()) {
    ASSIGN_OR_RETURN(int k, KindIndex(op.kind(), absl::StrCat("interval ", proto.index())));
    IntervalOpStats& s = interval.by_kind[k];
    s.ops = op.ops();
    s.bytes = op.bytes();
    s.errors = op.errors();
    ASSIGN_OR_RETURN(s.lat, HistogramFromProto(op.lat()));
  }
  return interval;
}

void JobResultToProto(const JobResult& result, v1::JobResult* out) {
  out->set_name(result.name);
  out->set_group_id(result.group_id);
  out->set_clones(result.clones);
  for (int k = 0; k < kOpKindCount; ++k) {
    const OpStats* stats = result.by_kind[k].get();
    if (stats == nullptr) continue;
    v1::OpStats* op = out->add_ops();
    op->set_kind(static_cast<v1::OpKind>(k));
    op->set_ops(stats->ops);
    op->set_bytes(stats->bytes);
    op->set_errors(stats->errors);
    op->set_short_ios(stats->short_ios);
    HistogramToProto(stats->lat.ToSparse(), op->mutable_lat());
    HistogramToProto(stats->slat.ToSparse(), op->mutable_slat());
    HistogramToProto(stats->clat.ToSparse(), op->mutable_clat());
  }
  for (const auto& interval : result.intervals) IntervalToProto(interval, out->add_intervals());
  out->set_interval_ns(result.interval_ns);
  out->set_runtime_ns(result.runtime_ns);
  out->set_start_realtime_ns(result.start_realtime_ns);
  out->set_end_realtime_ns(result.end_realtime_ns);
  out->set_error_errno(result.error_errno);
  out->set_error_message(result.error_message);
  for (const auto& w : result.warnings) out->add_warnings(w);
  out->set_op_log_records(result.op_log_records);
  out->set_op_log_dropped(result.op_log_dropped);
  out->set_verify_failures(result.verify_failures);
  for (const uint64_t offset : result.verify_failure_offsets)
    out->add_verify_failure_offsets(offset);
  out->set_continue_on_error(result.continue_on_error);
  out->set_total_err_count(result.total_err_count);
  out->set_first_error(result.first_error);
  out->set_latency_depth(result.latency_depth);
  if (result.steadystate) {
    const SteadyStateResult& ss = *result.steadystate;
    v1::SteadyState* p = out->mutable_steadystate();
    p->set_iops(ss.spec.iops);
    p->set_slope(ss.spec.slope);
    p->set_percent(ss.spec.percent);
    p->set_limit(ss.spec.limit);
    p->set_duration_ns(absl::ToInt64Nanoseconds(ss.spec.duration));
    p->set_ramp_ns(absl::ToInt64Nanoseconds(ss.spec.ramp));
    p->set_attained(ss.attained);
    p->set_criterion(ss.criterion);
    p->set_max_deviation(ss.max_deviation);
    p->set_slope_value(ss.slope);
    for (uint64_t v : ss.iops) p->add_iops_samples(v);
    for (uint64_t v : ss.bw) p->add_bw_samples(v);
  }
  if (result.cpu.measured()) {
    v1::CpuUsage* cpu = out->mutable_cpu();
    cpu->set_threads(result.cpu.threads);
    cpu->set_wall_ns(result.cpu.wall_ns);
    cpu->set_user_ns(result.cpu.user_ns);
    cpu->set_system_ns(result.cpu.system_ns);
    cpu->set_voluntary_switches(result.cpu.voluntary_switches);
    cpu->set_involuntary_switches(result.cpu.involuntary_switches);
    cpu->set_minor_faults(result.cpu.minor_faults);
    cpu->set_major_faults(result.cpu.major_faults);
  }
  if (result.depth.measured()) {
    v1::DepthStats* depth = out->mutable_depth();
    for (int i = 0; i < DepthStats::kBuckets; ++i) {
      depth->add_level(result.depth.level[i]);
      depth->add_submit(result.depth.submit[i]);
      depth->add_complete(result.depth.complete[i]);
    }
  }
}

absl::StatusOr<JobResult> JobResultFromProto(const v1::JobResult& proto) {
  JobResult result;
  result.name = proto.name();
  result.group_id = proto.group_id();
  result.clones = proto.clones();
  const std::string where = absl::StrCat("result of job '", proto.name(), "'");
  for (const auto& op : proto.ops()) {
    ASSIGN_OR_RETURN(int k, KindIndex(op.kind(), where));
    OpStats& stats = result.Stats(static_cast<OpKind>(k));
    stats.ops = op.ops();
    stats.bytes = op.bytes();
    stats.errors = op.errors();
    stats.short_ios = op.short_ios();
    ASSIGN_OR_RETURN(Histogram::Sparse lat, HistogramFromProto(op.lat()));
    ASSIGN_OR_RETURN(Histogram::Sparse slat, HistogramFromProto(op.slat()));
    ASSIGN_OR_RETURN(Histogram::Sparse clat, HistogramFromProto(op.clat()));
    ASSIGN_OR_RETURN(stats.lat, Histogram::FromSparse(lat));
    ASSIGN_OR_RETURN(stats.slat, Histogram::FromSparse(slat));
    ASSIGN_OR_RETURN(stats.clat, Histogram::FromSparse(clat));
  }
  for (const auto& interval : proto.intervals()) {
    ASSIGN_OR_RETURN(IntervalStats parsed, IntervalFromProto(interval));
    result.intervals.push_back(std::move(parsed));
  }
  result.interval_ns = proto.interval_ns() == 0 ? 1'000'000'000 : proto.interval_ns();
  result.runtime_ns = proto.runtime_ns();
  result.start_realtime_ns = proto.start_realtime_ns();
  result.end_realtime_ns = proto.end_realtime_ns();
  result.error_errno = proto.error_errno();
  result.error_message = proto.error_message();
  result.warnings.assign(proto.warnings().begin(), proto.warnings().end());
  result.op_log_records = proto.op_log_records();
  result.op_log_dropped = proto.op_log_dropped();
  result.verify_failures = proto.verify_failures();
  result.verify_failure_offsets.assign(proto.verify_failure_offsets().begin(),
                                       proto.verify_failure_offsets().end());
  result.continue_on_error = proto.continue_on_error();
  result.total_err_count = proto.total_err_count();
  result.first_error = proto.first_error();
  result.latency_depth = proto.latency_depth();
  if (proto.has_steadystate()) {
    const v1::SteadyState& p = proto.steadystate();
    SteadyStateResult& ss = result.steadystate.emplace();
    ss.spec.iops = p.iops();
    ss.spec.slope = p.slope();
    ss.spec.percent = p.percent();
    ss.spec.limit = p.limit();
    ss.spec.duration = absl::Nanoseconds(p.duration_ns());
    ss.spec.ramp = absl::Nanoseconds(p.ramp_ns());
    ss.attained = p.attained();
    ss.criterion = p.criterion();
    ss.max_deviation = p.max_deviation();
    ss.slope = p.slope_value();
    ss.iops.assign(p.iops_samples().begin(), p.iops_samples().end());
    ss.bw.assign(p.bw_samples().begin(), p.bw_samples().end());
  }
  const v1::CpuUsage& cpu = proto.cpu();
  result.cpu.threads = cpu.threads();
  result.cpu.wall_ns = cpu.wall_ns();
  result.cpu.user_ns = cpu.user_ns();
  result.cpu.system_ns = cpu.system_ns();
  result.cpu.voluntary_switches = cpu.voluntary_switches();
  result.cpu.involuntary_switches = cpu.involuntary_switches();
  result.cpu.minor_faults = cpu.minor_faults();
  result.cpu.major_faults = cpu.major_faults();
  if (proto.has_depth()) {
    const v1::DepthStats& depth = proto.depth();
    if (depth.level_size() != DepthStats::kBuckets || depth.submit_size() != DepthStats::kBuckets ||
        depth.complete_size() != DepthStats::kBuckets) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": depth: level, submit and complete need ", DepthStats::kBuckets,
                       " buckets each (got ", depth.level_size(), ", ", depth.submit_size(), ", ",
                       depth.complete_size(), ")"));
    }
    for (int i = 0; i < DepthStats::kBuckets; ++i) {
      result.depth.level[i] = depth.level(i);
      result.depth.submit[i] = depth.submit(i);
      result.depth.complete[i] = depth.complete(i);
    }
  }
  return result;
}

void OpLogToProto(const std::string& job_name, int clone, const std::vector<OpRecord>& records,
                  v1::OpLogBatch* out) {
  out->set_job_name(job_name);
  out->set_clone(clone);
  for (const OpRecord& r : records) {
    out->add_start_ns(r.start_ns);
    out->add_latency_ns(r.latency_ns);
    out->add_offset_bytes(r.offset_bytes);
    out->add_bytes(r.bytes);
    out->add_error(r.error);
    out->add_kind(static_cast<int32_t>(r.kind));
  }
  // A clone's ops all have a slat or none do (its engine decides): one flag for the batch.
  if (std::any_of(records.begin(), records.end(), [](const OpRecord& r) { return r.has_slat; })) {
    for (const OpRecord& r : records) out->add_slat_ns(r.slat_ns);
  }
}

absl::StatusOr<std::vector<OpRecord>> OpLogFromProto(const v1::OpLogBatch& proto) {
  const int n = proto.start_ns_size();
  if (proto.latency_ns_size() != n || proto.offset_bytes_size() != n || proto.bytes_size() != n ||
      proto.error_size() != n || proto.kind_size() != n ||
      (proto.slat_ns_size() != 0 && proto.slat_ns_size() != n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("op log batch of job '", proto.job_name(), "': arrays differ in length"));
  }
  std::vector<OpRecord> records(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(int k,
                     KindIndex(proto.kind(i), absl::StrCat("op log of '", proto.job_name(), "'")));
    OpRecord& r = records[static_cast<size_t>(i)];
    r.start_ns = proto.start_ns(i);
    r.latency_ns = proto.latency_ns(i);
    r.offset_bytes = proto.offset_bytes(i);
    r.bytes = proto.bytes(i);
    r.error = proto.error(i);
    r.kind = static_cast<OpKind>(k);
    r.clone = static_cast<uint16_t>(proto.clone());
    if (proto.slat_ns_size() != 0) {
      r.has_slat = true;
      r.slat_ns = proto.slat_ns(i);
    }
  }
  return records;
}

void RunOutcomeToProto(const absl::Status& status, v1::RunOutcome* out) {
  out->set_code(static_cast<int32_t>(status.code()));
  out->set_message(std::string(status.message()));
}

absl::Status RunOutcomeFromProto(const v1::RunOutcome& proto) {
  // 0 (OK) .. 16 (UNAUTHENTICATED): the canonical codes absl and gRPC share.
  const bool canonical =
      proto.code() >= 0 && proto.code() <= static_cast<int>(absl::StatusCode::kUnauthenticated);
  return absl::Status(
      canonical ? static_cast<absl::StatusCode>(proto.code()) : absl::StatusCode::kUnknown,
      canonical ? proto.message() : absl::StrCat("code ", proto.code(), ": ", proto.message()));
}

void JobDefinitionToProto(const JobDefinition& job, v1::JobSpec* out) {
  out->set_name(job.name);
  out->set_workload(job.workload);
  out->set_group_id(job.group_id);
  out->mutable_options()->Reserve(static_cast<int>(job.options.size()));
  for (const auto& [key, value] : job.options) {
    v1::JobOption* option = out->add_options();
    option->set_key(key);
    option->set_value(value);
  }
}

JobDefinition JobDefinitionFromProto(const v1::JobSpec& proto) {
  JobDefinition job;
  job.name = proto.name();
  if (!proto.workload().empty()) job.workload = proto.workload();
  job.group_id = proto.group_id();
  job.options.reserve(proto.options_size());
  for (const v1::JobOption& option : proto.options()) {
    job.options.emplace_back(option.key(), option.value());
  }
  return job;
}

void DiskUtilToProto(const std::vector<DiskUtil>& disks,
                     google::protobuf::RepeatedPtrField<v1::DiskUtil>* out) {
  for (const DiskUtil& d : disks) {
    v1::DiskUtil* p = out->Add();
    p->set_name(d.name);
    p->set_read_ios(d.read_ios);
    p->set_write_ios(d.write_ios);
    p->set_read_merges(d.read_merges);
    p->set_write_merges(d.write_merges);
    p->set_read_ticks(d.read_ticks);
    p->set_write_ticks(d.write_ticks);
    p->set_in_queue(d.in_queue);
    p->set_util(d.util);
  }
}

std::vector<DiskUtil> DiskUtilFromProto(
    const google::protobuf::RepeatedPtrField<v1::DiskUtil>& proto) {
  std::vector<DiskUtil> disks;
  for (const v1::DiskUtil& p : proto) {
    disks.push_back(DiskUtil{.name = p.name(),
                             .read_ios = p.read_ios(),
                             .write_ios = p.write_ios(),
                             .read_merges = p.read_merges(),
                             .write_merges = p.write_merges(),
                             .read_ticks = p.read_ticks(),
                             .write_ticks = p.write_ticks(),
                             .in_queue = p.in_queue(),
                             .util = p.util()});
  }
  return disks;
}

}  // namespace azbench
