// The block_io family behind agent/workloads/family.h: fio's options into a JobSpec
// (agent/workloads/block_io/block_io.h runs it), with the agent's sharing of files applied.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_FAMILY_H_

#include <memory>
#include <string>

#include "agent/confinement/job_confinement.h"
#include "agent/workloads/family.h"
#include "common/job_spec.h"

namespace azbench {

const Family& BlockIoFamily();

// A job parsed elsewhere (the one-shot command's fio job files), as Parse would give it:
// `sharing=shared-dir` names the files after `agent_subdir` (job_spec.h).
std::unique_ptr<ParsedJob> MakeParsedBlockIoJob(JobSpec spec, int group_id,
                                                const std::string& agent_subdir);

// What a block-I/O job lays out: numjobs clones, nrfiles x numjobs files (the distinct entries
// of `filename` when given), each of offset + size / nrfiles bytes.
JobFootprint BlockIoFootprint(const JobSpec& spec);
// The job's directory and filename; its files are JobSpec::FilePaths of every clone.
JobPaths BlockIoPaths(const JobSpec& spec);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_FAMILY_H_
