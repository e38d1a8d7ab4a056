/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "compact-index-array.h"

namespace ns3
{

void
CompactIndexArray::Flush()
{
    if (m_tailSize == 0)
    {
        return;
    }
    for (uint32_t j = m_tailSize; j < BLOCK; ++j)
    {
        m_tail[j] = m_tail[m_tailSize - 1]; // padding, never read
    }
    const uint32_t step = m_tail[1] - m_tail[0];
    bool progression = step != EXPLICIT;
    for (uint32_t j = 2; j < m_tailSize && progression; ++j)
    {
        progression = m_tail[j] == m_tail[0] + step * j;
    }
    if (progression)
    {
        m_blocks.push_back({m_tail[0], step});
    }
    else
    {
        m_blocks.push_back({static_cast<uint32_t>(m_explicit.size() / BLOCK), EXPLICIT});
        m_explicit.insert(m_explicit.end(), m_tail, m_tail + BLOCK);
    }
    m_tailSize = 0;
}

void
CompactIndexArray::Seal()
{
    Flush();
    m_blocks.shrink_to_fit();
    m_explicit.shrink_to_fit();
}

void
CompactIndexArray::Clear()
{
    std::vector<Block>().swap(m_blocks);
    std::vector<uint32_t>().swap(m_explicit);
    m_tailSize = 0;
    m_size = 0;
}

uint64_t
CompactIndexArray::GetMemoryBytes() const
{
    return m_blocks.capacity() * sizeof(Block) + m_explicit.capacity() * sizeof(uint32_t);
}

} // namespace ns3
