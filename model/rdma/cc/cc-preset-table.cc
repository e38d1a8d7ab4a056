/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-preset-table.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

CcPresetTable::CcPresetTable(std::string algorithm, std::vector<Row> rows)
    : m_algorithm(std::move(algorithm)),
      m_rows(std::move(rows))
{
}

std::vector<std::string>
CcPresetTable::GetNames() const
{
    std::vector<std::string> names;
    names.reserve(m_rows.size());
    for (const Row& row : m_rows)
    {
        names.push_back(row.name);
    }
    return names;
}

const std::string&
CcPresetTable::GetDefaultName() const
{
    return m_rows.front().name;
}

const CcPresetTable::Values&
CcPresetTable::GetSender(const std::string& name) const
{
    return Find(name).sender;
}

const CcPresetTable::Values&
CcPresetTable::GetSwitches(const std::string& name) const
{
    return Find(name).switches;
}

CcPresetTable::Values
CcPresetTable::Join(Values common, const Values& extra)
{
    common.insert(common.end(), extra.begin(), extra.end());
    return common;
}

const CcPresetTable::Row&
CcPresetTable::Find(const std::string& name) const
{
    auto it = std::find_if(m_rows.begin(), m_rows.end(), [&name](const Row& row) {
        return row.name == name;
    });
    if (it != m_rows.end())
    {
        return *it;
    }
    std::string allowed;
    for (const Row& row : m_rows)
    {
        allowed += (allowed.empty() ? "" : ", ") + row.name;
    }
    throw std::invalid_argument("unknown " + m_algorithm + " preset '" + name +
                                "'; allowed: " + allowed);
}

} // namespace ns3
