/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COMPACT_INDEX_ARRAY_H
#define COMPACT_INDEX_ARRAY_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief An append-then-read array of 32-bit values stored in blocks of 64: a block
 * whose values are an arithmetic progression (modulo 2^32) is kept as its first value and
 * step (8 bytes), any other block as its 64 values. Reads are exact and constant time.
 *
 * Why: a collective schedule's per-transfer facts (its slot, first unit, dependency
 * count, the dependents' lists) are mostly progressions (a ring's step k moves segment
 * i - k from rank i to i + 1), so a 1,024-rank ring's 4.2 million transfers take a few
 * megabytes instead of a hundred and more; schedules without that regularity cost their
 * 4 bytes per value plus 8 per 64.
 */
class CompactIndexArray
{
  public:
    /// Values per block.
    static constexpr uint32_t BLOCK = 64;

    /// Appends \p v (before Seal only).
    void Append(uint32_t v)
    {
        m_tail[m_tailSize++] = v;
        m_size++;
        if (m_tailSize == BLOCK)
        {
            Flush();
        }
    }

    /// Ends appending: the last partial block is stored; reads are allowed from now on.
    void Seal();
    /// Drops every value (appending may start again).
    void Clear();

    /// \return the number of values appended
    uint64_t Size() const
    {
        return m_size;
    }

    /// \return value \p i (i < Size(), after Seal)
    uint32_t Get(uint64_t i) const
    {
        const Block& b = m_blocks[i / BLOCK];
        const uint32_t j = static_cast<uint32_t>(i % BLOCK);
        if (b.step != EXPLICIT)
        {
            return b.base + b.step * j;
        }
        return m_explicit[static_cast<uint64_t>(b.base) * BLOCK + j];
    }

    /// \return value \p i (i < Size()), before Seal as well
    uint32_t GetAny(uint64_t i) const
    {
        if (i >= static_cast<uint64_t>(m_blocks.size()) * BLOCK)
        {
            return m_tail[i % BLOCK];
        }
        return Get(i);
    }

    uint32_t operator[](uint64_t i) const
    {
        return Get(i);
    }

    /// \return the bytes held (blocks and explicit values)
    uint64_t GetMemoryBytes() const;

  private:
    /// step of a block kept value by value (a progression with this step is kept so too)
    static constexpr uint32_t EXPLICIT = 0x80000000u;

    /// A block: a progression base + step * j, or (step EXPLICIT) the index of its
    /// values in m_explicit, in blocks
    struct Block
    {
        uint32_t base; //!< first value, or the explicit block's index
        uint32_t step; //!< difference of consecutive values (mod 2^32), or EXPLICIT
    };

    /// Stores the tail (m_tailSize values, padded with its last if partial).
    void Flush();

    std::vector<Block> m_blocks;      //!< per block of BLOCK values
    std::vector<uint32_t> m_explicit; //!< values of the explicit blocks, BLOCK each
    uint32_t m_tail[BLOCK];           //!< values not yet in a block
    uint32_t m_tailSize{0};           //!< values in m_tail
    uint64_t m_size{0};               //!< values appended
};

} // namespace ns3

#endif // COMPACT_INDEX_ARRAY_H
