#include "common/proto_convert.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

JobResult MeasuredJob() {
  JobResult result;
  result.name = "rand";
  result.group_id = 1;
  result.clones = 2;
  result.runtime_ns = 2'000'000'000;
  OpStats& read = result.Stats(OpKind::kRead);
  for (uint64_t ns : {900u, 1'100u, 250'000u}) read.lat.Record(ns);
  read.ops = 3;
  read.bytes = 3 * 4096;
  result.cpu = {.threads = 2,
                .wall_ns = 4'000'000'123,
                .user_ns = 812'000'000,
                .system_ns = 2'900'000'000,
                .voluntary_switches = 15,
                .involuntary_switches = 9'000,
                .minor_faults = 64,
                .major_faults = 2};
  result.depth.level = {0, 0, 0, 0, 3, 0, 0};
  result.depth.submit = {0, 1, 0, 0, 0, 0, 0};
  result.depth.complete = {1, 3, 0, 0, 0, 0, 0};
  return result;
}

TEST(JobResultProtoTest, DepthStatsCrossTheWireExactly) {
  const JobResult sent = MeasuredJob();
  v1::JobResult wire;
  JobResultToProto(sent, &wire);
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_TRUE(received->depth == sent.depth);
}

TEST(JobResultProtoTest, DepthStatsWithTheWrongNumberOfBucketsAreRefusedNamingTheJob) {
  v1::JobResult wire;
  JobResultToProto(MeasuredJob(), &wire);
  wire.mutable_depth()->add_level(9);
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_FALSE(received.ok());
  EXPECT_EQ(received.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(received.status().message().find("job 'rand'"), std::string::npos) << received.status();
  EXPECT_NE(received.status().message().find("buckets"), std::string::npos);
}

TEST(JobResultProtoTest, CpuUsageCrossesTheWireExactly) {
  const JobResult sent = MeasuredJob();
  v1::JobResult wire;
  JobResultToProto(sent, &wire);
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_TRUE(received->cpu == sent.cpu);
  EXPECT_EQ(received->Find(OpKind::kRead)->ops, 3u);
  EXPECT_TRUE(received->Find(OpKind::kRead)->lat == sent.Find(OpKind::kRead)->lat);
}

TEST(JobResultProtoTest, VerifyFailuresCrossTheWireWithTheirOffsets) {
  JobResult sent = MeasuredJob();
  sent.verify_failures = 12;
  sent.verify_failure_offsets = {4096, 65536};
  v1::JobResult wire;
  JobResultToProto(sent, &wire);
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_EQ(received->verify_failures, 12u);
  EXPECT_EQ(received->verify_failure_offsets, (std::vector<uint64_t>{4096, 65536}));
}

TEST(JobResultProtoTest, SteadyStateAndLatencyDepthCrossTheWireExactly) {
  JobResult sent = MeasuredJob();
  sent.latency_depth = 24;
  SteadyStateResult& ss = sent.steadystate.emplace();
  ss.spec.iops = false;
  ss.spec.slope = false;
  ss.spec.limit = 5.5;
  ss.spec.duration = absl::Seconds(3);
  ss.spec.ramp = absl::Milliseconds(1500);
  ss.attained = true;
  ss.criterion = 1.25;
  ss.max_deviation = 2.5;
  ss.slope = -0.75;
  ss.iops = {10, 11, 12};
  ss.bw = {40960, 45056, 49152};
  v1::JobResult wire;
  JobResultToProto(sent, &wire);
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_EQ(received->latency_depth, 24);
  ASSERT_TRUE(received->steadystate.has_value());
  EXPECT_TRUE(*received->steadystate == ss);

  sent.steadystate.reset();
  wire.Clear();
  JobResultToProto(sent, &wire);
  EXPECT_FALSE(wire.has_steadystate());
  received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_FALSE(received->steadystate.has_value()) << "no detector, none invented";
}

TEST(JobResultProtoTest, AResultWithoutCpuUsageStaysNotMeasured) {
  JobResult sent = MeasuredJob();
  sent.cpu = CpuUsage{};
  v1::JobResult wire;
  JobResultToProto(sent, &wire);
  EXPECT_FALSE(wire.has_cpu()) << "nothing measured, nothing sent";
  absl::StatusOr<JobResult> received = JobResultFromProto(wire);
  ASSERT_TRUE(received.ok()) << received.status();
  EXPECT_FALSE(received->cpu.measured());
}

TEST(RunOutcomeProtoTest, AStatusCrossesTheWireAndAnUnknownCodeNeverReadsAsOk) {
  v1::RunOutcome wire;
  RunOutcomeToProto(absl::NotFoundError("job 'c2c': rel_dir: mkdir: No such file"), &wire);
  const absl::Status received = RunOutcomeFromProto(wire);
  EXPECT_EQ(received.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(std::string(received.message()), "job 'c2c': rel_dir: mkdir: No such file");
  RunOutcomeToProto(absl::OkStatus(), &wire);
  EXPECT_TRUE(RunOutcomeFromProto(wire).ok());
  wire.set_code(99);  // a newer peer's code
  wire.set_message("disk on fire");
  const absl::Status unknown = RunOutcomeFromProto(wire);
  EXPECT_EQ(unknown.code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(std::string(unknown.message()), "code 99: disk on fire");
  wire.set_code(-1);
  EXPECT_EQ(RunOutcomeFromProto(wire).code(), absl::StatusCode::kUnknown);
}

TEST(DiskUtilProtoTest, EveryFieldOfEveryDiskCrossesTheWireInOrder) {
  const std::vector<DiskUtil> sent = {{"nvme0n1", 1, 2, 3, 4, 5, 6, 7, 42.5},
                                      {"vdb", uint64_t{1} << 40, 9, 0, 0, 11, 12, 13, 100.0}};
  v1::RunFinished finished;
  DiskUtilToProto(sent, finished.mutable_disk_util());
  const std::vector<DiskUtil> received = DiskUtilFromProto(finished.disk_util());
  ASSERT_EQ(received.size(), 2u);
  for (size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(received[i].name, sent[i].name);
    EXPECT_EQ(received[i].read_ios, sent[i].read_ios);
    EXPECT_EQ(received[i].write_ios, sent[i].write_ios);
    EXPECT_EQ(received[i].read_merges, sent[i].read_merges);
    EXPECT_EQ(received[i].write_merges, sent[i].write_merges);
    EXPECT_EQ(received[i].read_ticks, sent[i].read_ticks);
    EXPECT_EQ(received[i].write_ticks, sent[i].write_ticks);
    EXPECT_EQ(received[i].in_queue, sent[i].in_queue);
    EXPECT_EQ(received[i].util, sent[i].util);
  }
}

TEST(JobDefinitionProtoTest, AJobCrossesTheWireWithItsOptionsInOrderAndRepeatsKept) {
  const JobDefinition job{.name = "study-c",
                          .workload = "small_files",
                          .group_id = 2,
                          .options = {{"bs", "4k"}, {"rw", "randread"}, {"bs", "64k"}}};
  v1::JobSpec proto;
  JobDefinitionToProto(job, &proto);
  const JobDefinition back = JobDefinitionFromProto(proto);
  EXPECT_EQ(back.name, "study-c");
  EXPECT_EQ(back.workload, "small_files");
  EXPECT_EQ(back.group_id, 2);
  EXPECT_EQ(back.options, job.options);
}

TEST(JobDefinitionProtoTest, AJobWithoutAWorkloadReadsAsBlockIo) {
  v1::JobSpec proto;
  proto.set_name("j");
  EXPECT_EQ(JobDefinitionFromProto(proto).workload, "block_io");
}

// fio's clat and slat logs of a campaign are written from the records the agents stream: the
// slat of an asynchronous engine's op crosses the wire; a sync engine's records have none.
TEST(OpLogProtoTest, SlatCrossesTheWireOnlyWhereTheEngineMeasuredIt) {
  OpRecord async_op;
  async_op.start_ns = 10;
  async_op.latency_ns = 5000;
  async_op.bytes = 4096;
  async_op.has_slat = true;
  async_op.slat_ns = 700;
  v1::OpLogBatch batch;
  OpLogToProto("j", 1, {async_op, async_op}, &batch);
  absl::StatusOr<std::vector<OpRecord>> back = OpLogFromProto(batch);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_TRUE((*back)[1].has_slat);
  EXPECT_EQ((*back)[1].slat_ns, 700u);
  EXPECT_EQ((*back)[1].latency_ns, 5000u);
  EXPECT_EQ((*back)[1].clone, 1);

  OpRecord sync_op = async_op;
  sync_op.has_slat = false;
  v1::OpLogBatch sync_batch;
  OpLogToProto("j", 0, {sync_op}, &sync_batch);
  back = OpLogFromProto(sync_batch);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE((*back)[0].has_slat);

  batch.add_slat_ns(1);  // one more slat than records
  EXPECT_EQ(OpLogFromProto(batch).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace azbench
