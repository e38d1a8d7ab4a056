/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_INSTANCE_POOL_H
#define COLLECTIVE_INSTANCE_POOL_H

#include "ns3/callback.h"
#include "ns3/collective-algorithm.h"
#include "ns3/collective-transport.h"
#include "ns3/communicator.h"
#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * \brief The communication layer TrainingEngine and ChakraEngine share: the transport,
 * the communicators, the collective algorithm objects an engine's operations run on and
 * the tag layout of their messages.
 *
 * An engine numbers its operations (op index) and asks the pool to run one: a
 * point-to-point send goes out at once as one message; a collective runs on an
 * algorithm object (an instance) made for its (operation, communicator, bytes) with the
 * engine's ChunkBytes, Channels, GpusPerServer, Pxn and NCCL's channels (NicRate), or
 * on an idle one of the same key whose last run has no sender completion due (their
 * tags could not be told from the new run's). When the operation ended (the instance's
 * last transfer completed, or the send was delivered), the pool frees the instance in
 * an event of its own (after the algorithm returned) and calls the engine's op-done
 * callback there.
 *
 * Tags (64 bits): the transport's tag space in bits 63..56; bit 55 set: a
 * point-to-point message whose low 32 bits are the op index; else bits 54..32 the
 * instance and bits 31..0 the transfer index (CollectiveAlgorithm).
 */
class CollectiveInstancePool : public Object
{
  public:
    /// How the pool makes algorithm objects (the engines' attributes of the same names).
    struct Settings
    {
        std::string allreduceAlgorithm{"ring"};                        //!< AllreduceAlgorithm
        uint32_t chunkBytes{CollectiveAlgorithm::DEFAULT_CHUNK_BYTES}; //!< ChunkBytes
        uint32_t channels{CollectiveAlgorithm::DEFAULT_CHANNELS};      //!< Channels
        uint32_t gpusPerServer{0};                                     //!< GpusPerServer
        bool pxn{true};                                                //!< Pxn
        DataRate nicRate{0};                                           //!< NicRate
        uint8_t tagSpace{0xC0};                                        //!< TagSpace
    };

    /// One communication as the pool runs it.
    struct Operation
    {
        bool p2p{false};                          //!< a send (else a collective)
        CollectiveOp op{CollectiveOp::ALLREDUCE}; //!< collective: its operation
        uint32_t comm{0};                         //!< collective: its communicator
        uint32_t src{0};                          //!< send: source rank
        uint32_t dst{0};                          //!< send: destination rank
        uint64_t bytes{0};                        //!< per rank (collective), of the send
    };

    /**
     * The Settings of an engine with the attributes of their names (TrainingEngine's and
     * ChakraEngine's: AllreduceAlgorithm, ChunkBytes, Channels, GpusPerServer, Pxn,
     * NicRate, TagSpace).
     */
    static Settings ReadSettings(const ObjectBase& engine);

    static TypeId GetTypeId();
    CollectiveInstancePool();
    ~CollectiveInstancePool() override;

    /**
     * Run on \p transport (it reports deliveries and sender completions to the pool from
     * now on); \p opDone gets the op index of each operation that ended.
     */
    void Setup(Ptr<CollectiveTransport> transport,
               const Settings& settings,
               Callback<void, uint32_t> opDone);
    Ptr<CollectiveTransport> GetTransport() const;

    /// The communicator of \p ranks (transport ranks, in order), made on first use.
    uint32_t CommunicatorOf(const std::vector<uint32_t>& ranks);
    const Communicator& GetCommunicator(uint32_t comm) const;
    uint32_t GetNCommunicators() const;

    /// The algorithm name \p op runs (allreduce: AllreduceAlgorithm; reduce-scatter and
    /// all-gather ring; all-to-all pairwise; others the registry's default).
    std::string AlgorithmFor(CollectiveOp op) const;
    /// Throws std::invalid_argument now, not mid-run, if \p op has no AlgorithmFor(op).
    void CheckAlgorithm(CollectiveOp op) const;

    /**
     * Start operation \p opIndex now.
     * \return the instance it runs on (-1: a send)
     */
    int32_t Start(uint32_t opIndex, const Operation& op);

  protected:
    void DoDispose() override;

  private:
    struct Instance
    {
        Ptr<CollectiveAlgorithm> algorithm;
        std::string key;
        uint32_t op{0}; //!< the op index it runs
        bool busy{false};
    };

    /// An idle instance for \p key, or a new one for \p op
    uint32_t Acquire(const std::string& key, const Operation& op);
    /// NCCL's channels for \p op on a communicator of \p perServer GPUs per server (NicRate)
    uint32_t NcclChannelsFor(const Operation& op, uint32_t perServer) const;
    void OnInstanceDone(uint64_t tagBase);
    /// The operation \p opIndex ended (its own event): free instance \p instance (-1: none)
    void Finish(uint32_t opIndex, int32_t instance);
    void OnDelivered(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);
    void OnSent(uint32_t src, uint32_t dst, uint64_t tag, uint64_t bytes);

    Settings m_settings;
    Ptr<CollectiveTransport> m_transport;
    Callback<void, uint32_t> m_opDone;
    std::vector<Communicator> m_comms;
    std::map<std::vector<uint32_t>, uint32_t> m_commIndex;
    std::vector<Instance> m_instances;
    std::map<std::string, std::vector<uint32_t>> m_idle; //!< key -> idle instances
};

} // namespace ns3

#endif // COLLECTIVE_INSTANCE_POOL_H
