/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The native half of the Python package `aifabric` (imported as aifabric._aifabric).
 *
 * Scenario wraps ns3::ScenarioConfig: one Python property per entry of
 * ScenarioConfig::Knobs() (flag name with '-' turned into '_'), so a knob added to
 * the table appears here without touching this file. Values go through the same
 * text parser as the CLI, and ns3::ConfigError becomes aifabric.ConfigError (a
 * ValueError) carrying the CLI's message. run_native() calls ScenarioRunner, the
 * runner ai-fabric-sim calls; the pure-Python layer (aifabric/__init__.py) wraps
 * its output directory in a Result.
 */
#include "ns3/config-error.h"
#include "ns3/config.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>

namespace py = pybind11;
using ns3::ConfigError;
using ns3::ScenarioConfig;

namespace
{

/// "host-rate" -> "host_rate": the Python spelling of a flag.
std::string
PythonName(std::string name)
{
    for (char& c : name)
    {
        if (c == '-')
        {
            c = '_';
        }
    }
    return name;
}

/// nlohmann JSON -> Python object, through the json module (summaries are small).
py::object
JsonToPython(const nlohmann::json& j)
{
    return py::module_::import("json").attr("loads")(j.dump());
}

/**
 * A Python value as the text the CLI would have received. bool -> 0/1 (flags),
 * integral floats of integer knobs (1e6 bytes) -> "1000000", numpy scalars through
 * __index__/__float__, path-like objects through os.fspath.
 */
std::string
ValueText(const ScenarioConfig::KnobInfo& knob, const py::handle& v)
{
    using T = ScenarioConfig::KnobType;
    if (py::isinstance<py::bool_>(v))
    {
        return v.cast<bool>() ? "1" : "0";
    }
    if (py::isinstance<py::str>(v))
    {
        return v.cast<std::string>();
    }
    if (PyIndex_Check(v.ptr()))
    {
        return py::str(py::int_(py::reinterpret_borrow<py::object>(v))).cast<std::string>();
    }
    if (py::isinstance<py::float_>(v) || py::hasattr(v, "__float__"))
    {
        const double x = py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>();
        const bool integral =
            knob.type == T::INTEGER || knob.type == T::SIZE || knob.type == T::FLAG;
        if (integral && std::isfinite(x) && x == std::floor(x) && x >= 0 && x < 1.8e19)
        {
            return std::to_string(static_cast<uint64_t>(x));
        }
        return py::repr(py::float_(x)).cast<std::string>();
    }
    if (py::hasattr(v, "__fspath__"))
    {
        return py::str(v.attr("__fspath__")()).cast<std::string>();
    }
    throw ConfigError("--" + knob.name + ": a value of type " +
                      py::str(v.get_type().attr("__name__")).cast<std::string>() +
                      " is not allowed; give a str, int, float or bool (" + knob.allowed + ")");
}

/// Set one knob from a Python value; errors carry the CLI's "--flag: ..." message.
void
SetKnob(ScenarioConfig& c, const std::string& name, const py::handle& value)
{
    if (name.rfind("ns3::", 0) == 0)
    {
        // an ns-3 attribute default, as --ns3::Class::Attribute=value: its text
        std::string text;
        if (py::isinstance<py::bool_>(value))
        {
            text = value.cast<bool>() ? "true" : "false";
        }
        else if (py::isinstance<py::float_>(value))
        {
            text = py::repr(value).cast<std::string>();
        }
        else
        {
            text = py::str(value).cast<std::string>();
        }
        c.SetAttribute(name, text);
        return;
    }
    const ScenarioConfig::KnobInfo* knob = ScenarioConfig::FindKnob(name);
    if (knob == nullptr)
    {
        // The CLI's "unknown flag" message (with its suggestion), for the CLI spelling.
        std::string flag = name;
        std::replace(flag.begin(), flag.end(), '_', '-');
        c.Set(flag, "");
        throw ConfigError("unknown flag --" + name);
    }
    c.Set(knob->name, ValueText(*knob, value));
}

/// A knob's value as the typed JSON value of the summary.json config echo.
py::object
GetKnob(const ScenarioConfig& c, const std::string& name)
{
    const nlohmann::json j = c.ToJson();
    if (!j.contains(name))
    {
        throw ConfigError("no knob or ns-3 attribute default named '" + name + "' is set");
    }
    return JsonToPython(j.at(name));
}

/// Every knob, with '_' names: the same values as summary.json's "config".
py::dict
ToDict(const ScenarioConfig& c)
{
    py::dict d;
    const nlohmann::json j = c.ToJson();
    for (const auto& knob : ScenarioConfig::Knobs())
    {
        d[py::str(PythonName(knob.name))] = JsonToPython(j.at(knob.name));
    }
    for (const auto& [name, value] : c.attributes)
    {
        d[py::str(name)] = value; // "ns3::Class::Attribute" as given
    }
    return d;
}

void
Update(ScenarioConfig& c, const py::dict& values)
{
    for (const auto& [key, value] : values)
    {
        SetKnob(c, py::str(key).cast<std::string>(), value);
    }
}

/// ns-3's Simulator is process-global: refuse a second run while one is going.
bool g_running = false;

/**
 * Run one scenario with ScenarioRunner, exactly as ai-fabric-sim does.
 * Attribute defaults a previous run in this process set (Config::SetDefault) are
 * reset first, so a run does not depend on what ran before it.
 */
py::object
RunNative(const ScenarioConfig& config)
{
    if (g_running)
    {
        throw std::runtime_error("aifabric: a simulation is already running in this process; "
                                 "ns-3's simulator is process-global (use aifabric.sweep)");
    }
    g_running = true;
    nlohmann::json summary;
    try
    {
        ns3::Config::Reset();
        ns3::ScenarioRunner runner(config);
        summary = runner.Run();
    }
    catch (...)
    {
        // A run that failed part-way leaves events and nodes behind; clear them so
        // the next run starts from an empty simulator.
        ns3::Simulator::Destroy();
        g_running = false;
        throw;
    }
    g_running = false;
    return JsonToPython(summary);
}

} // namespace

PYBIND11_MODULE(_aifabric, m)
{
    m.doc() = "Native part of aifabric: ScenarioConfig and ScenarioRunner of ai-fabric";

    py::register_exception<ConfigError>(m, "ConfigError", PyExc_ValueError);

    py::class_<ScenarioConfig> scenario(m, "Scenario", R"doc(
One ai-fabric scenario: every knob of ai-fabric-sim as an attribute, named as the
CLI flag with '-' turned into '_' (--host-rate -> host_rate). Values are checked as
the CLI checks them; a bad one raises aifabric.ConfigError (a ValueError) with the
CLI's message. Scenario(**knobs) sets knobs; to_dict()/from_dict() round-trip.
)doc");
    scenario.def(py::init([](const py::kwargs& kwargs) {
                     ScenarioConfig c;
                     Update(c, kwargs);
                     return c;
                 }),
                 "Scenario(**knobs): the defaults of ai-fabric-sim, then the given knobs");

    for (const auto& knob : ScenarioConfig::Knobs())
    {
        const std::string name = knob.name;
        const std::string doc = knob.help + " Allowed: " + knob.allowed + ". CLI: --" + name +
                                ", default " +
                                (knob.defaultValue.empty() ? "unset" : knob.defaultValue) + ".";
        scenario.def_property(
            PythonName(name).c_str(),
            [name](const ScenarioConfig& c) { return GetKnob(c, name); },
            [name](ScenarioConfig& c, const py::object& v) { SetKnob(c, name, v); },
            doc.c_str());
    }

    scenario
        .def("to_dict",
             &ToDict,
             "Every knob under its Python name, typed as in summary.json's config echo")
        .def_static(
            "from_dict",
            [](const py::dict& d) {
                ScenarioConfig c;
                Update(c, d);
                return c;
            },
            py::arg("values"),
            "A Scenario from {name: value} (names with '-' or '_'); defaults elsewhere")
        .def(
            "update",
            [](ScenarioConfig& c, const py::object& values, const py::kwargs& kwargs) {
                if (!values.is_none())
                {
                    Update(c, py::dict(values));
                }
                Update(c, kwargs);
            },
            py::arg("values") = py::none(),
            "Set several knobs from a dict and/or keyword arguments")
        .def("get", &ScenarioConfig::Get, py::arg("name"), "A knob's value as CLI text")
        .def("set",
             &ScenarioConfig::Set,
             py::arg("name"),
             py::arg("text"),
             "Set a knob from CLI text (name with '-' or '_')")
        .def("validate",
             &ScenarioConfig::Validate,
             "Cross-knob checks the CLI makes before a run (e.g. kmin <= kmax)")
        .def(
            "to_json",
            [](const ScenarioConfig& c) { return c.ToJson().dump(2); },
            "The config as JSON text that ai-fabric-sim --config=FILE accepts")
        .def(
            "save_json",
            [](const ScenarioConfig& c, const py::object& path) {
                py::object open = py::module_::import("builtins").attr("open");
                py::object f = open(path, "w");
                f.attr("write")(c.ToJson().dump(2) + "\n");
                f.attr("close")();
            },
            py::arg("path"),
            "Write the config as a JSON file for ai-fabric-sim --config=FILE")
        .def_static(
            "load_json",
            [](const py::object& path) {
                ScenarioConfig c;
                c.LoadJsonFile(py::str(py::module_::import("os").attr("fspath")(path)));
                return c;
            },
            py::arg("path"),
            "A Scenario from a --config JSON file (or a summary.json's \"config\")")
        .def("copy", [](const ScenarioConfig& c) { return ScenarioConfig(c); })
        .def("__copy__", [](const ScenarioConfig& c) { return ScenarioConfig(c); })
        .def("__deepcopy__",
             [](const ScenarioConfig& c, const py::object&) { return ScenarioConfig(c); })
        .def(
            "__eq__",
            [](const ScenarioConfig& a, const py::object& b) {
                return py::isinstance<ScenarioConfig>(b) && a == b.cast<const ScenarioConfig&>();
            },
            py::is_operator())
        .def("__repr__",
             [](const ScenarioConfig& c) {
                 // Only the knobs that differ from ai-fabric-sim's defaults.
                 const ScenarioConfig defaults;
                 std::string text = "aifabric.Scenario(";
                 bool first = true;
                 for (const auto& knob : ScenarioConfig::Knobs())
                 {
                     const std::string v = knob.get(c);
                     if (v == knob.get(defaults))
                     {
                         continue;
                     }
                     text += (first ? "" : ", ") + PythonName(knob.name) + "=" +
                             py::repr(GetKnob(c, knob.name)).cast<std::string>();
                     first = false;
                 }
                 if (!c.attributes.empty())
                 {
                     // ns-3 attribute names are no Python identifiers: a ** dict
                     py::dict attrs;
                     for (const auto& [name, value] : c.attributes)
                     {
                         attrs[py::str(name)] = value;
                     }
                     text += std::string(first ? "" : ", ") + "**" +
                             py::repr(attrs).cast<std::string>();
                 }
                 return text + ")";
             })
        .def(py::pickle([](const ScenarioConfig& c) { return ToDict(c); },
                        [](const py::dict& d) {
                            ScenarioConfig c;
                            Update(c, d);
                            return c;
                        }))
        .def_static(
            "knobs",
            []() {
                py::list out;
                for (const auto& knob : ScenarioConfig::Knobs())
                {
                    py::dict d;
                    d["name"] = PythonName(knob.name);
                    d["flag"] = "--" + knob.name;
                    d["help"] = knob.help;
                    d["allowed"] = knob.allowed;
                    d["default"] = knob.defaultValue;
                    d["optional"] = knob.optional;
                    out.append(d);
                }
                return out;
            },
            "Every knob: name, flag, help, allowed values, default (as --help shows them)");

    m.def("run_native",
          &RunNative,
          py::arg("scenario"),
          "Run one scenario with ScenarioRunner (as ai-fabric-sim does); returns the summary "
          "dict. Raises ConfigError (ValueError) with the CLI's message on bad input.");
}
