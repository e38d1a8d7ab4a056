/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HALVING_DOUBLING_ALLREDUCE_H
#define HALVING_DOUBLING_ALLREDUCE_H

#include "collective-algorithm.h"

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief Rabenseifner's allreduce: recursive-halving reduce-scatter then
 * recursive-doubling all-gather (Thakur, Rabenseifner and Gropp 2005).
 *
 * For N = 2^k: k exchange steps of S/2, S/4 .. S/N bytes, then k steps back up:
 * 2 log2(N) alpha + 2 (N-1)/N S/B. Other N: with N' the largest power of two
 * below N and E = N - N', ranks 2i (i < E) first send their whole buffer to
 * rank 2i+1 (fold), sit out the N'-rank algorithm and get the result back at the
 * end (unfold): two extra steps of alpha + S/B. The Order attribute chooses which
 * distance goes first.
 */
class HalvingDoublingAllreduce : public CollectiveAlgorithm
{
  public:
    /// Which exchange distance the reduce-scatter starts with
    enum Order
    {
        NEAREST_FIRST,  ///< 1, 2, 4, ...: the largest exchanges between neighbours
        FARTHEST_FIRST, ///< N/2, N/4, ...: Thakur et al.'s order
    };

    static TypeId GetTypeId();
    CollectiveOp GetOp() const override;
    std::string GetName() const override;

  protected:
    void BuildSchedule() override;

  private:
    Order m_order{NEAREST_FIRST};
};

} // namespace ns3

#endif // HALVING_DOUBLING_ALLREDUCE_H
