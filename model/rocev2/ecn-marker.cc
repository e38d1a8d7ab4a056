/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ecn-marker.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnMarker");

NS_OBJECT_ENSURE_REGISTERED(EcnMarker);

TypeId
EcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcnMarker")
            .SetParent<Object>()
            .SetGroupName("AiFabric")
            .AddConstructor<EcnMarker>()
            .AddAttribute("Kmin",
                          "Marking starts above this queue length at ReferenceRate (bytes). "
                          "Default 100 KB at 25 Gb/s: HPCC-derived simulators' DCQCN setting.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&EcnMarker::m_kminRef),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Kmax",
                          "Every packet is marked at or above this queue length at "
                          "ReferenceRate (bytes). Default 400 KB at 25 Gb/s: HPCC-derived "
                          "simulators.",
                          UintegerValue(400000),
                          MakeUintegerAccessor(&EcnMarker::m_kmaxRef),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Pmax",
                          "Marking probability just below Kmax (0..1). Default 0.2: "
                          "HPCC-derived simulators (the DCQCN paper used 0.01 at 40 Gb/s).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&EcnMarker::m_pmaxAttr),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("ReferenceRate",
                          "Link rate at which Kmin/Kmax apply unscaled. Default 25Gbps, the "
                          "rate of the HPCC-derived simulators' reference point.",
                          DataRateValue(DataRate("25Gbps")),
                          MakeDataRateAccessor(&EcnMarker::m_refRate),
                          MakeDataRateChecker())
            .AddAttribute("ScaleWithRate",
                          "Scale Kmin/Kmax linearly with the port's rate in SetLinkRate "
                          "(queue delay at the thresholds stays constant).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EcnMarker::m_scale),
                          MakeBooleanChecker());
    return tid;
}

EcnMarker::EcnMarker()
    : m_kminRef(0),
      m_kmaxRef(0),
      m_pmaxAttr(0),
      m_refRate(DataRate("25Gbps")),
      m_scale(true),
      m_kmin(0),
      m_kmax(0),
      m_pmax(0),
      m_slope(0)
{
    NS_LOG_FUNCTION(this);
}

EcnMarker::~EcnMarker()
{
    NS_LOG_FUNCTION(this);
}

void
EcnMarker::NotifyConstructionCompleted()
{
    Object::NotifyConstructionCompleted();
    Apply(m_kminRef, m_kmaxRef, m_pmaxAttr);
}

EcnMarker::Config
EcnMarker::ConfigFor(DataRate linkRate)
{
    Ptr<EcnMarker> m = CreateObject<EcnMarker>();
    m->SetLinkRate(linkRate);
    return m->GetConfig();
}

void
EcnMarker::SetLinkRate(DataRate linkRate)
{
    NS_LOG_FUNCTION(this << linkRate);
    if (!m_scale)
    {
        Apply(m_kminRef, m_kmaxRef, m_pmaxAttr);
        return;
    }
    if (linkRate.GetBitRate() == 0 || m_refRate.GetBitRate() == 0)
    {
        NS_FATAL_ERROR("EcnMarker::SetLinkRate: link rate " << linkRate << " and ReferenceRate "
                                                            << m_refRate << " must be > 0");
    }
    const double f = static_cast<double>(linkRate.GetBitRate()) / m_refRate.GetBitRate();
    Apply(static_cast<uint64_t>(std::llround(m_kminRef * f)),
          static_cast<uint64_t>(std::llround(m_kmaxRef * f)),
          m_pmaxAttr);
}

void
EcnMarker::SetThresholds(uint64_t kminBytes, uint64_t kmaxBytes, double pmax)
{
    Apply(kminBytes, kmaxBytes, pmax);
}

void
EcnMarker::Apply(uint64_t kmin, uint64_t kmax, double pmax)
{
    if (kmin > kmax)
    {
        NS_FATAL_ERROR("EcnMarker: Kmin = " << kmin << " B > Kmax = " << kmax
                                            << " B; need Kmin <= Kmax (equal = step marking)");
    }
    if (!(pmax >= 0.0 && pmax <= 1.0))
    {
        NS_FATAL_ERROR("EcnMarker: Pmax = " << pmax << " outside [0, 1]");
    }
    m_kmin = kmin;
    m_kmax = kmax;
    m_pmax = pmax;
    m_slope = kmax > kmin ? pmax / static_cast<double>(kmax - kmin) : 0.0;
}

EcnMarker::Config
EcnMarker::GetConfig() const
{
    return Config{m_kmin, m_kmax, m_pmax};
}

double
EcnMarker::GetMarkProbability(uint64_t queueBytes) const
{
    if (queueBytes <= m_kmin)
    {
        return 0.0;
    }
    if (queueBytes >= m_kmax)
    {
        return 1.0;
    }
    return m_slope * static_cast<double>(queueBytes - m_kmin);
}

} // namespace ns3
