/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONFIG_ERROR_H
#define CONFIG_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \brief A user-caused configuration error (bad flag, value, JSON file, output dir).
 *
 * Thrown instead of NS_FATAL_ERROR where the caller (the CLI, the Python bindings)
 * reports the message and decides the exit status. The message names the flag or
 * key, the offending value and what is allowed.
 */
class ConfigError : public std::invalid_argument
{
  public:
    /**
     * \param message the full, user-facing message
     */
    explicit ConfigError(const std::string& message)
        : std::invalid_argument(message)
    {
    }
};

} // namespace ns3

#endif // CONFIG_ERROR_H
