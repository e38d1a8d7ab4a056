/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NCCL_TUNING_MODEL_H
#define NCCL_TUNING_MODEL_H

#include "ns3/collective-metrics.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/// NCCL's algorithms, in the order of its tuning tables (ncclAlgo_t, NCCL 2.30).
enum class NcclAlgorithm
{
    TREE,
    RING,
    COLLNET_DIRECT,
    COLLNET_CHAIN,
    NVLS,
    NVLS_TREE,
    PAT
};

/// NCCL's protocols (ncclProto_t): LL (8-byte lines, 4 bytes of data and a flag),
/// LL128 (128-byte lines, 120 bytes of data) and Simple (whole buffers and fences).
enum class NcclProtocol
{
    LL,
    LL128,
    SIMPLE
};

/// The GPU generations NCCL's constants distinguish (by compute capability).
enum class NcclGpuGeneration
{
    VOLTA,    //!< sm70
    AMPERE,   //!< sm80
    HOPPER,   //!< sm90
    BLACKWELL //!< sm100
};

constexpr uint32_t NCCL_NUM_ALGORITHMS = 7; //!< NcclAlgorithm's values
constexpr uint32_t NCCL_NUM_PROTOCOLS = 3;  //!< NcclProtocol's values

/// "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat".
std::string NcclAlgorithmToString(NcclAlgorithm algorithm);
/// "ll", "ll128", "simple".
std::string NcclProtocolToString(NcclProtocol protocol);
/// "volta", "ampere", "hopper", "blackwell".
std::string NcclGpuGenerationToString(NcclGpuGeneration gpu);
/// Inverse of NcclAlgorithmToString; throws std::invalid_argument naming the allowed values.
NcclAlgorithm NcclAlgorithmFromString(const std::string& name);
/// Inverse of NcclAlgorithmToString; nothing for a name that is no NCCL algorithm (e.g. one
/// of ai-fabric's own schedules, "hd").
std::optional<NcclAlgorithm> FindNcclAlgorithm(const std::string& name);
/// Inverse of NcclProtocolToString; throws std::invalid_argument naming the allowed values.
NcclProtocol NcclProtocolFromString(const std::string& name);

/**
 * \ingroup ai-fabric
 * What NCCL's topology search reports for one algorithm's graph (its ncclTopoGraph):
 * the channels it found and the bandwidth of each, inside a server and between
 * servers, and the kind of path the graph uses.
 */
struct NcclGraphSummary
{
    uint32_t channels{0};      //!< channels the search found (0: no such graph)
    double bwIntraGBps{0};     //!< bandwidth per channel inside a server, GB/s
    double bwInterGBps{0};     //!< bandwidth per channel between servers, GB/s
    double latencyInterUs{0};  //!< extra network latency of the graph, us
    bool intraNvlink{true};    //!< GPUs of a server talk over NVLink (else PCIe)
    bool intraWithinNvb{true}; //!< the intra-server path is at most NVLink via one GPU
    bool interWithinPxb{true}; //!< GPU to NIC through PCIe switches only
    bool interWithinPxn{true}; //!< GPU to NIC at most through a peer GPU (PXN)
    bool sameChannels{false};  //!< every channel the same ring (broadcast/reduce latency)
};

/**
 * \ingroup ai-fabric
 * The communicator and machine facts NCCL's tuner reads (ncclTopoTuneModel).
 */
struct NcclTuningInput
{
    uint32_t ranks{0};                                //!< GPUs in the communicator
    uint32_t nodes{0};                                //!< servers they are on
    NcclGpuGeneration gpu{NcclGpuGeneration::HOPPER}; //!< the GPUs' generation
    bool amdCpu{false};                               //!< AMD hosts (LL bound, net overhead)
    std::array<NcclGraphSummary, NCCL_NUM_ALGORITHMS> graphs; //!< per NcclAlgorithm
    uint32_t commChannels{0};                  //!< the communicator's channels (ring plateau test)
    bool nvswitch{false};                      //!< the servers have NVSwitches (CollNet Direct)
    bool collnet{false};                       //!< in-network reduction (SHARP) is enabled
    bool collnetChain{true};                   //!< the CollNet plugin supports the chain algorithm
    bool collnetAllGatherReduceScatter{false}; //!< it offers allgather/reducescatter
    uint32_t collnetHeads{0};                  //!< CollNet heads per server
    bool treePatternSingleGpu{false}; //!< every NIC served by one GPU (NCCL's TREE pattern)
};

/**
 * \ingroup ai-fabric
 * \brief NCCL's performance model of a collective: per operation, algorithm and
 * protocol a latency and a bandwidth, a predicted time for a size, and the choice
 * NCCL's tuner makes (the fastest enabled pair).
 *
 * It follows ncclTopoTuneModel and ncclTopoGetAlgoTime of NCCL 2.30
 * (src/graph/tuning.cc): the base and per-hop hardware latencies of each
 * algorithm and protocol, the protocol's bandwidth factors (LL half the bus
 * bandwidth, LL128 120/128, tree 0.92 and its per-size correction), the bounds per
 * channel and GPU generation, NVLS's efficiency, CollNet's GPU-to-NIC factor, the
 * ring's plateau and which pairs are enabled by default. time = latency +
 * bytes / (1000 x bandwidth) in us. The model is NCCL's prediction, not a
 * measurement: the simulator compares its packet-level times against it.
 */
class NcclTuningModel
{
  public:
    /// The tuner's choice for one operation and size.
    struct Choice
    {
        NcclAlgorithm algorithm{NcclAlgorithm::RING}; //!< the fastest enabled algorithm
        NcclProtocol protocol{NcclProtocol::SIMPLE};  //!< with this protocol
        double timeUs{-1};                            //!< its predicted time, us
    };

    /**
     * \param input the communicator; throws std::invalid_argument when ranks or nodes
     *        is 0 or nodes > ranks
     */
    explicit NcclTuningModel(const NcclTuningInput& input);

    /// \return bus bandwidth turned into NCCL's algorithm-bandwidth figure, GB/s (0: unavailable)
    double GetBandwidth(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const;
    /// \return the latency term, us
    double GetLatency(CollectiveOp op, NcclAlgorithm a, NcclProtocol p) const;
    /// \return the predicted time of \p bytes, us; -1 when the pair is unavailable
    double PredictTimeUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, uint64_t bytes) const;
    /**
     * The fastest pair for \p bytes among those allowed (NCCL_ALGO / NCCL_PROTO).
     * \param allowedAlgorithms empty: all
     * \param allowedProtocols empty: all
     * \return timeUs -1 when no allowed pair is available
     */
    Choice Select(CollectiveOp op,
                  uint64_t bytes,
                  const std::vector<NcclAlgorithm>& allowedAlgorithms = {},
                  const std::vector<NcclProtocol>& allowedProtocols = {}) const;

  private:
    /// Index of op in NCCL's function tables; -1 for operations NCCL's tuner has no row for.
    static int FunctionIndex(CollectiveOp op);
    void Tune();

    NcclTuningInput m_in;
    /// [function][algorithm][protocol]
    std::array<std::array<std::array<double, NCCL_NUM_PROTOCOLS>, NCCL_NUM_ALGORITHMS>, 5>
        m_bandwidth{};
    std::array<std::array<std::array<double, NCCL_NUM_PROTOCOLS>, NCCL_NUM_ALGORITHMS>, 5>
        m_latency{};
};

} // namespace ns3

#endif // NCCL_TUNING_MODEL_H
