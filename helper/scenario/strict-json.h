/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef STRICT_JSON_H
#define STRICT_JSON_H

#include <istream>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * Parses \p in as JSON, refusing a key given twice in one object (nlohmann would keep
 * the last value silently): the reader of --config files and of --cluster presets.
 * \param in the text
 * \param name the input's name in messages (a file's path)
 * \return the document
 * \throws ConfigError "<name>: malformed JSON: ..." (nlohmann's message without its
 *         tag, with its line and column) or "<name>: the key "K" appears twice ..."
 */
nlohmann::json ParseStrictJson(std::istream& in, const std::string& name);

} // namespace ns3

#endif // STRICT_JSON_H
