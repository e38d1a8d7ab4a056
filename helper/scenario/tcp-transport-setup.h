/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TCP_TRANSPORT_SETUP_H
#define TCP_TRANSPORT_SETUP_H

#include "scenario-config.h"

#include "ns3/ptr.h"

#include <nlohmann/json.hpp>

namespace ns3
{

class RdmaFabric;
class TcpFlowTransport;

/**
 * \ingroup ai-fabric
 * \brief The runner's --transport=tcp: ns-3's internet stack and TCP (--tcp-variant) on
 * every host of the built fabric, in --tcp-priority's class (TcpFlowTransport, as a
 * script installs it), and summary.json's "tcp" block.
 */
class TcpTransportSetup
{
  public:
    /**
     * \param c the configuration
     * \param fabric the built fabric (disposed of if it refuses IP)
     * \return the transport that carries the workloads' messages
     * \throws ConfigError when the fabric refuses IP
     */
    static Ptr<TcpFlowTransport> Install(const ScenarioConfig& c, Ptr<RdmaFabric> fabric);
    /// \return summary.json's "tcp": the variant, flows and the NICs' IP counters
    static nlohmann::json ToJson(const ScenarioConfig& c,
                                 const TcpFlowTransport& tcp,
                                 const RdmaFabric& fabric);
};

} // namespace ns3

#endif // TCP_TRANSPORT_SETUP_H
