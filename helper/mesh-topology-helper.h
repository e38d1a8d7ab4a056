/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MESH_TOPOLOGY_HELPER_H
#define MESH_TOPOLOGY_HELPER_H

#include "torus-topology-helper.h"

namespace ns3
{

/**
 * \brief A torus without wrap-around cables (n-dimensional mesh, e.g. 2D mesh).
 *
 * Same attributes as TorusTopologyHelper. Router cables:
 * sum_d (k_d - 1) prod_{j != d} k_j. Distance sum_d |dx_d|.
 */
class MeshTopologyHelper : public TorusTopologyHelper
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId();
    MeshTopologyHelper();
};

} // namespace ns3

#endif // MESH_TOPOLOGY_HELPER_H
