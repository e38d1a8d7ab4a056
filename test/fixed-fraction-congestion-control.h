/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FIXED_FRACTION_CONGESTION_CONTROL_H
#define FIXED_FRACTION_CONGESTION_CONTROL_H

#include "ns3/rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup ai-fabric-tests
 * \brief A toy congestion control of the test library: it paces every queue pair at a
 * fixed fraction of its line rate and ignores all feedback. It shows what adding an
 * algorithm takes (this class, its .cc file with one registration line) and lets a
 * test check that the runner really uses a registered algorithm: the flow's time
 * stretches by exactly 1 / Fraction.
 */
class FixedFractionCongestionControl : public RdmaCongestionControl
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    void Start(const RdmaCcContext& ctx) override;
    std::string GetName() const override;
    Ptr<RdmaCongestionControl> Fork() const override;

  private:
    double m_fraction{0.5}; //!< pacing rate / line rate, in (0, 1]
};

} // namespace ns3

#endif // FIXED_FRACTION_CONGESTION_CONTROL_H
