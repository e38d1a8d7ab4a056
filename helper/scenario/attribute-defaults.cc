/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "attribute-defaults.h"

#include "ns3/type-id.h"

namespace ns3
{

AttributeDefaults::AttributeDefaults()
{
    const uint16_t n = TypeId::GetRegisteredN();
    m_values.resize(n);
    for (uint16_t i = 0; i < n; ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        m_values[i].reserve(tid.GetAttributeN());
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            m_values[i].push_back(tid.GetAttribute(a).initialValue);
        }
    }
}

AttributeDefaults::~AttributeDefaults()
{
    Restore();
}

void
AttributeDefaults::Restore() const
{
    for (uint16_t i = 0; i < m_values.size(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        for (std::size_t a = 0; a < m_values[i].size(); ++a)
        {
            // Config::SetDefault replaces the value object: an unchanged one is the same
            if (tid.GetAttribute(a).initialValue != m_values[i][a])
            {
                tid.SetAttributeInitialValue(a, m_values[i][a]);
            }
        }
    }
}

} // namespace ns3
