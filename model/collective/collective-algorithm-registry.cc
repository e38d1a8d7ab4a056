/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-algorithm-registry.h"

#include "ns3/fatal-error.h"

#include <map>
#include <stdexcept>
#include <utility>

namespace ns3
{

NameRegistry<CollectiveAlgorithmRegistry::Entry>&
CollectiveAlgorithmRegistry::Table(CollectiveOp op)
{
    static std::map<CollectiveOp, NameRegistry<Entry>> tables;
    auto it = tables.find(op);
    if (it == tables.end())
    {
        it = tables.emplace(op, NameRegistry<Entry>(CollectiveOpToString(op) + " algorithm")).first;
    }
    return it->second;
}

void
CollectiveAlgorithmRegistry::Add(Entry entry)
{
    NameRegistry<Entry>& table = Table(entry.op);
    if (entry.isDefault)
    {
        for (const std::string& name : table.GetNames())
        {
            if (table.Get(name).isDefault)
            {
                NS_FATAL_ERROR(CollectiveOpToString(entry.op)
                               << " has two default algorithms: '" << name << "' and '"
                               << entry.name << "'");
            }
        }
    }
    table.Add(std::move(entry));
}

const CollectiveAlgorithmRegistry::Entry&
CollectiveAlgorithmRegistry::Get(CollectiveOp op, const std::string& name)
{
    NameRegistry<Entry>& table = Table(op);
    const std::vector<std::string> names = table.GetNames();
    if (names.empty())
    {
        std::string allowed;
        for (CollectiveOp o : {CollectiveOp::ALLREDUCE,
                               CollectiveOp::REDUCE_SCATTER,
                               CollectiveOp::ALL_GATHER,
                               CollectiveOp::ALL_TO_ALL,
                               CollectiveOp::BROADCAST,
                               CollectiveOp::REDUCE})
        {
            if (!Table(o).GetNames().empty())
            {
                allowed += (allowed.empty() ? "" : ", ") + CollectiveOpToString(o);
            }
        }
        throw std::invalid_argument("collective operation '" + CollectiveOpToString(op) +
                                    "' has no algorithm; allowed: " + allowed);
    }
    if (name.empty())
    {
        for (const std::string& n : names)
        {
            if (table.Get(n).isDefault)
            {
                return table.Get(n);
            }
        }
        return table.Get(names.front());
    }
    return table.Get(name);
}

std::vector<std::string>
CollectiveAlgorithmRegistry::GetNames(CollectiveOp op)
{
    return Table(op).GetNames();
}

CollectiveAlgorithmRegistration::CollectiveAlgorithmRegistration(
    CollectiveAlgorithmRegistry::Entry entry)
{
    CollectiveAlgorithmRegistry::Add(std::move(entry));
}

} // namespace ns3
