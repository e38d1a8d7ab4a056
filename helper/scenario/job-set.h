/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_SET_H
#define JOB_SET_H

#include "job-spec.h"

#include "ns3/topology-graph.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A --jobs file: a JSON array of jobs, read strictly (ParseStrictJson: a key
 * given twice is refused), and their placement on a topology.
 */
class JobSet
{
  public:
    /**
     * Read and check a jobs file.
     * \param file the path (the --jobs value)
     * \return the jobs, in file order
     * \throws ConfigError "--jobs=FILE: job 'NAME' (number N): "FIELD": VALUE ...; allowed
     *         ..." naming the job, the field and what is allowed
     */
    static std::vector<JobSpec> Load(const std::string& file);
    /**
     * Place the jobs in file order on \p graph's hosts (each host in one job at most).
     * \param jobs the jobs (their hosts are filled in)
     * \param graph the topology
     * \param file the --jobs value, for messages
     * \throws ConfigError naming the job whose hosts do not fit
     */
    static void Place(std::vector<JobSpec>& jobs,
                      const TopologyGraph& graph,
                      const std::string& file);
};

} // namespace ns3

#endif // JOB_SET_H
