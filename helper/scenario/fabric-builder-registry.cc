/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-builder-registry.h"

#include "ns3/config-error.h"

#include <map>
#include <stdexcept>

namespace ns3
{

NameRegistry<FabricBuilderRegistry::Entry>&
FabricBuilderRegistry::Table()
{
    static NameRegistry<Entry> table("fabric");
    return table;
}

void
FabricBuilderRegistry::Add(Entry entry)
{
    Table().Add(std::move(entry));
}

const FabricBuilderRegistry::Entry&
FabricBuilderRegistry::Get(const std::string& name)
{
    return Table().Get(name);
}

bool
FabricBuilderRegistry::Has(const std::string& name)
{
    return Table().Has(name);
}

std::vector<std::string>
FabricBuilderRegistry::GetNames()
{
    return Table().GetNames();
}

std::unique_ptr<FabricBuilder>
FabricBuilderRegistry::Create(const std::string& name)
{
    try
    {
        return Get(name).create();
    }
    catch (const ConfigError&)
    {
        throw;
    }
    catch (const std::invalid_argument& e)
    {
        throw ConfigError(std::string("--fabric: ") + e.what());
    }
}

const FabricBuilder&
FabricBuilderRegistry::GetProperties(const std::string& name)
{
    // One builder per fabric, made on first use (never during static initialization)
    static std::map<std::string, std::unique_ptr<FabricBuilder>> made;
    std::unique_ptr<FabricBuilder>& builder = made[name];
    if (!builder)
    {
        builder = Create(name);
    }
    return *builder;
}

bool
FabricBuilderRegistry::IsInfiniBand(const std::string& name)
{
    return Has(name) && GetProperties(name).GetLinkLayer() == FabricBuilder::LinkLayer::INFINIBAND;
}

bool
FabricBuilderRegistry::CarriesPfc(const std::string& name)
{
    return Has(name) && GetProperties(name).CarriesPfc();
}

} // namespace ns3
