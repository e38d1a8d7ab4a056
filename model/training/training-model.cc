/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

std::string
TrainingParallelismName(TrainingParallelism p)
{
    switch (p)
    {
    case TrainingParallelism::TP:
        return "tp";
    case TrainingParallelism::DP:
        return "dp";
    case TrainingParallelism::PP:
        return "pp";
    case TrainingParallelism::EP:
        return "ep";
    }
    return "?";
}

namespace
{

/// The 1-based line of byte offset pos in text.
uint64_t
LineOf(const std::string& text, std::size_t pos)
{
    pos = std::min(pos, text.size());
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
}

std::vector<std::string>
Tokens(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    std::string t;
    while (in >> t)
    {
        out.push_back(t);
    }
    return out;
}

/// A non-negative decimal integer (no sign, no fraction), or false.
bool
ParseCount(const std::string& s, uint64_t& out)
{
    if (s.empty() || s.size() > 19)
    {
        return false;
    }
    uint64_t v = 0;
    for (char ch : s)
    {
        if (!std::isdigit(static_cast<unsigned char>(ch)))
        {
            return false;
        }
        v = v * 10 + static_cast<uint64_t>(ch - '0');
    }
    out = v;
    return true;
}

// ---- JSON ----------------------------------------------------------------

class JsonReader
{
  public:
    explicit JsonReader(std::string source)
        : m_source(std::move(source))
    {
    }

    [[noreturn]] void Fail(const std::string& key, const std::string& what) const
    {
        throw std::invalid_argument(m_source + ": " + key + ": " + what);
    }

    void CheckKeys(const nlohmann::json& obj,
                   const std::string& where,
                   const std::vector<std::string>& allowed) const
    {
        if (!obj.is_object())
        {
            Fail(where, "is " + std::string(obj.type_name()) + "; allowed an object");
        }
        for (auto it = obj.begin(); it != obj.end(); ++it)
        {
            if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            {
                std::string names;
                for (const auto& a : allowed)
                {
                    names += (names.empty() ? "" : ", ") + a;
                }
                Fail(where + (where.empty() ? "" : ".") + it.key(),
                     "unknown key; allowed keys are " + names);
            }
        }
    }

    uint64_t Unsigned(const nlohmann::json& obj,
                      const std::string& where,
                      const std::string& key,
                      uint64_t def,
                      uint64_t min,
                      uint64_t max) const
    {
        if (!obj.contains(key))
        {
            return def;
        }
        const nlohmann::json& v = obj[key];
        const std::string name = where + (where.empty() ? "" : ".") + key;
        double d = 0;
        if (v.is_number_unsigned())
        {
            d = static_cast<double>(v.get<uint64_t>());
            uint64_t u = v.get<uint64_t>();
            if (u < min || u > max)
            {
                Fail(name,
                     std::to_string(u) + " is out of range; allowed " + std::to_string(min) + ".." +
                         std::to_string(max));
            }
            return u;
        }
        if (v.is_number_float())
        {
            d = v.get<double>();
            if (d == std::floor(d) && d >= static_cast<double>(min) &&
                d <= static_cast<double>(std::min<uint64_t>(max, 1ULL << 53)))
            {
                return static_cast<uint64_t>(d);
            }
        }
        Fail(name,
             v.dump() + " is not allowed; allowed an integer " + std::to_string(min) + ".." +
                 std::to_string(max));
    }

    double Positive(const nlohmann::json& obj,
                    const std::string& where,
                    const std::string& key) const
    {
        const nlohmann::json& v = obj[key];
        if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        {
            Fail(where + "." + key, v.dump() + " is not allowed; allowed a number > 0");
        }
        return v.get<double>();
    }

  private:
    std::string m_source;
};

} // namespace

TrainingModel
TrainingModel::ParseJson(const std::string& text, const std::string& source)
{
    nlohmann::json j;
    try
    {
        j = nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        throw std::invalid_argument(source + ": line " + std::to_string(LineOf(text, e.byte)) +
                                    ": not valid JSON: " + e.what());
    }
    JsonReader r(source);
    r.CheckKeys(j,
                "",
                {"name",
                 "format",
                 "parallelism",
                 "microbatches",
                 "iterations",
                 "gpu_flops",
                 "gradient_bucket_bytes",
                 "overlap",
                 "pp_bytes",
                 "layers"});
    TrainingModel m;
    m.format = JSON;
    if (j.contains("format") && j["format"] != "ai-fabric-training")
    {
        r.Fail("format", j["format"].dump() + " is not allowed; allowed \"ai-fabric-training\"");
    }
    if (j.contains("name"))
    {
        if (!j["name"].is_string())
        {
            r.Fail("name", "is not a string");
        }
        m.name = j["name"].get<std::string>();
    }
    const uint64_t kMax = std::numeric_limits<uint32_t>::max();
    if (j.contains("parallelism"))
    {
        const nlohmann::json& p = j["parallelism"];
        r.CheckKeys(p, "parallelism", {"tp", "pp", "dp", "ep"});
        m.tp = static_cast<uint32_t>(r.Unsigned(p, "parallelism", "tp", 1, 1, 65536));
        m.pp = static_cast<uint32_t>(r.Unsigned(p, "parallelism", "pp", 1, 1, 65536));
        m.dp = static_cast<uint32_t>(r.Unsigned(p, "parallelism", "dp", 1, 1, 1 << 20));
        m.ep = static_cast<uint32_t>(r.Unsigned(p, "parallelism", "ep", 1, 1, 65536));
    }
    m.microbatches = static_cast<uint32_t>(r.Unsigned(j, "", "microbatches", 1, 1, 1000000));
    m.iterations = static_cast<uint32_t>(r.Unsigned(j, "", "iterations", 0, 1, 1000000));
    m.bucketBytes = r.Unsigned(j, "", "gradient_bucket_bytes", 25000000, 0, 1ULL << 50);
    if (j.contains("pp_bytes"))
    {
        m.ppBytes = r.Unsigned(j, "", "pp_bytes", 0, 0, 1ULL << 50);
        m.ppBytesSet = true;
    }
    if (j.contains("overlap"))
    {
        if (!j["overlap"].is_boolean())
        {
            r.Fail("overlap", j["overlap"].dump() + " is not allowed; allowed true or false");
        }
        m.overlap = j["overlap"].get<bool>();
    }
    double flops = 0;
    if (j.contains("gpu_flops"))
    {
        flops = r.Positive(j, "", "gpu_flops");
    }
    if (!j.contains("layers") || !j["layers"].is_array() || j["layers"].empty())
    {
        r.Fail("layers", "missing or empty; allowed a non-empty array of layer objects");
    }
    const nlohmann::json& layers = j["layers"];
    for (std::size_t i = 0; i < layers.size(); ++i)
    {
        const std::string where = "layers[" + std::to_string(i) + "]";
        const nlohmann::json& l = layers[i];
        r.CheckKeys(l,
                    where,
                    {"name",
                     "repeat",
                     "forward_ns",
                     "forward_flops",
                     "input_grad_ns",
                     "input_grad_flops",
                     "weight_grad_ns",
                     "weight_grad_flops",
                     "update_ns",
                     "activation_bytes",
                     "parameter_bytes",
                     "expert_alltoall_bytes"});
        TrainingLayer layer;
        layer.name = "layer" + std::to_string(i);
        if (l.contains("name"))
        {
            if (!l["name"].is_string())
            {
                r.Fail(where + ".name", "is not a string");
            }
            layer.name = l["name"].get<std::string>();
        }
        auto time = [&](const std::string& base) -> int64_t {
            const bool ns = l.contains(base + "_ns");
            const bool fl = l.contains(base + "_flops");
            if (ns && fl)
            {
                r.Fail(where, base + "_ns and " + base + "_flops both given; allowed one");
            }
            if (fl)
            {
                if (flops <= 0)
                {
                    r.Fail(where + "." + base + "_flops", "needs gpu_flops (FLOP/s) at the top");
                }
                const double f = r.Positive(l, where, base + "_flops");
                return static_cast<int64_t>(std::llround(f / flops * 1e9));
            }
            return static_cast<int64_t>(r.Unsigned(l, where, base + "_ns", 0, 0, 1ULL << 50));
        };
        if (!l.contains("forward_ns") && !l.contains("forward_flops"))
        {
            r.Fail(where, "needs forward_ns or forward_flops");
        }
        layer.forwardNs = time("forward");
        layer.inputGradNs = time("input_grad");
        layer.weightGradNs = time("weight_grad");
        layer.updateNs = static_cast<int64_t>(r.Unsigned(l, where, "update_ns", 0, 0, 1ULL << 50));
        layer.activationBytes = r.Unsigned(l, where, "activation_bytes", 0, 0, 1ULL << 50);
        const uint64_t params = r.Unsigned(l, where, "parameter_bytes", 0, 0, 1ULL << 50);
        const uint64_t a2a = r.Unsigned(l, where, "expert_alltoall_bytes", 0, 0, 1ULL << 50);
        // MoE (expert parallel): dispatch and combine all-to-alls in each pass.
        if (a2a > 0 && m.ep > 1)
        {
            for (auto* comms : {&layer.forwardComms, &layer.inputGradComms})
            {
                comms->push_back({CollectiveOp::ALL_TO_ALL, TrainingParallelism::EP, a2a});
                comms->push_back({CollectiveOp::ALL_TO_ALL, TrainingParallelism::EP, a2a});
            }
        }
        // Megatron-style tensor parallelism: one allreduce of the activation per pass.
        if (layer.activationBytes > 0 && m.tp > 1)
        {
            layer.forwardComms.push_back(
                {CollectiveOp::ALLREDUCE, TrainingParallelism::TP, layer.activationBytes});
            layer.inputGradComms.push_back(
                {CollectiveOp::ALLREDUCE, TrainingParallelism::TP, layer.activationBytes});
        }
        if (params > 0)
        {
            layer.hasWeightGradComm = true;
            layer.weightGradComm = {CollectiveOp::ALLREDUCE, TrainingParallelism::DP, params};
        }
        const uint64_t repeat = r.Unsigned(l, where, "repeat", 1, 1, 100000);
        for (uint64_t k = 0; k < repeat; ++k)
        {
            m.layers.push_back(layer);
            if (repeat > 1)
            {
                m.layers.back().name += "." + std::to_string(k);
            }
        }
    }
    (void)kMax;
    return m;
}

// ---- ASTRA-sim 1.0 / SimAI text --------------------------------------------

TrainingModel
TrainingModel::ParseAstra(const std::string& text, const std::string& source, int64_t cycleNs)
{
    std::vector<std::string> lines;
    {
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line))
        {
            if (!line.empty() && line.back() == '\r')
            {
                line.pop_back();
            }
            lines.push_back(line);
        }
    }
    auto fail = [&source](std::size_t lineNo, const std::string& what) {
        throw std::invalid_argument(source + ": line " + std::to_string(lineNo) + ": " + what);
    };
    TrainingModel m;
    m.format = ASTRA;
    m.bucketBytes = 0; // ASTRA-sim issues each layer's weight-gradient collective alone
    m.overlap = true;
    std::size_t i = 0;
    while (i < lines.size() && Tokens(lines[i]).empty())
    {
        ++i;
    }
    if (i == lines.size())
    {
        fail(1, "empty file; expected the parallelism line (DATA, MODEL, HYBRID_TRANSFORMER, ...)");
    }
    // Line 1: parallelism and SimAI's "key: value" pairs.
    const std::vector<std::string> head = Tokens(lines[i]);
    const std::size_t headLine = i + 1;

    // ASTRA-sim's parallelism policies: DATA and MODEL are pure, the others hybrid
    enum Policy
    {
        DATA,
        MODEL,
        HYBRID
    };

    static const std::map<std::string, Policy> policies = {
        {"DATA", DATA},
        {"MODEL", MODEL},
        {"HYBRID_TRANSFORMER", HYBRID},
        {"HYBRID_TRANSFORMER_FWD_IN_BCKWD", HYBRID}};
    const auto policy = policies.find(head[0]);
    if (policy == policies.end())
    {
        fail(headLine,
             "parallelism '" + head[0] +
                 "' is not supported; allowed DATA, MODEL, HYBRID_TRANSFORMER, "
                 "HYBRID_TRANSFORMER_FWD_IN_BCKWD");
    }
    m.parallelism = head[0];
    std::map<std::string, uint64_t> kv;
    const std::vector<std::string> keys = {"model_parallel_NPU_group:",
                                           "ep:",
                                           "pp:",
                                           "vpp:",
                                           "ga:",
                                           "all_gpus:",
                                           "checkpoints:",
                                           "checkpoint_initiates:",
                                           "pp_comm:"};
    for (std::size_t t = 1; t < head.size(); t += 2)
    {
        if (std::find(keys.begin(), keys.end(), head[t]) == keys.end())
        {
            std::string names;
            for (const auto& k : keys)
            {
                names += (names.empty() ? "" : " ") + k;
            }
            fail(headLine, "unknown key '" + head[t] + "'; allowed " + names);
        }
        uint64_t v = 0;
        if (t + 1 >= head.size() || !ParseCount(head[t + 1], v))
        {
            fail(headLine,
                 head[t] + " needs a non-negative integer, got '" +
                     (t + 1 < head.size() ? head[t + 1] : std::string("nothing")) + "'");
        }
        kv[head[t].substr(0, head[t].size() - 1)] = v;
    }
    auto get = [&kv](const std::string& k, uint64_t def) {
        auto it = kv.find(k);
        return it == kv.end() ? def : it->second;
    };
    for (const char* k : {"checkpoints", "checkpoint_initiates"})
    {
        if (get(k, 0) != 0)
        {
            fail(headLine,
                 std::string(k) + ": " + std::to_string(get(k, 0)) +
                     " (activation recomputation) is not modelled; allowed 0");
        }
    }
    const uint64_t mp = get("model_parallel_NPU_group", 1);
    const uint64_t all = get("all_gpus", 0);
    m.pp = static_cast<uint32_t>(get("pp", 1));
    m.ep = static_cast<uint32_t>(get("ep", 1));
    m.microbatches = static_cast<uint32_t>(get("ga", 1));
    if (m.pp == 0 || m.ep == 0 || m.microbatches == 0 || mp == 0)
    {
        fail(headLine, "model_parallel_NPU_group, pp, ep and ga must be >= 1");
    }
    if (kv.count("pp_comm"))
    {
        m.ppBytes = get("pp_comm", 0);
        m.ppBytesSet = true;
    }
    m.layersPerStage = m.pp > 1;
    TrainingParallelism fwdGroup = TrainingParallelism::TP;
    TrainingParallelism wgGroup = TrainingParallelism::DP;
    if (policy->second == DATA)
    {
        if (kv.count("model_parallel_NPU_group") && mp != 1)
        {
            fail(headLine,
                 "DATA with model_parallel_NPU_group: " + std::to_string(mp) +
                     "; allowed 1 (use HYBRID_TRANSFORMER)");
        }
        m.tp = 1;
        fwdGroup = TrainingParallelism::DP;
    }
    else if (policy->second == MODEL)
    {
        m.tp = static_cast<uint32_t>(all ? all / m.pp : 0); // 0: all GPUs, resolved later
        m.dp = 1;
        wgGroup = TrainingParallelism::TP;
    }
    else
    {
        m.tp = static_cast<uint32_t>(mp);
    }
    if (policy->second != MODEL)
    {
        const uint64_t shard = static_cast<uint64_t>(m.tp) * m.pp;
        if (all == 0)
        {
            m.dp = 0; // fill the fabric
        }
        else if (all % shard != 0)
        {
            fail(headLine,
                 "all_gpus: " + std::to_string(all) +
                     " is not a multiple of "
                     "model_parallel_NPU_group x pp = " +
                     std::to_string(shard));
        }
        else
        {
            m.dp = static_cast<uint32_t>(all / shard);
        }
    }
    // Line 2: the layer count.
    ++i;
    while (i < lines.size() && Tokens(lines[i]).empty())
    {
        ++i;
    }
    uint64_t count = 0;
    if (i == lines.size())
    {
        fail(lines.size() + 1, "missing the layer count");
    }
    {
        const auto t = Tokens(lines[i]);
        if (t.size() != 1 || !ParseCount(t[0], count) || count == 0 || count > 1000000)
        {
            fail(i + 1, "'" + lines[i] + "' is not a layer count; allowed one integer 1..1000000");
        }
    }
    ++i;
    auto comm = [&](std::size_t lineNo,
                    const std::string& type,
                    const std::string& size,
                    TrainingParallelism defGroup,
                    bool& present,
                    TrainingComm& out) {
        uint64_t bytes = 0;
        if (!ParseCount(size, bytes))
        {
            fail(lineNo, "communication size '" + size + "' is not a non-negative integer");
        }
        std::string base = type;
        TrainingParallelism group = defGroup;
        if (base.size() > 3 && base.compare(base.size() - 3, 3, "_EP") == 0 &&
            base.find("_DP_EP") == std::string::npos)
        {
            base = base.substr(0, base.size() - 3);
            group = TrainingParallelism::EP;
        }
        // (NONE: a pass without communication)
        static const std::map<std::string, std::optional<CollectiveOp>> ops = {
            {"ALLREDUCE", CollectiveOp::ALLREDUCE},
            {"ALLGATHER", CollectiveOp::ALL_GATHER},
            {"REDUCESCATTER", CollectiveOp::REDUCE_SCATTER},
            {"ALLTOALL", CollectiveOp::ALL_TO_ALL},
            {"NONE", std::nullopt}};
        present = false;
        auto it = ops.find(base);
        if (it == ops.end())
        {
            fail(lineNo,
                 "communication type '" + type +
                     "' is not supported; allowed ALLREDUCE, ALLGATHER, REDUCESCATTER, "
                     "ALLTOALL (each optionally with _EP), NONE");
        }
        if (!it->second || bytes == 0)
        {
            return;
        }
        present = true;
        out = {*it->second, group, bytes};
    };
    auto cycles = [&](std::size_t lineNo, const std::string& s, const char* what) -> int64_t {
        uint64_t v = 0;
        if (!ParseCount(s, v) || v > (1ULL << 50))
        {
            fail(lineNo, std::string(what) + " '" + s + "' is not a non-negative integer (cycles)");
        }
        return static_cast<int64_t>(v) * cycleNs;
    };
    for (uint64_t k = 0; k < count; ++k, ++i)
    {
        if (i >= lines.size())
        {
            fail(lines.size() + 1,
                 "missing layer " + std::to_string(k + 1) + " of " + std::to_string(count) +
                     " (line 2 gave the count)");
        }
        const std::size_t lineNo = i + 1;
        const auto t = Tokens(lines[i]);
        if (t.size() != 12)
        {
            fail(lineNo,
                 "a layer needs 12 fields (name, reserved, forward compute, type, size, "
                 "input-gradient compute, type, size, weight-gradient compute, type, size, "
                 "update time); found " +
                     std::to_string(t.size()));
        }
        TrainingLayer layer;
        layer.name = t[0];
        layer.forwardNs = cycles(lineNo, t[2], "forward compute time");
        layer.inputGradNs = cycles(lineNo, t[5], "input-gradient compute time");
        layer.weightGradNs = cycles(lineNo, t[8], "weight-gradient compute time");
        layer.updateNs = cycles(lineNo, t[11], "update time");
        bool present = false;
        TrainingComm c;
        comm(lineNo, t[3], t[4], fwdGroup, present, c);
        if (present)
        {
            layer.forwardComms.push_back(c);
            layer.activationBytes = c.bytes;
        }
        comm(lineNo, t[6], t[7], fwdGroup, present, c);
        if (present)
        {
            layer.inputGradComms.push_back(c);
        }
        comm(lineNo, t[9], t[10], wgGroup, present, c);
        if (present)
        {
            layer.hasWeightGradComm = true;
            layer.weightGradComm = c;
        }
        m.layers.push_back(layer);
    }
    for (; i < lines.size(); ++i)
    {
        if (!Tokens(lines[i]).empty())
        {
            fail(i + 1, "more layers than the " + std::to_string(count) + " line 2 announced");
        }
    }
    return m;
}

TrainingModel
TrainingModel::Parse(const std::string& text, const std::string& source, int64_t cycleNs)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
    {
        return ParseJson(text, source);
    }
    return ParseAstra(text, source, cycleNs);
}

TrainingModel
TrainingModel::Load(const std::string& path, int64_t cycleNs)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::invalid_argument(path + ": cannot be read");
    }
    std::ostringstream s;
    s << in.rdbuf();
    TrainingModel m = Parse(s.str(), path, cycleNs);
    if (m.name.empty())
    {
        const std::size_t slash = path.find_last_of('/');
        m.name = slash == std::string::npos ? path : path.substr(slash + 1);
    }
    return m;
}

void
TrainingModel::Resolve(uint32_t nHosts)
{
    if (tp == 0)
    {
        tp = nHosts / pp;
    }
    if (dp == 0)
    {
        const uint64_t shard = static_cast<uint64_t>(tp) * pp;
        dp = static_cast<uint32_t>(nHosts / shard);
    }
    const uint64_t n = static_cast<uint64_t>(tp) * pp * dp;
    const std::string shape = "tp " + std::to_string(tp) + " x pp " + std::to_string(pp) +
                              " x dp " + std::to_string(dp) + " = " + std::to_string(n);
    if (tp == 0 || dp == 0 || n < 2 || n > nHosts)
    {
        throw std::invalid_argument(shape + " GPUs; the fabric has " + std::to_string(nHosts) +
                                    " hosts (allowed 2.." + std::to_string(nHosts) + " GPUs)");
    }
    if (dp % ep != 0)
    {
        throw std::invalid_argument("ep " + std::to_string(ep) + " does not divide dp " +
                                    std::to_string(dp) +
                                    " (expert groups are made of whole "
                                    "data-parallel replicas)");
    }
    if (!layersPerStage && layers.size() < pp)
    {
        throw std::invalid_argument(std::to_string(layers.size()) + " layers for pp " +
                                    std::to_string(pp) +
                                    " stages; allowed at least one layer "
                                    "per stage");
    }
}

uint32_t
TrainingModel::GetNRanks() const
{
    return tp * pp * dp;
}

std::vector<uint32_t>
TrainingModel::GetStageLayers(uint32_t stage) const
{
    std::vector<uint32_t> out;
    const auto n = static_cast<uint32_t>(layers.size());
    if (layersPerStage)
    {
        for (uint32_t l = 0; l < n; ++l)
        {
            out.push_back(l);
        }
        return out;
    }
    const uint64_t begin = static_cast<uint64_t>(stage) * n / pp;
    const uint64_t end = static_cast<uint64_t>(stage + 1) * n / pp;
    for (uint64_t l = begin; l < end; ++l)
    {
        out.push_back(static_cast<uint32_t>(l));
    }
    return out;
}

} // namespace ns3
