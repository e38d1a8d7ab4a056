/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_ERROR_H
#define JOB_ERROR_H

#include "ns3/config-error.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Builds the messages about one job of a --jobs file:
 * "--jobs=FILE: job 'NAME' (number N): ..." (JobSpec::FromJson, JobSet).
 */
class JobError
{
  public:
    /**
     * \param file the --jobs value
     * \param index the job's position in the file (from 0)
     * \param name its name (empty: not known yet)
     */
    JobError(const std::string& file, uint32_t index, const std::string& name);

    /// \return the error of \p field whose value \p value is not one of \p allowed
    ConfigError Field(const std::string& field,
                      const nlohmann::json& value,
                      const std::string& allowed) const;
    /// \return an error about the job as a whole
    ConfigError Job(const std::string& what) const;

  private:
    std::string m_prefix; //!< "--jobs=FILE: job 'NAME' (number N)"
};

} // namespace ns3

#endif // JOB_ERROR_H
