/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target ai-fabric-fuzz-json-config: the input is a --config file
// (ScenarioConfig::LoadJsonFile: nlohmann's parser with the duplicate-key check, then
// every key through its knob's parser), then ScenarioConfig::Validate. Documented
// errors are ConfigError. A file that loads must round-trip through the config echo:
// LoadJson(ToJson()) gives an equal config. The input is written to one file in a
// per-process temporary folder because LoadJsonFile takes a path, as --config does.

#include "ns3/config-error.h"
#include "ns3/scenario-config.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace
{

/// \return the path of this process's input file (created once, removed at exit)
const std::string&
InputPath()
{
    static const std::string path = [] {
        const char* tmp = std::getenv("TMPDIR");
        std::string p = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                        "/ai-fabric-fuzz-json-config-" + std::to_string(getpid()) + ".json";
        std::atexit([] { std::remove(InputPath().c_str()); });
        return p;
    }();
    return path;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    {
        std::ofstream out(InputPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        if (!out)
        {
            std::abort(); // the harness, not the reader: no space in TMPDIR
        }
    }
    ns3::ScenarioConfig cfg;
    try
    {
        cfg.LoadJsonFile(InputPath());
    }
    catch (const ns3::ConfigError&)
    {
        return 0;
    }
    ns3::ScenarioConfig echoed;
    try
    {
        echoed.LoadJson(cfg.ToJson(), "echo");
    }
    catch (const ns3::ConfigError& e)
    {
        std::fprintf(stderr, "the config echo does not load: %s\n", e.what());
        std::abort();
    }
    if (echoed != cfg)
    {
        std::fprintf(stderr,
                     "the config echo loads to a different config\n%s\n%s\n",
                     cfg.ToJson().dump().c_str(),
                     echoed.ToJson().dump().c_str());
        std::abort();
    }
    try
    {
        cfg.Validate();
    }
    catch (const ns3::ConfigError&)
    {
    }
    return 0;
}
