/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ENDPOINT_H
#define RDMA_ENDPOINT_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <string>

namespace ns3
{

class Node;
class RdmaFabric;

/**
 * \ingroup ai-fabric
 * \brief What an application on a host Node needs of the fabric: the fabric and the
 * host's index in it (RdmaFabric::PostWrite's src and dst).
 *
 * FabricTopology::SetFabric aggregates one to every host Node when a fabric helper
 * installs a fabric on a FabricTopology; applications (RdmaFlowApplication,
 * CollectiveRankApplication) find it with Find.
 */
class RdmaEndpoint : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    RdmaEndpoint();
    ~RdmaEndpoint() override;

    /**
     * \param fabric the fabric
     * \param host the Node's host index in it
     * \param collectives the count of collectives on the fabric, shared by all of the
     *        fabric's endpoints (AllocateCollectiveTagSpace)
     */
    void Setup(Ptr<RdmaFabric> fabric, uint32_t host, std::shared_ptr<uint32_t> collectives);
    /// \return the fabric
    Ptr<RdmaFabric> GetFabric() const;
    /// \return the host index
    uint32_t GetHostIndex() const;

    /// First tag space of collectives: RdmaCollectiveTransport's default TagSpace.
    static constexpr uint8_t FIRST_COLLECTIVE_TAG_SPACE = 0xC0;
    /// Tag spaces for collectives: up to RdmaFlowApplication::TAG_SPACE (0xF0), excluded.
    static constexpr uint32_t MAX_COLLECTIVES = 0x30;
    /**
     * A tag space (the top byte of a tag) that no other collective on this fabric has:
     * FIRST_COLLECTIVE_TAG_SPACE for the first, then the next ones.
     * \throws std::invalid_argument past MAX_COLLECTIVES collectives on one fabric
     */
    uint8_t AllocateCollectiveTagSpace();

    /**
     * The endpoint of \p node.
     * \param node a Node
     * \param who the caller, first in the message ("RdmaFlowHelper::Install")
     * \throws std::invalid_argument naming the node when it is null or has no RDMA
     *         device (no fabric helper installed a fabric on a FabricTopology it is a
     *         host of)
     */
    static Ptr<RdmaEndpoint> Find(Ptr<Node> node, const std::string& who);

  protected:
    void DoDispose() override;

  private:
    Ptr<RdmaFabric> m_fabric;                //!< the fabric (released at Dispose)
    uint32_t m_host{0};                      //!< host index
    std::shared_ptr<uint32_t> m_collectives; //!< collectives on the fabric so far
};

} // namespace ns3

#endif // RDMA_ENDPOINT_H
