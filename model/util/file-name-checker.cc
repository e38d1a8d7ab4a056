/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "file-name-checker.h"

#include "ns3/string.h"

namespace ns3
{

bool
IsPlainFileName(const std::string& name)
{
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of(std::string("/\0", 2)) == std::string::npos;
}

namespace
{

/// StringChecker that also requires IsPlainFileName.
class FileNameChecker : public StringChecker
{
  public:
    bool Check(const AttributeValue& value) const override
    {
        const auto* v = dynamic_cast<const StringValue*>(&value);
        return v != nullptr && IsPlainFileName(v->Get());
    }

    std::string GetValueTypeName() const override
    {
        return "ns3::StringValue";
    }

    bool HasUnderlyingTypeInformation() const override
    {
        return true;
    }

    std::string GetUnderlyingTypeInformation() const override
    {
        return "a file name without '/' (not '.' or '..')";
    }

    Ptr<AttributeValue> Create() const override
    {
        return ns3::Create<StringValue>();
    }

    bool Copy(const AttributeValue& source, AttributeValue& destination) const override
    {
        const auto* src = dynamic_cast<const StringValue*>(&source);
        auto* dst = dynamic_cast<StringValue*>(&destination);
        if (src == nullptr || dst == nullptr)
        {
            return false;
        }
        *dst = *src;
        return true;
    }
};

} // namespace

Ptr<const AttributeChecker>
MakeFileNameChecker()
{
    return ns3::Create<FileNameChecker>();
}

} // namespace ns3
