/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-error.h"

namespace ns3
{

JobError::JobError(const std::string& file, uint32_t index, const std::string& name)
    : m_prefix("--jobs=" + file + ": job " + (name.empty() ? std::string() : "'" + name + "' ") +
               "(number " + std::to_string(index + 1) + ")")
{
}

ConfigError
JobError::Field(const std::string& field,
                const nlohmann::json& value,
                const std::string& allowed) const
{
    return ConfigError(m_prefix + ": \"" + field + "\": " + value.dump() +
                       " is not allowed; allowed " + allowed);
}

ConfigError
JobError::Job(const std::string& what) const
{
    return ConfigError(m_prefix + ": " + what);
}

} // namespace ns3
