/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-headroom.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

namespace
{
/// ceil(a * b / c) without overflow for the magnitudes involved (rates <= 10 Tb/s, delays <= 1 s).
uint64_t
CeilMulDiv(uint64_t a, uint64_t b, uint64_t c)
{
    __uint128_t p = static_cast<__uint128_t>(a) * b;
    return static_cast<uint64_t>((p + c - 1) / c);
}
} // namespace

uint64_t
PfcHeadroom::Compute(DataRate rate, Time cableDelay, uint32_t mtuBytes, uint32_t responseQuanta)
{
    const uint64_t bps = rate.GetBitRate();
    const uint64_t delayPs =
        static_cast<uint64_t>(std::max<int64_t>(cableDelay.GetPicoSeconds(), 0));
    // 2 * d[s] * R[bit/s] / 8 = 2 * d[ps] * R / (8e12)
    const uint64_t wire = CeilMulDiv(2 * delayPs, bps, 8000000000000ULL);
    const uint64_t response = (static_cast<uint64_t>(responseQuanta) * BITS_PER_QUANTUM + 7) / 8;
    return wire + 2ULL * mtuBytes + PFC_FRAME_BYTES + response;
}

uint64_t
PfcHeadroom::HpccApproximation(DataRate rate, Time cableDelay)
{
    const uint64_t delayPs =
        static_cast<uint64_t>(std::max<int64_t>(cableDelay.GetPicoSeconds(), 0));
    return CeilMulDiv(3 * delayPs, rate.GetBitRate(), 8000000000000ULL);
}

uint64_t
PfcHeadroom::NicDriverApproximation(DataRate rate, Time cableDelay, uint32_t mtuBytes)
{
    const double gbps = rate.GetBitRate() / 1e9;
    const double cableM = cableDelay.GetSeconds() / 5e-9;
    return static_cast<uint64_t>(std::ceil((301.0 + 2.16 * cableM) * gbps + 2.72 * mtuBytes));
}

} // namespace ns3
