/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fixed-fraction-congestion-control.h"

#include "ns3/congestion-control-registry.h"
#include "ns3/double.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FixedFractionCongestionControl);
static CongestionControlRegistration<FixedFractionCongestionControl> g_registration(
    "fixed-fraction",
    "test library: pace at ns3::FixedFractionCongestionControl::Fraction of the line rate");

TypeId
FixedFractionCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FixedFractionCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("AiFabric")
            .AddConstructor<FixedFractionCongestionControl>()
            .AddAttribute("Fraction",
                          "Pacing rate as a fraction of the line rate, in (0, 1]",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FixedFractionCongestionControl::m_fraction),
                          MakeDoubleChecker<double>(1e-6, 1.0));
    return tid;
}

void
FixedFractionCongestionControl::Start(const RdmaCcContext& ctx)
{
    RdmaCongestionControl::Start(ctx);
    SetRate(DataRate(static_cast<uint64_t>(
        std::llround(static_cast<double>(ctx.lineRate.GetBitRate()) * m_fraction))));
}

std::string
FixedFractionCongestionControl::GetName() const
{
    return "fixed-fraction";
}

Ptr<RdmaCongestionControl>
FixedFractionCongestionControl::Fork() const
{
    return CopyObject<FixedFractionCongestionControl>(this);
}

} // namespace ns3
