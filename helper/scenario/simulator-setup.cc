/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "simulator-setup.h"

#include "rank-coordinator.h"

#include "ns3/boolean.h"
#include "ns3/config-error.h"
#include "ns3/global-value.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

namespace
{
/// \return the TypeId name of knob value \p name (the knob allows only listed names).
const std::string&
TypeNameOf(const std::vector<ScenarioConfig::NamedType>& types, const std::string& name)
{
    for (const auto& t : types)
    {
        if (t.name == name)
        {
            return t.typeId;
        }
    }
    throw ConfigError("'" + name + "' is not a listed value"); // Set() checked it already
}
} // namespace

void
SimulatorSetup::Apply(const ScenarioConfig& c)
{
    // Picosecond resolution: at 400 Gb/s one byte is 20 ps, so nanoseconds would
    // round every serialization time.
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
    RngSeedManager::SetSeed(c.seed);
    RngSeedManager::SetRun(c.run);
    // The simulator implementation is chosen by a global value read when the first
    // Simulator call creates it; one that exists already (a caller that did not
    // Simulator::Destroy) stays, and the summary names what ran. Restore() restores the
    // global value, so later simulations in this process get what they would have.
    StringValue previousImpl;
    GlobalValue::GetValueByName("SimulatorImplementationType", previousImpl);
    m_previousSimulatorImpl = previousImpl.Get();
    // --mpi: the ranks' engine, chosen in one place (RankCoordinator::GetEngineTypeName)
    // (Only when MPI is running: otherwise RankRun::Check refuses --mpi with its reason, and
    // the engine's type may not even exist in this build.)
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(c.mpi && RankCoordinator::IsEnabled()
                                      ? RankCoordinator::GetEngineTypeName()
                                      : TypeNameOf(ScenarioConfig::SimulatorImpls(), c.simulator)));
    ObjectFactory scheduler;
    scheduler.SetTypeId(TypeNameOf(ScenarioConfig::EventLists(), c.scheduler));
    Simulator::SetScheduler(scheduler);
    BooleanValue previousChecksums;
    GlobalValue::GetValueByName("ChecksumEnabled", previousChecksums);
    m_previousChecksumEnabled = previousChecksums.Get();
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(c.checksums));
}

void
SimulatorSetup::Restore() const
{
    GlobalValue::Bind("SimulatorImplementationType", StringValue(m_previousSimulatorImpl));
    GlobalValue::Bind("ChecksumEnabled", BooleanValue(m_previousChecksumEnabled));
}

} // namespace ns3
