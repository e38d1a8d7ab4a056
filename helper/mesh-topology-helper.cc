/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mesh-topology-helper.h"

#include "ns3/log.h"
#include "ns3/topology-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MeshTopologyHelper");
NS_OBJECT_ENSURE_REGISTERED(MeshTopologyHelper);
static TopologyRegistration<MeshTopologyHelper> g_registration(
    "mesh",
    "n-dimensional mesh of routers (a torus without wrap-around cables)",
    {{"dims", "Dims"}, {"hosts-per-switch", "HostsPerRouter"}});

TypeId
MeshTopologyHelper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MeshTopologyHelper")
                            .SetParent<TorusTopologyHelper>()
                            .SetGroupName("AiFabric")
                            .AddConstructor<MeshTopologyHelper>();
    return tid;
}

MeshTopologyHelper::MeshTopologyHelper()
{
    // not an attribute: ConstructSelf would reset it after this constructor
    m_wrap = false;
}

} // namespace ns3
