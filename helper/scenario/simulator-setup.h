/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SIMULATOR_SETUP_H
#define SIMULATOR_SETUP_H

#include "scenario-config.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The simulator-wide settings of a run (--seed, --run, --simulator,
 * --scheduler, --checksums, --mpi's engine, picosecond time resolution), applied before
 * the first Simulator call, and the two global values restored after the run, so later
 * simulations in this process get what they would have.
 */
class SimulatorSetup
{
  public:
    /// Apply \p c's settings (remembering the global values it changes).
    void Apply(const ScenarioConfig& c);
    /// Restore SimulatorImplementationType and ChecksumEnabled (after Simulator::Destroy).
    void Restore() const;

  private:
    std::string m_previousSimulatorImpl;   //!< SimulatorImplementationType before Apply
    bool m_previousChecksumEnabled{false}; //!< ChecksumEnabled before Apply
};

} // namespace ns3

#endif // SIMULATOR_SETUP_H
