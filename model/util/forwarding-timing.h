/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FORWARDING_TIMING_H
#define FORWARDING_TIMING_H

#include <algorithm>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief When a switch may start a packet on its output port: cut-through or
 * store-and-forward with a port-to-port latency. Both fabrics' switches use it.
 *
 * With a packet of txIn on the wire of its input port and txOut on its output
 * port (time steps) and a forwarding latency L:
 * - store-and-forward: the tail must be in, then L: start = head + txIn + L;
 * - cut-through: the header must be in and L past, and the output may not run
 *   out of bytes before the tail is in (start + txOut >= head + txIn):
 *   start = head + max(L, txIn - txOut).
 * An output that is busy or paused starts it later still.
 */
class ForwardingTiming
{
  public:
    /// \return the earliest start on the output port, time steps after the head arrived
    static int64_t StartAfterHead(bool cutThrough, int64_t latency, int64_t txIn, int64_t txOut)
    {
        return cutThrough ? std::max(latency, txIn - txOut) : txIn + latency;
    }

    /**
     * \return the earliest start on the output port relative to the tail's arrival
     * (negative: before it, cut-through only; never before tail - txOut)
     */
    static int64_t StartAfterTail(bool cutThrough, int64_t latency, int64_t txIn, int64_t txOut)
    {
        return StartAfterHead(cutThrough, latency, txIn, txOut) - txIn;
    }
};

} // namespace ns3

#endif // FORWARDING_TIMING_H
