/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FILE_NAME_CHECKER_H
#define FILE_NAME_CHECKER_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \return true if \p name names a file directly inside a directory: not empty, not
 *         "." or "..", and without '/' or NUL, so an output file cannot escape it.
 */
bool IsPlainFileName(const std::string& name);

/**
 * \ingroup ai-fabric
 * \brief The checker of a StringValue Attribute that holds an output file's name inside
 * the output directory: Config::SetDefaultFailSafe and SetAttributeFailSafe refuse
 * any value IsPlainFileName refuses (e.g. "../x").
 */
Ptr<const AttributeChecker> MakeFileNameChecker();

} // namespace ns3

#endif // FILE_NAME_CHECKER_H
