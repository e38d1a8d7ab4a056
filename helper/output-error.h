/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OUTPUT_ERROR_H
#define OUTPUT_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \brief An output file could not be written (a full disk, a file size limit, an
 * I/O error) once the run had started.
 *
 * The runner removes the contract's files before throwing it, so no output that
 * looks complete is left; the CLI reports the message (naming the file) with exit
 * status 1.
 */
class OutputError : public std::runtime_error
{
  public:
    /**
     * \param message the full, user-facing message, naming the file
     */
    explicit OutputError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

} // namespace ns3

#endif // OUTPUT_ERROR_H
