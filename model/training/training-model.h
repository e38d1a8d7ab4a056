/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_MODEL_H
#define TRAINING_MODEL_H

#include "ns3/collective-metrics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The parallelism a communication belongs to: which GPUs take part (tensor, data,
 * pipeline or expert parallel group).
 */
enum class TrainingParallelism : uint8_t
{
    TP = 0, //!< tensor parallel: the TP consecutive ranks of one model shard
    DP = 1, //!< data parallel: the same shard in every replica
    PP = 2, //!< pipeline parallel: a point-to-point send between adjacent stages
    EP = 3, //!< expert parallel: EP data-parallel replicas of one shard (MoE all-to-all)
};

/// "tp", "dp", "pp", "ep"
std::string TrainingParallelismName(TrainingParallelism p);

/**
 * \ingroup ai-fabric
 * One collective of a layer: the operation, the group it runs on and the bytes per
 * rank (the collective's size S as nccl-tests defines it).
 */
struct TrainingComm
{
    CollectiveOp op{CollectiveOp::ALLREDUCE};           //!< allreduce, reduce-scatter, ...
    TrainingParallelism group{TrainingParallelism::TP}; //!< the group it runs on
    uint64_t bytes{0};                                  //!< bytes per rank
};

/**
 * \ingroup ai-fabric
 * One layer as the GPU runs it for one microbatch: forward, input-gradient and
 * weight-gradient compute times, the communications after each, and the optimizer
 * update once the weight gradient's collective finished.
 */
struct TrainingLayer
{
    std::string name;                         //!< as in the file
    int64_t forwardNs{0};                     //!< forward compute per microbatch
    int64_t inputGradNs{0};                   //!< input-gradient compute per microbatch
    int64_t weightGradNs{0};                  //!< weight-gradient compute per microbatch
    int64_t updateNs{0};                      //!< update after the gradient collective
    uint64_t activationBytes{0};              //!< output per microbatch (the PP send)
    std::vector<TrainingComm> forwardComms;   //!< after the forward compute, in order
    std::vector<TrainingComm> inputGradComms; //!< after the input-gradient compute
    bool hasWeightGradComm{false};            //!< a gradient collective per iteration
    TrainingComm weightGradComm;              //!< its operation, group and bytes
};

/**
 * \ingroup ai-fabric
 * \brief A training job read from a file: the layers, the parallelism TP x PP x DP
 * (x EP), microbatches, gradient buckets and overlap, in one of two formats told
 * apart by content.
 *
 * - JSON (the file's first non-blank character is '{'): this module's schema
 *   (doc/training.md), layers with compute times in ns or FLOPs and a GPU FLOP rate.
 * - The ASTRA-sim 1.0 / SimAI text format: a parallelism line, a layer count, then
 *   one line per layer (name, reserved, forward compute, type, bytes, input-gradient
 *   compute, type, bytes, weight-gradient compute, type, bytes, update time).
 *
 * Every error throws std::invalid_argument naming the file, the line (text format;
 * JSON syntax errors too) or the JSON key, the value and what is allowed.
 */
class TrainingModel
{
  public:
    /// The file format the model was read from.
    enum Format
    {
        JSON,  //!< this module's JSON schema
        ASTRA, //!< ASTRA-sim 1.0 / SimAI layer-per-line text
    };

    std::string name;                  //!< model name (JSON "name"; the file name otherwise)
    Format format{JSON};               //!< as read
    std::string parallelism;           //!< ASTRA's first word (DATA, ...); "" for JSON
    uint32_t tp{1};                    //!< tensor-parallel degree (0 = all GPUs: ASTRA MODEL)
    uint32_t pp{1};                    //!< pipeline stages
    uint32_t dp{1};                    //!< data-parallel degree (0 = fill the fabric)
    uint32_t ep{1};                    //!< expert-parallel degree (divides dp)
    uint32_t microbatches{1};          //!< per iteration (gradient accumulation steps)
    uint32_t iterations{0};            //!< 0 = not in the file
    uint64_t ppBytes{0};               //!< bytes of a PP send (0 = the stage's last activation)
    bool ppBytesSet{false};            //!< ppBytes came from the file
    uint64_t bucketBytes{0};           //!< DP gradient bucket (0 = one bucket per layer)
    bool overlap{true};                //!< gradient buckets start during backward
    bool layersPerStage{false};        //!< the layers are one stage's (ASTRA with pp > 1)
    std::vector<TrainingLayer> layers; //!< the model's (or one stage's) layers in order

    /// Reads a file, format by content; throws std::invalid_argument.
    /// \param path the file \param cycleNs nanoseconds per ASTRA-sim cycle
    static TrainingModel Load(const std::string& path, int64_t cycleNs = 1);
    /// Parses text (source names it in errors), format by content.
    static TrainingModel Parse(const std::string& text,
                               const std::string& source,
                               int64_t cycleNs = 1);
    /// Parses this module's JSON schema.
    static TrainingModel ParseJson(const std::string& text, const std::string& source);
    /// Parses the ASTRA-sim 1.0 / SimAI text format (compute times in cycles).
    static TrainingModel ParseAstra(const std::string& text,
                                    const std::string& source,
                                    int64_t cycleNs = 1);

    /**
     * Fills dp (or tp for ASTRA MODEL) when the file left it to the GPU count and
     * checks the shape: tp x pp x dp = nRanks <= nHosts, ep divides dp, at least one
     * layer per stage. Throws std::invalid_argument naming the numbers.
     */
    void Resolve(uint32_t nHosts);
    /// tp x pp x dp
    uint32_t GetNRanks() const;
    /// Indices into layers of pipeline stage s.
    std::vector<uint32_t> GetStageLayers(uint32_t stage) const;
};

} // namespace ns3

#endif // TRAINING_MODEL_H
