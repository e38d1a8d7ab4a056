/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-writer.h"

#include "output-error.h"
#include "sample-quantiles.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/config-error.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OutputWriter");

namespace
{

/// Rows are written to the file once this many bytes are buffered.
constexpr std::size_t kFlushThreshold = 1 << 20;

template <typename T>
void
AppendInt(std::string& s, T value)
{
    char buf[24];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
    NS_ASSERT(ec == std::errc());
    s.append(buf, static_cast<std::size_t>(ptr - buf)); // (the range form goes through _M_replace)
}

/// Six significant digits, like "%.6g", independent of the C locale.
void
AppendReal(std::string& s, double value)
{
    char buf[32];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::general, 6);
    NS_ASSERT(ec == std::errc());
    s.append(buf, static_cast<std::size_t>(ptr - buf));
}

void
AppendText(std::string& s, std::string_view text)
{
    NS_ASSERT_MSG(text.find_first_of(",\n\"") == std::string_view::npos,
                  "CSV field '" << text << "' must not contain commas, quotes or newlines");
    s.append(text);
}

} // namespace

OutputWriter::OutputWriter(const std::string& dir)
    : OutputWriter(dir, true)
{
}

OutputWriter::OutputWriter(const std::string& dir, bool open)
    : m_dir(dir)
{
    NS_LOG_FUNCTION(this << dir << open);
    if (open)
    {
        Open();
    }
}

bool
OutputWriter::IsOpen() const
{
    return m_open;
}

void
OutputWriter::Open()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(!m_open, "OutputWriter::Open: already open");
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (ec || !fs::is_directory(m_dir))
    {
        throw ConfigError("--out: cannot create directory '" + m_dir +
                          "': " + (ec ? ec.message() : "a file of that name exists"));
    }
    m_open = true;
    // Nothing of the writer's from a previous run may look current; files of other
    // names (pcaps opened before this writer, a user's notes) are not the writer's.
    RemoveContractFiles();
    OpenCsv(m_fct, "fct.csv", FCT_HEADER);
    OpenCsv(m_collective, "collective.csv", COLLECTIVE_HEADER);
    OpenCsv(m_pfc, "pfc.csv", PFC_HEADER);
    OpenCsv(m_qlen, "qlen.csv", QLEN_HEADER);
    OpenCsv(m_drops, "drops.csv", DROPS_HEADER);
    OpenCsv(m_topology, "topology.csv", TOPOLOGY_HEADER);
}

void
OutputWriter::RemoveContractFiles() const
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<fs::path> paths;
    for (const char* name : {"summary.json",
                             "summary.json.tmp",
                             "fct.csv",
                             "collective.csv",
                             "pfc.csv",
                             "qlen.csv",
                             "drops.csv",
                             "topology.csv",
                             "training.csv",
                             "training-timeline.csv",
                             "chakra.csv"})
    {
        paths.push_back(fs::path(m_dir) / name);
    }
    paths.insert(paths.end(), m_runFiles.begin(), m_runFiles.end());
    for (const fs::path& path : paths)
    {
        if (fs::is_regular_file(path, ec))
        {
            NS_LOG_LOGIC("removing " << path);
            fs::remove(path, ec);
            if (ec)
            {
                throw ConfigError("--out: cannot remove '" + path.string() + "': " + ec.message());
            }
        }
    }
}

OutputWriter::~OutputWriter()
{
    Close();
}

void
OutputWriter::OpenCsv(Csv& csv, const char* name, const char* header)
{
    csv.name = name;
    const std::string path = (std::filesystem::path(m_dir) / name).string();
    csv.file.open(path, std::ios::binary | std::ios::trunc);
    if (!csv.file)
    {
        throw ConfigError("--out: cannot write '" + path + "'");
    }
    csv.buffer.reserve(kFlushThreshold + 4096);
    csv.buffer.append(header);
    csv.buffer.push_back('\n');
}

void
OutputWriter::EndRow(Csv& csv)
{
    csv.buffer.push_back('\n');
    ++csv.rows;
    if (csv.buffer.size() >= kFlushThreshold)
    {
        Flush(csv);
    }
}

void
OutputWriter::Flush(Csv& csv)
{
    if (m_writeError.empty())
    {
        csv.file.write(csv.buffer.data(), static_cast<std::streamsize>(csv.buffer.size()));
        if (!csv.file)
        {
            FailWrite(csv.name);
        }
    }
    csv.buffer.clear();
}

void
OutputWriter::AppendFct(const FctRecord& r)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendFct after Close");
    NS_ABORT_MSG_IF(r.idealFctNs <= 0,
                    "flow " << r.flowId << ": ideal FCT " << r.idealFctNs << " ns must be > 0");
    const double slowdown = static_cast<double>(r.fctNs) / static_cast<double>(r.idealFctNs);
    std::string& s = m_fct.buffer;
    AppendInt(s, r.flowId);
    s.push_back(',');
    AppendInt(s, r.src);
    s.push_back(',');
    AppendInt(s, r.dst);
    s.push_back(',');
    AppendInt(s, r.sizeBytes);
    s.push_back(',');
    AppendInt(s, r.startNs);
    s.push_back(',');
    AppendInt(s, r.fctNs);
    s.push_back(',');
    AppendInt(s, r.idealFctNs);
    s.push_back(',');
    AppendReal(s, slowdown);
    s.push_back(',');
    AppendText(s, r.kind);
    EndRow(m_fct);
    // a handful of kinds per run: a linear search per finished flow
    auto it = std::find_if(m_byKind.begin(), m_byKind.end(), [&r](const auto& k) {
        return k.first == r.kind;
    });
    if (it == m_byKind.end())
    {
        it = m_byKind.emplace(m_byKind.end(), r.kind, FctSample{});
    }
    it->second.Add(r.fctNs, r.idealFctNs);
}

void
OutputWriter::AppendCollective(const OutputCollectiveRow& r)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendCollective after Close");
    std::string& s = m_collective.buffer;
    AppendInt(s, r.opId);
    s.push_back(',');
    AppendText(s, r.algorithm);
    s.push_back(',');
    AppendInt(s, r.ranks);
    s.push_back(',');
    AppendInt(s, r.bytes);
    s.push_back(',');
    AppendInt(s, r.startNs);
    s.push_back(',');
    AppendInt(s, r.endNs);
    s.push_back(',');
    AppendInt(s, r.endNs - r.startNs);
    s.push_back(',');
    AppendReal(s, r.algbwGbps);
    s.push_back(',');
    AppendReal(s, r.busbwGbps);
    s.push_back(',');
    AppendText(s, r.protocol);
    EndRow(m_collective);
}

void
OutputWriter::AppendPfc(int64_t timeNs, uint32_t node, uint32_t port, uint32_t priority, bool pause)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendPfc after Close");
    std::string& s = m_pfc.buffer;
    AppendInt(s, timeNs);
    s.push_back(',');
    AppendInt(s, node);
    s.push_back(',');
    AppendInt(s, port);
    s.push_back(',');
    AppendInt(s, priority);
    s.append(pause ? ",pause" : ",resume");
    EndRow(m_pfc);
}

void
OutputWriter::AppendQlen(int64_t timeNs,
                         uint32_t node,
                         uint32_t port,
                         uint32_t queue,
                         uint64_t bytes)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendQlen after Close");
    std::string& s = m_qlen.buffer;
    AppendInt(s, timeNs);
    s.push_back(',');
    AppendInt(s, node);
    s.push_back(',');
    AppendInt(s, port);
    s.push_back(',');
    AppendInt(s, queue);
    s.push_back(',');
    AppendInt(s, bytes);
    EndRow(m_qlen);
}

void
OutputWriter::AppendDrop(int64_t timeNs, uint32_t node, uint32_t port, std::string_view reason)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendDrop after Close");
    std::string& s = m_drops.buffer;
    AppendInt(s, timeNs);
    s.push_back(',');
    AppendInt(s, node);
    s.push_back(',');
    AppendInt(s, port);
    s.push_back(',');
    AppendText(s, reason);
    EndRow(m_drops);
}

double
OutputWriter::Percentile(const std::vector<double>& sorted, double q)
{
    NS_ABORT_MSG_IF(sorted.empty(), "Percentile of an empty sample");
    NS_ABORT_MSG_IF(!(q >= 0 && q <= 1), "quantile " << q << " is not in [0, 1]");
    return InterpolatedQuantile(
        sorted.size(),
        [&sorted](std::size_t i) { return sorted[i]; },
        q);
}

nlohmann::json
OutputWriter::FctStats() const
{
    if (m_byKind.size() == 1)
    {
        return m_byKind.front().second.Stats(); // every row is of this kind
    }
    FctSample all; // (the statistics do not depend on the rows' order)
    for (const auto& [kind, sample] : m_byKind)
    {
        all.Append(sample);
    }
    return all.Stats();
}

nlohmann::json
OutputWriter::FctStatsByKind() const
{
    nlohmann::json j = nlohmann::json::object();
    for (auto& [kind, sample] : m_byKind)
    {
        j[kind] = sample.Stats();
    }
    return j;
}

void
OutputWriter::FailWrite(const std::string& name)
{
    if (!m_writeError.empty())
    {
        return;
    }
    // errno of the failed write(2) (ENOSPC, EFBIG, EIO): the stream keeps no reason.
    const int err = errno;
    m_writeError = "cannot write " + (std::filesystem::path(m_dir) / name).string() + ": " +
                   (err != 0 ? std::generic_category().message(err) : std::string("I/O error"));
    if (m_onWriteError)
    {
        m_onWriteError();
    }
}

void
OutputWriter::SetWriteErrorCallback(std::function<void()> cb)
{
    m_onWriteError = std::move(cb);
}

const std::string&
OutputWriter::GetWriteError() const
{
    return m_writeError;
}

void
OutputWriter::Close()
{
    if (m_closed || !m_open)
    {
        m_closed = true; // never opened: nothing on disk is this writer's
        return;
    }
    m_closed = true;
    for (Csv* csv : {&m_fct, &m_collective, &m_pfc, &m_qlen, &m_drops, &m_topology})
    {
        Flush(*csv);
        errno = 0;
        csv->file.close(); // writes what the stream still buffers
        if (csv->file.fail())
        {
            FailWrite(csv->name);
        }
    }
}

void
OutputWriter::AddRunFile(const std::string& path)
{
    m_runFiles.push_back(path);
}

void
OutputWriter::AppendPort(uint32_t node,
                         uint32_t port,
                         std::string_view name,
                         uint32_t peer,
                         uint32_t peerPort,
                         std::string_view peerName,
                         uint32_t link)
{
    NS_ABORT_MSG_IF(m_closed, "OutputWriter::AppendPort after Close");
    std::string& s = m_topology.buffer;
    AppendInt(s, node);
    s.push_back(',');
    AppendInt(s, port);
    s.push_back(',');
    AppendText(s, name);
    s.push_back(',');
    AppendInt(s, peer);
    s.push_back(',');
    AppendInt(s, peerPort);
    s.push_back(',');
    AppendText(s, peerName);
    s.push_back(',');
    AppendInt(s, link);
    EndRow(m_topology);
}

void
OutputWriter::Abandon()
{
    NS_LOG_FUNCTION(this);
    m_closed = true;
    if (!m_open)
    {
        return; // nothing written yet: the directory stays as it was
    }
    for (Csv* csv : {&m_fct, &m_collective, &m_pfc, &m_qlen, &m_drops, &m_topology})
    {
        csv->buffer.clear();
        csv->file.close();
    }
    RemoveContractFiles();
}

void
OutputWriter::AbandonAfterWriteError(const std::string& what)
{
    Abandon();
    throw OutputError(what + "; the run's output files were removed");
}

nlohmann::json
OutputWriter::WriteSummary(const nlohmann::json& summary)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!summary.is_object() || !summary.contains("complete") ||
                        !summary["complete"].is_boolean(),
                    "OutputWriter::WriteSummary: the summary needs a boolean \"complete\"");
    Close(); // every CSV is complete before summary.json appears
    if (!m_writeError.empty())
    {
        AbandonAfterWriteError(m_writeError);
    }
    nlohmann::json j = summary;
    if (!j.contains("fct"))
    {
        j["fct"] = FctStats();
    }
    if (!j.contains("fct_by_kind"))
    {
        j["fct_by_kind"] = FctStatsByKind();
    }
    nlohmann::json rows;
    for (const Csv* csv : {&m_fct, &m_collective, &m_pfc, &m_qlen, &m_drops, &m_topology})
    {
        rows[csv->name] = csv->rows;
    }
    j["output"] = {{"dir", m_dir}, {"rows", rows}};

    namespace fs = std::filesystem;
    const fs::path final = fs::path(m_dir) / "summary.json";
    const fs::path tmp = fs::path(m_dir) / "summary.json.tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << j.dump(2) << '\n';
        errno = 0;
        out.close();
        if (out.fail())
        {
            FailWrite("summary.json.tmp");
            AbandonAfterWriteError(m_writeError);
        }
    }
    std::error_code ec;
    fs::rename(tmp, final, ec);
    if (ec)
    {
        AbandonAfterWriteError("cannot rename " + tmp.string() + " to " + final.string() + ": " +
                               ec.message());
    }
    return j;
}

const std::string&
OutputWriter::GetDirectory() const
{
    return m_dir;
}

} // namespace ns3
