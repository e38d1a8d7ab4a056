/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NAME_REGISTRY_H
#define NAME_REGISTRY_H

#include "ns3/fatal-error.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief A table of entries by name, kept sorted: what CongestionControlRegistry and
 * TopologyRegistry store. Entry is a struct with a std::string member `name`.
 *
 * Entries are added by static registration objects at load time, so a registry keeps
 * its NameRegistry in a function-local static (made on first use).
 */
template <typename Entry>
class NameRegistry
{
  public:
    /// \param what what the entries are, for messages ("congestion control")
    explicit NameRegistry(std::string what)
        : m_what(std::move(what))
    {
    }

    /**
     * Add an entry. Aborts with a message on an empty or already registered name: a
     * registration line that is wrong is a build error, not an input error.
     * \param entry the entry
     */
    void Add(Entry entry)
    {
        if (entry.name.empty())
        {
            NS_FATAL_ERROR("a " << m_what << " registered without a name");
        }
        if (Has(entry.name))
        {
            NS_FATAL_ERROR(m_what << " '" << entry.name << "' registered twice");
        }
        const auto at = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) {
            return e.name > entry.name;
        });
        m_entries.insert(at, std::move(entry));
    }

    /// \param name a name \return whether it is registered
    bool Has(const std::string& name) const
    {
        return std::any_of(m_entries.begin(), m_entries.end(), [&](const Entry& e) {
            return e.name == name;
        });
    }

    /**
     * \param name a name
     * \return its entry
     * \throws std::invalid_argument "unknown WHAT 'name'; allowed: a, b, c"
     */
    const Entry& Get(const std::string& name) const
    {
        for (const Entry& e : m_entries)
        {
            if (e.name == name)
            {
                return e;
            }
        }
        std::string allowed;
        for (const Entry& e : m_entries)
        {
            allowed += (allowed.empty() ? "" : ", ") + e.name;
        }
        throw std::invalid_argument("unknown " + m_what + " '" + name + "'; allowed: " + allowed);
    }

    /// \return the registered names, sorted
    std::vector<std::string> GetNames() const
    {
        std::vector<std::string> names;
        for (const Entry& e : m_entries)
        {
            names.push_back(e.name);
        }
        return names;
    }

  private:
    std::string m_what;           //!< what the entries are
    std::vector<Entry> m_entries; //!< sorted by name
};

} // namespace ns3

#endif // NAME_REGISTRY_H
