// libFuzzer target: the histogram deserializer. The bytes are parsed as the wire message an agent
// sends (azbench.v1.Histogram), converted to the sparse form and checked by FromSparse and
// MergeSparse, the path every RPC result takes in the coordinator. Whatever is accepted must
// behave: a histogram rebuilt from its own sparse form is the same histogram.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "azbench/v1/agent.pb.h"
#include "common/histogram.h"
#include "common/proto_convert.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  azbench::v1::Histogram proto;
  if (!proto.ParseFromArray(data, static_cast<int>(size))) return 0;
  absl::StatusOr<azbench::Histogram::Sparse> sparse = azbench::HistogramFromProto(proto);
  if (!sparse.ok()) return 0;
  absl::StatusOr<azbench::Histogram> histogram = azbench::Histogram::FromSparse(*sparse);
  if (!histogram.ok()) return 0;
  absl::StatusOr<azbench::Histogram> again = azbench::Histogram::FromSparse(histogram->ToSparse());
  if (!again.ok() || !(*again == *histogram)) std::abort();
  azbench::Histogram merged = *histogram;
  (void)merged.MergeSparse(*sparse);
  (void)histogram->Percentile(99.9);
  (void)histogram->mean_ns();
  (void)histogram->stddev_ns();
  return 0;
}
