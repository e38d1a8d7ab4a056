/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "strict-json.h"

#include "ns3/config-error.h"

#include <set>
#include <vector>

namespace ns3
{

nlohmann::json
ParseStrictJson(std::istream& in, const std::string& name)
{
    std::vector<std::set<std::string>> keys; // per open object, the keys seen so far
    const nlohmann::json::parser_callback_t noDuplicates =
        [&keys,
         &name](int /* depth */, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
            using E = nlohmann::json::parse_event_t;
            if (event == E::object_start)
            {
                keys.emplace_back();
            }
            else if (event == E::object_end && !keys.empty())
            {
                keys.pop_back();
            }
            else if (event == E::key && !keys.empty() &&
                     !keys.back().insert(parsed.get<std::string>()).second)
            {
                throw ConfigError(name + ": the key \"" + parsed.get<std::string>() +
                                  "\" appears twice in one object; allowed: each key once");
            }
            return true;
        };
    try
    {
        return nlohmann::json::parse(in, noDuplicates);
    }
    catch (const nlohmann::json::exception& e)
    {
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep "at line L, column C".
        std::string what = e.what();
        const std::size_t tag = what.find("] ");
        if (tag != std::string::npos)
        {
            what = what.substr(tag + 2);
        }
        throw ConfigError(name + ": malformed JSON: " + what +
                          (e.id == 406 ? " (numbers must fit a double)" : ""));
    }
}

} // namespace ns3
