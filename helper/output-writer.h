/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OUTPUT_WRITER_H
#define OUTPUT_WRITER_H

#include "ns3/fct-sample.h"
#include "ns3/output-collective-row.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{

/// One finished flow or message: a row of fct.csv.
struct FctRecord
{
    uint64_t flowId{0};       ///< flow or message id
    uint32_t src{0};          ///< source host index
    uint32_t dst{0};          ///< destination host index
    uint64_t sizeBytes{0};    ///< payload bytes
    int64_t startNs{0};       ///< start time, ns
    int64_t fctNs{0};         ///< completion time (finish - start), ns
    int64_t idealFctNs{0};    ///< unloaded completion time on its path, ns (> 0)
    std::string kind{"flow"}; ///< e.g. "incast", "background", "collective" (no commas)
};

/**
 * \brief Writes a run's output directory: the CSVs of the output contract (doc/scenario-runner.md,
 * Outputs) and, last, summary.json.
 *
 * The constructor creates the directory, removes the files of its own names a
 * previous run left there (summary.json, summary.json.tmp, the five contract CSVs:
 * the files it writes itself, so a stale summary.json never passes for this run's)
 * and opens every CSV with its header, so an empty CSV means "no such events",
 * never "not written". It deletes no other file: not pcaps (whoever enables pcap
 * tracing removes its own stale files; the writer may be made before or after), not
 * a user's files. Files others made for this run (pcaps) can be registered with
 * AddRunFile, so that Abandon removes them with the CSVs. Rows are buffered in memory and written
 * in large blocks. Numbers are formatted deterministically: integers exactly, reals with 6
 * significant digits (like printf's %.6g). summary.json is written last and atomically
 * (summary.json.tmp, then rename): if it exists, the run finished.
 *
 * FCT percentiles in summary.json use linear interpolation between closest ranks,
 * numpy's default: position q (n - 1) in the sorted sample.
 */
class OutputWriter
{
  public:
    static constexpr const char* FCT_HEADER =
        "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown,kind"; ///< fct.csv
    static constexpr const char* COLLECTIVE_HEADER =
        "op_id,algorithm,ranks,bytes,start_ns,end_ns,duration_ns,algbw_gbps,"
        "busbw_gbps,protocol"; ///< collective.csv
    static constexpr const char* PFC_HEADER = "time_ns,node,port,priority,event"; ///< pfc.csv
    static constexpr const char* QLEN_HEADER = "time_ns,node,port,queue,bytes";   ///< qlen.csv
    static constexpr const char* DROPS_HEADER = "time_ns,node,port,reason";       ///< drops.csv
    static constexpr const char* TOPOLOGY_HEADER =
        "node,port,name,peer,peer_port,peer_name,link"; ///< topology.csv

    /**
     * \param dir the output directory (created with its parents)
     * \throws ConfigError naming the directory if it cannot be created or written
     */
    explicit OutputWriter(const std::string& dir);
    /**
     * A writer that touches nothing on disk until Open(): a caller that may still
     * refuse its configuration (the scenario runner) leaves the directory as it was.
     * \param dir the output directory
     * \param open Open() now (true, as the one-argument constructor) or later (false)
     */
    OutputWriter(const std::string& dir, bool open);

    /**
     * Creates the directory (with its parents), removes this writer's files of an
     * earlier run and opens the CSVs with their headers. Once; before any Append.
     * \throws ConfigError naming the directory if it cannot be created or written
     */
    void Open();
    /// \return whether Open() ran
    bool IsOpen() const;
    /// Flushes and closes the CSVs (no summary.json: only WriteSummary writes it).
    ~OutputWriter();

    OutputWriter(const OutputWriter&) = delete;
    OutputWriter& operator=(const OutputWriter&) = delete;

    /// \param r a finished flow; slowdown = fct / ideal fct is computed here
    void AppendFct(const FctRecord& r);
    /// \param r a finished collective; duration_ns = end - start is computed here
    void AppendCollective(const OutputCollectiveRow& r);
    /**
     * \param timeNs event time, ns
     * \param node node id
     * \param port port (device) index
     * \param priority priority class
     * \param pause true for pause (XOFF), false for resume (XON)
     */
    void AppendPfc(int64_t timeNs, uint32_t node, uint32_t port, uint32_t priority, bool pause);
    /**
     * \param timeNs sample time, ns
     * \param node node id
     * \param port port index
     * \param queue queue (priority) index
     * \param bytes queued bytes
     */
    void AppendQlen(int64_t timeNs, uint32_t node, uint32_t port, uint32_t queue, uint64_t bytes);
    /**
     * \param timeNs drop time, ns
     * \param node node id
     * \param port port index
     * \param reason short reason without commas ("buffer-full", "lossless-overflow")
     */
    void AppendDrop(int64_t timeNs, uint32_t node, uint32_t port, std::string_view reason);

    /**
     * \brief One port of the topology, for topology.csv: what the node ids and ports of
     * the other files are (names by TopologyGraph::GetNodeName).
     * \param node node id
     * \param port port index
     * \param name the node's name ("pod0-edge1")
     * \param peer node id at the far end of the cable
     * \param peerPort port there
     * \param peerName that node's name
     * \param link the cable's id (as --link-failure numbers it)
     */
    void AppendPort(uint32_t node,
                    uint32_t port,
                    std::string_view name,
                    uint32_t peer,
                    uint32_t peerPort,
                    std::string_view peerName,
                    uint32_t link);

    /**
     * \brief FCT statistics of the rows appended so far.
     * \return {"count": n, "slowdown": {"p50","p90","p99","p999","max","mean"},
     *          "fct_ns": {same keys}}; the statistics are null when n == 0
     */
    nlohmann::json FctStats() const;

    /**
     * \brief FctStats() per traffic class: fct.csv's "kind" column.
     * \return {kind: {"count", "slowdown", "fct_ns"}} for every kind appended so far
     *         (keys sorted), so background flows' tails are not read off a mix with
     *         a collective's chunk messages
     */
    nlohmann::json FctStatsByKind() const;

    /**
     * \brief Percentile with linear interpolation (numpy's default).
     * \param sorted ascending sample, non-empty
     * \param q quantile in [0, 1]
     * \return the interpolated value at position q (n - 1)
     */
    static double Percentile(const std::vector<double>& sorted, double q);

    /// Flush and close every CSV (idempotent; appending afterwards is an error).
    void Close();

    /**
     * Called once, at the first write that fails (a full disk, a file size limit):
     * the runner stops the simulation there. Rows appended afterwards are dropped,
     * and WriteSummary throws OutputError.
     */
    void SetWriteErrorCallback(std::function<void()> cb);
    /// \return the first write error ("cannot write DIR/FILE: reason"), empty if none
    const std::string& GetWriteError() const;

    /**
     * Register a file this run made in the directory besides the writer's own (a
     * pcap RoceFabric::EnablePcap opened): Abandon removes it too.
     * \param path the file's path
     */
    void AddRunFile(const std::string& path);

    /**
     * Close and delete this run's files: the writer's own (CSVs, summary.json and
     * its .tmp) and those registered with AddRunFile (pcaps); for a run that failed
     * before it started, whose header-only CSVs would look like the output of a run
     * without traffic. Appending afterwards is an error.
     */
    void Abandon();

    /**
     * Abandon the run's output after a failed write and report it.
     * \param what the failure, naming the file ("cannot write DIR/FILE: reason")
     * \throws OutputError always: \p what, saying the files were removed
     */
    [[noreturn]] void AbandonAfterWriteError(const std::string& what);

    /**
     * \brief Close the CSVs, then write summary.json atomically.
     *
     * Adds "fct" (FctStats(), unless the caller set it), "fct_by_kind"
     * (FctStatsByKind(), likewise) and "output" (directory and
     * row counts per file).
     * \param summary the run summary; must contain the boolean "complete"
     * \return the document as written (the summary plus "fct" and "output")
     * \throws OutputError naming the file when a CSV or summary.json could not be
     *         written; every contract file is removed first (Abandon)
     */
    nlohmann::json WriteSummary(const nlohmann::json& summary);

    /// \return the output directory
    const std::string& GetDirectory() const;

  private:
    /// One CSV file with its write buffer.
    struct Csv
    {
        std::string name;   ///< file name within the directory
        std::ofstream file; ///< the open file
        std::string buffer; ///< rows not yet written
        uint64_t rows{0};   ///< data rows appended
    };

    /// Record the first failed write (of \p name in m_dir, errno's reason) and call
    /// the write-error callback.
    void FailWrite(const std::string& name);
    /// Delete the files of the writer's own names in m_dir, and the files registered
    /// with AddRunFile (ConfigError naming one that stays).
    void RemoveContractFiles() const;
    void OpenCsv(Csv& csv, const char* name, const char* header);
    void EndRow(Csv& csv);
    void Flush(Csv& csv);

    std::string m_dir;                    ///< output directory
    bool m_open{false};                   ///< Open() ran
    bool m_closed{false};                 ///< Close() was called
    std::string m_writeError;             ///< the first failed write, empty if none
    std::function<void()> m_onWriteError; ///< SetWriteErrorCallback
    std::vector<std::string> m_runFiles;  ///< AddRunFile: others' files of this run
    Csv m_fct;                            ///< fct.csv
    Csv m_collective;                     ///< collective.csv
    Csv m_pfc;                            ///< pfc.csv
    Csv m_qlen;                           ///< qlen.csv
    Csv m_drops;                          ///< drops.csv
    Csv m_topology;                       ///< topology.csv

    /// per kind, first seen first: its rows' FCTs for percentiles (the whole run's are
    /// theirs together; mutable: the statistics sort the rows)
    mutable std::vector<std::pair<std::string, FctSample>> m_byKind;
};

} // namespace ns3

#endif // OUTPUT_WRITER_H
