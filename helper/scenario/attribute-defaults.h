/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATTRIBUTE_DEFAULTS_H
#define ATTRIBUTE_DEFAULTS_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The attribute defaults of every registered TypeId as they were when it was
 * made, put back when it goes: what a scenario run sets with Config::SetDefault (its
 * knobs, a fabric builder's defaults, a congestion-control preset, --ns3:: overrides)
 * does not leak into the next run of the same process (Python sweeps, test suites).
 *
 * ScenarioRunner::Run makes one first; a default set before the run (by a script or a
 * test) is kept, since it is what the snapshot recorded. Restoring compares pointers
 * only, so a run that changed nothing costs a walk over the attributes.
 */
class AttributeDefaults
{
  public:
    /// Record every registered TypeId's attribute defaults (TypeId initial values).
    AttributeDefaults();
    /// Restore()
    ~AttributeDefaults();
    AttributeDefaults(const AttributeDefaults&) = delete;
    AttributeDefaults& operator=(const AttributeDefaults&) = delete;

    /// Put back every recorded default changed since (Config::SetDefault).
    void Restore() const;

  private:
    /// m_values[TypeId index][attribute index]: the default when recorded
    std::vector<std::vector<Ptr<const AttributeValue>>> m_values;
};

} // namespace ns3

#endif // ATTRIBUTE_DEFAULTS_H
