/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TORUS_TOPOLOGY_HELPER_H
#define TORUS_TOPOLOGY_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/topology-graph.h"
#include "ns3/topology-helper.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Builds an n-dimensional torus (k-ary n-cube) of routers with hosts.
 *
 * Dims "k0xk1x..." (1-D ring, 2-D, 3-D, ...), each radix >= 2. Router id =
 * sum_d x_d prod_{j<d} k_j (dimension 0 varies fastest); a router's group is its
 * id. Each router gets HostsPerRouter hosts. Router cables: n prod k when every
 * k_d > 2; a dimension of radix 2 has a single cable between its two routers (the
 * +1 and wrap neighbours coincide; not doubled), so it contributes prod k / 2.
 * Node ids: hosts first (rank = router * HostsPerRouter + i), then routers.
 */
class TorusTopologyHelper : public TopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    TorusTopologyHelper();

    /// Set the radices directly (overrides the Dims attribute).
    void SetDims(const std::vector<uint32_t>& dims);
    /// \return the radices in use
    std::vector<uint32_t> GetDims() const;

    /**
     * Parse "8x8" / "4x4x4" / "8". Throws std::invalid_argument naming the text.
     * \param text the dimension string
     * \return the radices
     */
    static std::vector<uint32_t> ParseDims(const std::string& text);

    /**
     * Build the graph. Throws std::invalid_argument for empty dims, a radix < 2 or
     * zero hosts per router.
     * \return the graph
     */
    Ptr<TopologyGraph> Build() const override;
    /// \return the closed-form counts of Build()
    Size GetSize() const override;

  protected:
    bool m_wrap; //!< true: torus; false: mesh (set by the subclass, not an attribute)

  private:
    std::string m_dimsText;       //!< Dims attribute
    std::vector<uint32_t> m_dims; //!< set by SetDims; empty = use m_dimsText
    uint32_t m_hostsPerRouter;    //!< hosts per router
};

} // namespace ns3

#endif // TORUS_TOPOLOGY_HELPER_H
