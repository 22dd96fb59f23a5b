// Conversions between the wire contract (azbench.v1 protobuf messages) and the common domain
// model (results, histograms, intervals, op logs, outcomes, jobs): the only place that converts
// them, called by agent/server and coordinator/{fleet,run}. The agent's own types (its identity,
// mounts and prepared files in Hello, Describe and Prepare answers) convert in
// agent/server/agent_proto.h, the one layer that knows them; the coordinator reads them as
// messages.
#ifndef AZBENCH_COMMON_PROTO_CONVERT_H_
#define AZBENCH_COMMON_PROTO_CONVERT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "azbench/v1/agent.pb.h"
#include "common/disk_util.h"
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

// One job as PrepareRequest.jobs carries it: the fields the coordinator's ScenarioJob and the
// agent's JobRequest share.
struct JobDefinition {
  std::string name;
  std::string workload = "block_io";  // the family (common/workload_spec.h)
  int group_id = 0;                   // fio reporting group (stonewall / new_group)
  // Option names and values in order, repeats kept (the last one wins, as in fio).
  std::vector<std::pair<std::string, std::string>> options;
};

void JobDefinitionToProto(const JobDefinition& job, v1::JobSpec* out);
// An empty workload (a peer that sends none) reads as block_io.
JobDefinition JobDefinitionFromProto(const v1::JobSpec& proto);

// A run's outcome (RunFinished.outcome). A code outside the canonical range (a newer peer's) reads
// as UNKNOWN with the message kept, never as OK.
void RunOutcomeToProto(const absl::Status& status, v1::RunOutcome* out);
absl::Status RunOutcomeFromProto(const v1::RunOutcome& proto);

// A run's disk_util (RunFinished.disk_util), each field as is.
void DiskUtilToProto(const std::vector<DiskUtil>& disks,
                     google::protobuf::RepeatedPtrField<v1::DiskUtil>* out);
std::vector<DiskUtil> DiskUtilFromProto(
    const google::protobuf::RepeatedPtrField<v1::DiskUtil>& proto);

}  // namespace azbench

#endif  // AZBENCH_COMMON_PROTO_CONVERT_H_
