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
#include "ns3/planned-receive-transport.h"
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
 *
 * Per rank (PlanPerRank; TrainingEngine IterationStart per-rank, what a run across MPI
 * ranks needs): every operation of every iteration is bound before the run to an
 * algorithm object and a run of it, in program order, so every process binds alike:
 * one object per (operation, communicator, bytes), whose k-th operation of an
 * iteration is its run iteration x (its operations per iteration) + k
 * (CollectiveAlgorithm::StartRuns with SetCallerStartsRuns); each rank's sends to one
 * peer are one stream of messages. A GPU starts its part of a collective when it
 * issues it, after its part of the communicator's previous operation ended (NCCL's
 * stream order), and the operation is done for that GPU when its own part is (every
 * transfer it receives completed, every transfer it sends posted); a send is done for
 * its receiver when it was delivered. Message ids and connections are taken for the
 * whole run at the start, and every receive is posted then, each connection's in the
 * order its sender will send. Tags: bit 55 set: a send, bits 54..32 its stream, bits
 * 31..0 its place in it; else bits 54..44 the object, 43..32 the run, 31..0 the
 * transfer.
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

    /**
     * Bind every operation of \p iterations iterations before the run (per rank, see
     * above) and take their message ids, connections and receives now. Replaces Setup's
     * op-done callback by \p rankOpDone(rank, opIndex): GPU rank's part of an operation
     * (of its current iteration) ended.
     * \param ops the operations, by op index
     * \param order op indices in an order in which each communicator's operations, and
     *        each rank's sends to one peer, are in program order
     * \param iterations the iterations
     * \param rankOpDone see above
     * \param sendAcked (src rank, op index): a send's sender completion (its
     *        acknowledgement), which the sender's process sees
     * Throws std::invalid_argument if the tags cannot hold them (more than 2,047 objects or
     * 4,096 runs of one) or two communicators share a pair of ranks.
     */
    void PlanPerRank(const std::vector<Operation>& ops,
                     const std::vector<uint32_t>& order,
                     uint32_t iterations,
                     Callback<void, uint32_t, uint32_t> rankOpDone,
                     Callback<void, uint32_t, uint32_t> sendAcked);
    /// \return whether PlanPerRank bound the operations
    bool IsPerRank() const;
    /// Per rank: GPU \p rank issues operation \p opIndex of iteration \p iteration now.
    void Issue(uint32_t rank, uint32_t opIndex, uint32_t iteration);
    /// \return whether this process simulates GPU \p rank (the transport's IsLocal)
    bool IsLocal(uint32_t rank) const;

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
    /// A new algorithm object for \p op, its attributes from the Settings (not set up)
    Ptr<CollectiveAlgorithm> MakeAlgorithm(const Operation& op) const;
    /// Per rank: host \p h of object \p object ended run \p run
    static void HostRunDone(CollectiveInstancePool* pool,
                            uint32_t object,
                            uint32_t h,
                            uint32_t run);
    /// Per rank: GPU \p rank's part of \p opIndex ended (its own event)
    void RankOpDone(uint32_t rank, uint32_t opIndex);
    /// Per rank: start \p rank's next queued part on communicator \p comm, if any
    void StartNextPart(uint32_t comm, uint32_t rank);

    /// Per rank: an algorithm object and its operations.
    struct PlannedObject
    {
        Ptr<CollectiveAlgorithm> algorithm;
        uint32_t comm{0};
        std::vector<uint32_t> ops; //!< its operations of one iteration, in order
    };

    /// Per rank: one rank's sends to one peer.
    struct SendStream
    {
        uint32_t src{0};
        uint32_t dst{0};
        std::vector<uint32_t> ops; //!< its sends of one iteration, in order
    };

    /// Per rank: where an operation runs.
    struct Binding
    {
        uint32_t target{0}; //!< object (collective) or stream (send)
        uint32_t k{0};      //!< its place among the target's operations of an iteration
    };

    /// Per rank: a GPU's queue of parts on one communicator (NCCL's stream order)
    struct Lane
    {
        bool busy{false};
        std::vector<std::pair<uint32_t, uint32_t>> queue; //!< (object, run), FIFO
        uint32_t head{0};                                 //!< next in queue
    };

    Settings m_settings;
    Ptr<CollectiveTransport> m_transport;
    Callback<void, uint32_t> m_opDone;
    std::vector<Communicator> m_comms;
    std::map<std::vector<uint32_t>, uint32_t> m_commIndex;
    std::vector<Instance> m_instances;
    std::map<std::string, std::vector<uint32_t>> m_idle; //!< key -> idle instances

    // per rank (PlanPerRank)
    bool m_perRank{false};
    Ptr<PlannedReceiveTransport> m_planned; //!< what the objects post on
    Callback<void, uint32_t, uint32_t> m_rankOpDone;
    Callback<void, uint32_t, uint32_t> m_sendAcked;
    std::vector<PlannedObject> m_objects;
    std::vector<SendStream> m_streams;
    std::vector<Operation> m_planOps;                      //!< by op index
    std::vector<Binding> m_binding;                        //!< by op index
    std::map<std::pair<uint32_t, uint32_t>, Lane> m_lanes; //!< (comm, rank) -> its lane
};

} // namespace ns3

#endif // COLLECTIVE_INSTANCE_POOL_H
