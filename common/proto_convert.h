// Conversions between the wire contract (azbench.v1 protobuf messages) and the domain model. The
// only place that knows both; agent/service and coordinator/fleet call these and nothing else.
#ifndef AZBENCH_COMMON_PROTO_CONVERT_H_
#define AZBENCH_COMMON_PROTO_CONVERT_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "azbench/v1/agent.pb.h"
#include "common/job_result.h"

namespace azbench {

void HistogramToProto(const Histogram::Sparse& sparse, v1::Histogram* out);
// Errors: InvalidArgument when the bucket lists differ in length or the histogram is inconsistent
// (see Histogram::FromSparse).
absl::StatusOr<Histogram::Sparse> HistogramFromProto(const v1::Histogram& proto);

void IntervalToProto(const IntervalStats& interval, v1::Interval* out);
absl::StatusOr<IntervalStats> IntervalFromProto(const v1::Interval& proto);

void JobResultToProto(const JobResult& result, v1::JobResult* out);
// Errors: InvalidArgument naming the job and the bad field (unknown op kind, bad histogram).
absl::StatusOr<JobResult> JobResultFromProto(const v1::JobResult& proto);

void OpLogToProto(const std::string& job_name, int clone, const std::vector<OpRecord>& records,
                  v1::OpLogBatch* out);
// Errors: InvalidArgument when the arrays differ in length or an op kind is unknown.
absl::StatusOr<std::vector<OpRecord>> OpLogFromProto(const v1::OpLogBatch& proto);

// A run's outcome (RunFinished.outcome). A code outside the canonical range (a newer peer's) reads
// as UNKNOWN with the message kept, never as OK.
void RunOutcomeToProto(const absl::Status& status, v1::RunOutcome* out);
absl::Status RunOutcomeFromProto(const v1::RunOutcome& proto);

}  // namespace azbench

#endif  // AZBENCH_COMMON_PROTO_CONVERT_H_
