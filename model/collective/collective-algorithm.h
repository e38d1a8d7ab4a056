/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_ALGORITHM_H
#define COLLECTIVE_ALGORITHM_H

#include "collective-metrics.h"
#include "collective-protocol.h"
#include "communicator.h"
#include "compact-index-array.h"

#include "ns3/callback.h"
#include "ns3/collective-transport.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * One message of a collective schedule: rank src sends the data units
 * [unitBegin, unitEnd) to rank dst (communicator ranks). It is posted when all
 * transfers it depends on have been delivered (and reduced, if they reduce).
 */
struct CollectiveTransfer
{
    uint32_t src{0};       //!< sending communicator rank
    uint32_t dst{0};       //!< receiving communicator rank
    uint32_t unitBegin{0}; //!< first data unit carried
    uint32_t unitEnd{0};   //!< one past the last data unit carried
    uint64_t bytes{0};     //!< sum of the carried units' sizes
    uint32_t channel{0};   //!< the collective channel (NCCL's): its own connection
    uint32_t slot{0};      //!< dense index of (channel, src, dst): MaxInFlight's scope
    uint32_t nDeps{0};     //!< transfers that must complete before this one is posted
    bool reduce{false};    //!< the receiver reduces the data into its buffer (else copies)
};

/**
 * \ingroup ai-fabric
 * \brief Base of the collective algorithms: a schedule is a dependency graph of
 * transfers, and this class executes it over a CollectiveTransport.
 *
 * The S bytes per rank are cut into equal data units (sizes differ by at most
 * one byte). A subclass builds the graph in BuildSchedule() with AddTransfer();
 * the executor posts a transfer when its dependencies completed, with at most
 * MaxInFlight transfers outstanding (posted, not yet delivered) per channel and
 * ordered pair of ranks, in the order they became ready; over a transport whose
 * receiver tells messages apart by their place on the connection
 * (CollectiveTransport::NeedsTransferOrder), each channel and ordered pair posts in
 * transfer order instead (the order the schedule adds them): a ready transfer waits for
 * the earlier transfers of its connection. A transfer is outstanding
 * until its sender's completion (HandleSent): NCCL's sender reuses one of its
 * NCCL_STEPS buffer slots when the receiver's clear-to-send for it comes back, one
 * one-way latency after the delivery, which is when the RDMA WRITE's acknowledgement
 * reaches the sender.
 *
 * Channels (NCCL's): the data is split into Channels equal slices, and each
 * channel runs the algorithm's schedule on its slice, independently, on its own
 * connections (CollectiveTransport::Send's channel). By default the base class
 * calls BuildSchedule() once per channel, with GetChannelBytes() = S / Channels
 * and the units of that channel; an algorithm that maps channels itself (the
 * double binary tree: NCCL gives its two trees to alternate channels) overrides
 * BuildsChannels() and calls SetBuildChannel() as it goes. A delivered reducing transfer
 * completes bytes/ReductionRate later (the receiver's reduction), which delays
 * whatever forwards its result. The operation ends when every transfer completed.
 *
 * With TrackContributions each rank keeps, per data unit, the set of ranks whose
 * input it contains; a transfer carries the sender's sets as they are when it is
 * posted and the receiver ORs them in. VerifyContributions() then checks the
 * result the operation promises, so a schedule that sends data before it
 * arrived fails the check.
 *
 * Tags: tagBase | transfer index (32 bits); the index identifies step, chunk and
 * rank within one execution, the caller's tagBase the job and iteration.
 *
 * Protocol (SetProtocol; none by default): NCCL's LL, LL128 or Simple. With one, each
 * transfer's message carries the protocol's wire bytes for its payload
 * (CollectiveProtocol::GetWireBytes: LL twice, LL128 16/15 in 2048-byte units), the
 * chunk is the protocol's step, and a delivered transfer completes the protocol's step
 * latency later (network or scale-up, by whether its ranks' hosts share a server);
 * each run's first transfers wait the protocol's base latency (NCCL's baseLat of the
 * tree for "tree", of the ring for every other schedule). Everything the operation reports
 * (GetBytes, algbw, busbw) stays in payload bytes. Without one, messages carry their payload and
 * nothing is added.
 */
class CollectiveAlgorithm : public Object
{
  public:
    /// Signature of the Post trace: (src rank, dst rank, bytes).
    typedef void (*PostTracedCallback)(uint32_t src, uint32_t dst, uint64_t bytes);

    /// ChunkBytes default: NCCL's Simple step, 4 MiB buffer / NCCL_STEPS 8.
    static constexpr uint32_t DEFAULT_CHUNK_BYTES = 512 * 1024;
    /// Channels default: NCCL's doubled search channel (one NIC per GPU).
    static constexpr uint32_t DEFAULT_CHANNELS = 2;
    /// Channels at most: NCCL's MAXCHANNELS (64 since NCCL 2.19, src/include/device.h).
    static constexpr uint32_t MAX_CHANNELS = 64;

    static TypeId GetTypeId();
    CollectiveAlgorithm();
    ~CollectiveAlgorithm() override;

    /**
     * Creates the algorithm registered as name for op (CollectiveAlgorithmRegistry:
     * allreduce "ring", "tree", "hd", "2d"; reducescatter and allgather "ring";
     * alltoall "pairwise"). An empty name picks the operation's default (ring,
     * pairwise). Throws std::invalid_argument listing the allowed names otherwise.
     */
    static Ptr<CollectiveAlgorithm> Create(CollectiveOp op, const std::string& name);

    virtual CollectiveOp GetOp() const = 0;
    /// Short name as accepted by Create ("ring", ...).
    virtual std::string GetName() const = 0;
    /**
     * Why this algorithm runs another's schedule (CollNet without a SHARP tree left runs
     * the ring, as NCCL does); GetName() then names the one that runs.
     * \return the reason, or "" (the default) when it runs its own
     */
    virtual std::string GetFallbackReason() const;

    /**
     * Builds the schedule of this op on comm for bytes per rank (throws
     * std::invalid_argument on an impossible shape). Attributes set later do
     * not change the schedule.
     */
    void Setup(const Communicator& comm, uint64_t bytes);
    /**
     * Setup for a process that simulates only some of the communicator's ranks (a run
     * across MPI ranks): \p local[r] tells whether communicator rank r is simulated here
     * (local.size() must equal comm.GetSize()). The whole graph is built, but only the
     * transfers whose source or destination is local are held: Start makes every
     * connection of the operation (CollectiveTransport::ExpectConnection), in the order
     * of its first transfer, and expects, tracks and posts only the held transfers.
     * Transfer indices (the tags' low 32 bits) stay those of the whole graph. Every
     * transfer a local source waits for was delivered to that source, so it is held,
     * if the schedule DependsOnlyOnDeliveriesAtSource; a schedule without that property
     * holds every transfer. All ranks local: the same as Setup(comm, bytes).
     */
    void Setup(const Communicator& comm, uint64_t bytes, const std::vector<bool>& local);
    bool IsSetup() const;
    const Communicator& GetCommunicator() const;
    uint64_t GetBytes() const;
    /// Channels the schedule uses (attribute Channels, as at Setup).
    uint32_t GetNChannels() const;

    /**
     * The protocol the transfers run with (before Setup). Sets ChunkBytes to the
     * protocol's step (CollectiveProtocol::GetStepBytes); set ChunkBytes afterwards to
     * override it.
     * \param protocol the protocol; null: none (payload bytes on the wire, no step latency)
     * \param hostsPerServer communicator hosts h and h' are in one server when
     *        h / hostsPerServer == h' / hostsPerServer (the rail topology's numbering,
     *        RdmaNic::HostsPerServer); their steps take the protocol's scale-up latency,
     *        all others its network latency. 0 is taken as 1.
     */
    void SetProtocol(Ptr<CollectiveProtocol> protocol, uint32_t hostsPerServer = 1);
    /// \return the protocol set by SetProtocol (null: none)
    Ptr<CollectiveProtocol> GetProtocol() const;

    /**
     * Runs the schedule once: transfers are posted with Send(host(src),
     * host(dst), bytes, tagBase | index). onDone(tagBase) fires when the last
     * transfer completed. tagBase's low 32 bits must be zero.
     */
    void Start(Ptr<CollectiveTransport> transport,
               uint64_t tagBase,
               Callback<void, uint64_t> onDone);
    /**
     * Runs the schedule \p runs times in NCCL's stream order: each host (communicator
     * rank) starts run r + 1 \p gap after its own part of run r is done (every transfer
     * it receives completed, every transfer it sends posted), as a GPU launches its next
     * collective kernel when its own previous one ended, not when every GPU's did. Only
     * the hosts of this process are simulated (IsLocal), so a run across MPI ranks needs
     * nothing from other ranks to start a host's next run. Run r's transfers are tagged
     * \p tagBaseOf(r) | index; a transfer of run r + 1 delivered to a host still in run
     * r counts for run r + 1, and the host posts what it sends of run r + 1 only once it
     * started it. At most two runs are live at once (each host's output depends on
     * every host's input in every registered schedule; a delivery of a third aborts).
     * Receives are posted one run ahead (run r + 1's when the receiving host starts run
     * r); the message ids of every run are taken at the start (BeginOperation per run).
     * \param transport the transport (CanStartRuns must hold)
     * \param runs the number of runs (1..4096: tag bases must differ)
     * \param gap the time between a host's end of one run and its start of the next
     * \param tagBaseOf the tag base of run r (low 32 bits zero)
     * \param onRunDone called with r when every host of this process ended run r
     */
    void StartRuns(Ptr<CollectiveTransport> transport,
                   uint32_t runs,
                   Time gap,
                   std::function<uint64_t(uint32_t)> tagBaseOf,
                   Callback<void, uint32_t> onRunDone);
    /**
     * Before StartRuns: its hosts start their runs when the caller says (StartHostRun),
     * not at the start and after their own last run; \p onHostRunDone(h, run) is called,
     * in an event of its own, when host h's part of run is done. A training step starts a
     * GPU's part of an operation when that GPU issues it (TrainingEngine per-rank).
     */
    void SetCallerStartsRuns(Callback<void, uint32_t, uint32_t> onHostRunDone);
    /// With SetCallerStartsRuns: host \p h (communicator rank, simulated here) starts run
    /// \p run now; a host starts its runs in order, each after its part of the last ended.
    void StartHostRun(uint32_t h, uint32_t run);
    /// \return whether StartRuns can run on \p transport: the algorithm posts on it
    /// (UseTransport keeps it) and TrackContributions is off
    bool CanStartRuns(Ptr<CollectiveTransport> transport);
    /// StartRuns: the transport delivered the message \p tag (its run from the tag base)
    void HandleRunDelivered(uint64_t tag);
    /// \return whether StartRuns is running (some host of this process has a run to end)
    bool IsRunningRuns() const;
    /**
     * StartRuns: start no further run. The latest run a host of this process started is
     * the last: every host still starts and ends it, none starts a later one, and the
     * message ids of the later runs are given back (CollectiveTransport::AbandonOperation).
     */
    void StopRuns();

    /// When this process's hosts started and ended one run (StartRuns)
    struct RunTimes
    {
        Time firstStart{-1};   //!< the earliest start of a host of this process (-1: none)
        Time lastEnd{-1};      //!< the latest end of a host of this process (-1: none)
        uint32_t hostsDone{0}; //!< hosts of this process that ended the run
    };

    /// \return per run of StartRuns, when this process's hosts started and ended it
    const std::vector<RunTimes>& GetRunTimes() const;

    /// The transport delivered transfer index (the low 32 bits of its tag).
    void HandleDelivered(uint32_t index);
    /**
     * The transport's sender completion of transfer index: the sender learns that the
     * chunk was delivered, which frees its place among the MaxInFlight chunks of its
     * channel and pair. After the operation's last delivery it only counts (see
     * GetUnacknowledged).
     */
    void HandleSent(uint32_t index);
    /// Transfers of the current (or last) run posted in this process whose sender
    /// completion has not come yet; a caller that reuses this object for another run
    /// while some are due cannot tell their completions from the new run's.
    uint32_t GetUnacknowledged() const;
    bool IsRunning() const;
    /// Transfers of the current (or last) run completed in this process (delivered, and
    /// reduced if they reduce). Across MPI ranks each rank completes those delivered to
    /// its own hosts, and the operation is done when the ranks' counts sum to
    /// GetNTransfers().
    uint32_t GetCompletedTransfers() const;
    /// When the last of those completed (-1 ps if none did).
    Time GetLastCompletion() const;
    /**
     * \return true if every transfer waits only for transfers delivered to its own
     * source (so the process that sends it sees all it waits for): what a run across MPI
     * ranks needs. Set by Setup.
     */
    bool DependsOnlyOnDeliveriesAtSource() const;

    /// Transfers of the whole graph (every process's).
    uint32_t GetNTransfers() const;
    /// Transfers this process holds (Setup with local ranks); GetNTransfers() otherwise.
    uint32_t GetNHeldTransfers() const;
    /// \return whether transfer \p index (of the whole graph) is held here
    bool IsHeld(uint32_t index) const;
    /// Transfer \p index of the whole graph (a copy: the schedule is held compactly);
    /// throws std::out_of_range if it is not held.
    CollectiveTransfer GetTransfer(uint32_t index) const;
    /// \return the held transfers that wait for held transfer \p index (its dependents)
    std::vector<uint32_t> GetDependents(uint32_t index) const;
    /// Data units of all channels (GetChannelUnits() x channels built separately).
    uint32_t GetNUnits() const;
    /// Bytes of units [begin, end).
    uint64_t GetUnitBytes(uint32_t begin, uint32_t end) const;

    /// After a tracked run: true if every rank holds what the op promises; else why.
    bool VerifyContributions(std::string* why) const;

  protected:
    void DoDispose() override;
    /// Subclasses add their transfers here (SetNUnits first).
    virtual void BuildSchedule() = 0;
    /**
     * For gather-style ops (all-gather, all-to-all): the rank whose input unit u
     * is; for reduce-scatter: the rank that must end with unit u fully reduced.
     * Unused for allreduce.
     */
    virtual uint32_t GetUnitOwner(uint32_t unit) const;
    /// True if BuildSchedule() places the Channels itself (called once, with
    /// GetChannelBytes() = S and units of all channels); false (default): it is
    /// called once per channel.
    virtual bool BuildsChannels() const;

    /**
     * Units of one channel's schedule (of the whole schedule if BuildsChannels()).
     * Units passed to AddTransfer and GetUnitOwner are this channel's, 0..nUnits-1.
     */
    void SetNUnits(uint32_t nUnits);
    /// Units per channel, as set by SetNUnits.
    uint32_t GetChannelUnits() const;
    /// Bytes the schedule being built moves per rank: S / Channels (S if BuildsChannels()).
    uint64_t GetChannelBytes() const;
    /// For BuildsChannels() algorithms: the channel the next AddTransfer calls use.
    void SetBuildChannel(uint32_t channel);
    /// The channel whose schedule is being built (the channel AddTransfer uses).
    uint32_t GetBuildChannel() const;
    /// Adds a transfer; deps are indices of transfers added before. Returns its index.
    uint32_t AddTransfer(uint32_t src,
                         uint32_t dst,
                         uint32_t unitBegin,
                         uint32_t unitEnd,
                         bool reduce,
                         const std::vector<uint32_t>& deps);
    /**
     * The transport a run posts on, given the caller's (Start's \p transport): the
     * default keeps it; an algorithm that moves data by other means than messages
     * between ranks (NVLS: the switch reduces and multicasts) returns its own, which
     * reports completions to this algorithm (HandleDelivered, HandleSent).
     */
    virtual Ptr<CollectiveTransport> UseTransport(Ptr<CollectiveTransport> transport);
    /// Number of pipeline chunks for a message of bytes (1 if ChunkBytes is 0).
    uint32_t ChunksFor(uint64_t bytes) const;

    /**
     * Adds a ring reduce-scatter (reduce) or all-gather (!reduce) over the
     * communicator ranks ring (ring[i] sends to ring[i+1]), one segment per
     * position: segment s of chunk c is the unit range units(s, c). Reduce-scatter:
     * position i ends with segment i reduced (step k sends segment i-1-k).
     * All-gather: position i starts with segment i (step k sends segment i-k).
     * extraDeps[i * nChunks + c] must complete before any send of position i
     * for chunk c. Returns, per i * nChunks + c, the transfers delivered to
     * position i for chunk c, in step order.
     */
    std::vector<std::vector<uint32_t>> AddRingPhase(
        const std::vector<uint32_t>& ring,
        uint32_t nChunks,
        bool reduce,
        const std::function<std::pair<uint32_t, uint32_t>(uint32_t, uint32_t)>& units,
        const std::vector<std::vector<uint32_t>>& extraDeps);

    uint32_t m_chunkBytes;        //!< pipeline chunk size, 0 = no split
    uint32_t m_channels;          //!< attribute Channels
    uint32_t m_maxInFlight;       //!< per (src, dst) pair, 0 = unlimited
    DataRate m_reductionRate;     //!< 0 = free
    bool m_track;                 //!< track contribution sets
    uint32_t m_unitAlignBytes{0}; //!< attribute UnitAlignBytes (0: even units)

  private:
    /// StartRuns: one live run's execution state (two alternate: runs r and r + 1)
    struct RunState
    {
        uint32_t run{0};                   //!< the run it holds
        uint64_t tagBase{0};               //!< its tag base
        std::vector<uint32_t> pendingDeps; //!< per held transfer
        std::vector<uint8_t> ready;        //!< per held transfer: dependencies complete
        std::vector<uint32_t> slotNext;    //!< per slot: its next transfer to post
        std::vector<uint32_t> recvLeft;    //!< per host: its receives not yet complete
        std::vector<uint32_t> sendLeft;    //!< per host: its sends not yet posted
    };

    /// Setup's work; \p local empty: every rank local.
    void Build(const Communicator& comm, uint64_t bytes, const std::vector<bool>& local);
    /// \return the held transfer of graph index \p global (its index in the columns), or
    /// NOT_HELD
    uint32_t LocalIndex(uint32_t global) const;

    /// \return the graph index of held transfer \p local
    uint32_t GlobalIndex(uint32_t local) const
    {
        return m_filter ? m_heldIndex[local] : local;
    }

    /// StartRuns: (re)initialise the state of run \p run (its parity's)
    void ResetRun(uint32_t run);
    /// StartRuns: host \p h starts run \p run (after the gap): posts run + 1's receives
    void HostStart(uint32_t h, uint32_t run);
    /// StartRuns: host \p h posts run \p run's ready transfers (after the base latency)
    void HostPost(uint32_t h, uint32_t run);
    /// SetCallerStartsRuns: tell the caller host \p h ended run \p run
    void NotifyHostRunDone(uint32_t h, uint32_t run);
    /// StartRuns: whether host \p h's part of its live run is done; if so, end it
    void CheckHostDone(uint32_t h, uint32_t run);
    /// StartRuns: transfer \p index of run state \p rs is ready
    void MakeReadyRun(RunState& rs, uint32_t index);
    /// StartRuns: post the ready transfers of \p slot in run state \p rs
    void PostInOrderRun(RunState& rs, uint32_t slot);
    /// StartRuns: post transfer \p index of run state \p rs
    void PostRun(RunState& rs, uint32_t index);
    /// StartRuns: transfer \p index of run state \p rs completed at its destination
    void CompleteRun(uint32_t parity, uint32_t index);
    /// StartRuns: the transport's sender completion of held transfer \p index
    void HandleSentRun(uint32_t index);

    /// LocalIndex of a transfer this process does not hold.
    static constexpr uint32_t NOT_HELD = 0xffffffffu;

    void MakeReady(uint32_t index);
    /// Makes ready every transfer that waits for nothing (a run's start, after the base latency).
    void PostInitial();
    /// Post the transfers of \p slot that are next in transfer order, ready and within
    /// MaxInFlight.
    void PostInOrder(uint32_t slot);
    void Post(uint32_t index);
    void Complete(uint32_t index);
    uint64_t* Mask(uint32_t rank, uint32_t unit);
    const uint64_t* Mask(uint32_t rank, uint32_t unit) const;

    Communicator m_comm;
    uint64_t m_bytes{0};
    bool m_setup{false};
    uint32_t m_nUnits{0};       //!< units of all channels
    uint32_t m_channelUnits{0}; //!< units of one channel's schedule
    uint32_t m_nChannels{1};    //!< channels at Setup
    uint32_t m_buildChannel{0}; //!< channel of the transfers being added
    uint32_t m_unitOffset{0};   //!< first unit of that channel
    bool m_ncclRing{false};     //!< the schedule is NCCL's ring (channel step bound applies)
    /// Per (receiving rank, channel): when its block is done with its last step with
    /// lines (empty unless the protocol bounds a channel's steps)
    std::vector<Time> m_channelFree;

    /// The held transfers (every transfer unless m_filter), in graph order, one column per
    /// fact (CompactIndexArray: a ring's columns are progressions, a few bytes per 64
    /// transfers); src, dst and channel are the slot's, bytes are computed from the units
    /// (UnitBytesAtSetup). Indices into them are local; the graph's (tags, GetTransfer)
    /// are global (GlobalIndex, LocalIndex).
    CompactIndexArray m_tSlot;       //!< per held transfer: its slot
    CompactIndexArray m_tUnitBegin;  //!< per held transfer: its first unit
    CompactIndexArray m_tUnitCount;  //!< per held transfer: its units (unitEnd - unitBegin)
    CompactIndexArray m_tDepsReduce; //!< per held transfer: nDeps * 2 + reduce
    uint32_t m_nHeld{0};             //!< held transfers
    uint32_t m_setupAlignBytes{0};   //!< UnitAlignBytes at Setup (the transfers' bytes)

    /// \return slot of held transfer \p i
    uint32_t TSlot(uint32_t i) const
    {
        return m_tSlot.Get(i);
    }

    /// \return source rank of held transfer \p i
    uint32_t TSrc(uint32_t i) const
    {
        return m_slotPeers[TSlot(i)].src;
    }

    /// \return destination rank of held transfer \p i
    uint32_t TDst(uint32_t i) const
    {
        return m_slotPeers[TSlot(i)].dst;
    }

    /// \return dependencies of held transfer \p i
    uint32_t TNDeps(uint32_t i) const
    {
        return m_tDepsReduce.Get(i) >> 1;
    }

    /// \return whether held transfer \p i reduces
    bool TReduce(uint32_t i) const
    {
        return m_tDepsReduce.Get(i) & 1;
    }

    /// \return bytes of held transfer \p i
    uint64_t TBytes(uint32_t i) const
    {
        const uint32_t b = m_tUnitBegin.Get(i);
        return UnitBytesAtSetup(b, b + m_tUnitCount.Get(i));
    }

    /// \return held transfer \p i whole; \p building: it may be among the last added
    CollectiveTransfer MakeTransfer(uint32_t i, bool building) const;
    /// GetUnitBytes with the UnitAlignBytes of Setup (the bytes AddTransfer gave a transfer)
    uint64_t UnitBytesAtSetup(uint32_t begin, uint32_t end) const;
    /// GetUnitBytes with UnitAlignBytes \p align
    uint64_t UnitBytes(uint32_t begin, uint32_t end, uint32_t align) const;
    uint32_t m_nTransfers{0};          //!< transfers of the whole graph
    bool m_filter{false};              //!< only some transfers are held (Setup with local ranks)
    std::vector<uint8_t> m_local;      //!< m_filter: per communicator rank, simulated here
    std::vector<uint32_t> m_heldIndex; //!< m_filter: graph index of each held transfer
    /// m_filter: bit g of word g / 64 set if transfer g is held, and per word the held
    /// transfers before it (LocalIndex in constant time)
    std::vector<uint64_t> m_heldBits;
    std::vector<uint32_t> m_heldBefore; //!< see m_heldBits
    /// Dependents of each held transfer (held ones only), compressed: those of transfer
    /// i are m_depList[m_depBegin[i] .. m_depBegin[i + 1]), in the order they were added.
    CompactIndexArray m_depBegin;
    CompactIndexArray m_depList;
    /// Build time only: each held transfer's held dependencies, transfer after transfer
    /// (TNDeps(i) of them for held transfer i), in the order AddTransfer met them.
    CompactIndexArray m_buildEdgeDeps;
    /// Build time only, m_filter: destination of every transfer of the graph.
    std::vector<uint32_t> m_buildDst;
    std::unordered_map<uint64_t, uint32_t> m_slotOf; //!< build time only: (ch * N + src) * N + dst
    uint32_t m_nSlots{0};

    /// Per slot (channel and ordered pair of the whole graph, in the order of its first
    /// transfer): its source, destination and channel (Start makes their connections).
    struct SlotPeers
    {
        uint32_t src;     //!< sending communicator rank
        uint32_t dst;     //!< receiving communicator rank
        uint32_t channel; //!< channel
    };

    std::vector<SlotPeers> m_slotPeers; //!< per slot, see SlotPeers

    // per execution
    Ptr<CollectiveTransport> m_transport;
    uint64_t m_tagBase{0};
    Callback<void, uint64_t> m_onDone; //!< called with m_tagBase
    bool m_running{false};
    uint32_t m_completed{0};
    uint32_t m_unacked{0}; //!< posted, sender completion not yet come
    Time m_lastCompletion{-1};
    bool m_depsAtSource{true}; //!< DependsOnlyOnDeliveriesAtSource
    std::vector<uint32_t> m_pendingDeps;
    std::vector<uint32_t> m_inFlight;
    bool m_inOrder{false}; //!< the transport needs transfer order per connection
    std::vector<std::deque<uint32_t>> m_waiting; //!< per slot: ready, over MaxInFlight
    std::vector<uint32_t> m_slotNext;            //!< per slot: its next transfer to post
    std::vector<uint8_t> m_ready;                //!< per transfer: dependencies complete
    /// per slot (CSR): its transfers, in order: m_slotSeqList[m_slotSeqBegin[s] ..
    /// m_slotSeqBegin[s + 1])
    CompactIndexArray m_slotSeqBegin;
    CompactIndexArray m_slotSeqList; //!< see m_slotSeqBegin

    // StartRuns (empty otherwise)
    bool m_runsMode{false};                        //!< StartRuns is the execution
    uint32_t m_runs{0};                            //!< runs of StartRuns (fewer after StopRuns)
    uint32_t m_maxStarted{0};                      //!< the latest run a host here started
    Time m_runGap;                                 //!< a host's gap between runs
    std::function<uint64_t(uint32_t)> m_tagBaseOf; //!< tag base of a run
    Callback<void, uint32_t> m_onRunDone;          //!< every local host ended a run
    /// SetCallerStartsRuns: a host's part of a run ended (null: hosts start themselves)
    Callback<void, uint32_t, uint32_t> m_onHostRunDone;
    RunState m_run[2];                  //!< the live runs, by parity
    std::vector<RunTimes> m_runTimes;   //!< per run
    std::vector<uint8_t> m_hostIsLocal; //!< per host: simulated here
    uint32_t m_localHosts{0};           //!< hosts simulated here
    std::vector<uint32_t> m_hostRun;    //!< per host: the run it posts (NO_RUN: none yet)
    std::vector<uint32_t> m_recvCount;  //!< per host: held transfers it receives
    std::vector<uint32_t> m_sendCount;  //!< per host: held transfers it sends
    /// per host (CSR): held transfers it sends that wait for nothing
    std::vector<uint32_t> m_initialBegin, m_initialList;
    /// per host (CSR): the slots it sends on
    std::vector<uint32_t> m_hostSlotBegin, m_hostSlotList;
    /// per host (CSR): held transfers whose receive it posts (destination here, else source)
    std::vector<uint32_t> m_expectBegin, m_expectList;
    /// per host: ready transfers of its next run, waiting for it to start (no transfer order)
    std::vector<std::vector<uint32_t>> m_deferred;
    /// per slot, no transfer order: (parity, transfer) ready over MaxInFlight
    std::vector<std::deque<std::pair<uint32_t, uint32_t>>> m_waitingRun;
    uint64_t m_completedTotal{0}; //!< transfers completed here over every run
    static constexpr uint32_t NO_RUN = 0xffffffffu;

    // contribution tracking
    uint32_t m_words{0};
    std::vector<uint64_t> m_masks;
    std::vector<std::vector<uint64_t>> m_snapshots;

    TracedCallback<uint32_t, uint32_t, uint64_t> m_postTrace; //!< (src rank, dst rank, bytes)

    // protocol (SetProtocol): wire bytes and step latency
    Ptr<CollectiveProtocol> m_protocol;                 //!< null: none
    uint32_t m_hostsPerServer{1};                       //!< servers for the step latency's kind
    NcclAlgorithm m_ncclAlgorithm{NcclAlgorithm::RING}; //!< for the protocol's base latency
};

} // namespace ns3

#endif // COLLECTIVE_ALGORITHM_H
