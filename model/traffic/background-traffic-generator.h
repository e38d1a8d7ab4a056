/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BACKGROUND_TRAFFIC_GENERATOR_H
#define BACKGROUND_TRAFFIC_GENERATOR_H

#include "flow-size-distribution.h"
#include "flow-spec.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Open-loop background flows: Poisson arrivals per host with sizes from a CDF,
 *        plus optional periodic incast bursts.
 *
 * Every host starts flows as a Poisson process whose mean gap is
 * mean size x 8 / (HostRate x Load), so each host offers Load of its link on
 * average (the HPCC-derived simulators' traffic generator rule). Each flow goes
 * to a host drawn uniformly among the others. Incast bursts, if enabled, add
 * IncastFanIn simultaneous flows of IncastBytes from distinct random senders to
 * one random receiver every IncastPeriod; they come on top of Load.
 *
 * Generation stops at StopTime, or after MaxFlows flows (whichever comes
 * first; 0 = no limit). The list is sorted by start time, then id; ids are
 * 0, 1, 2, ... in that order. Invalid settings throw std::invalid_argument
 * (the scenario runner reports it) naming the attribute, value and what is allowed.
 */
class BackgroundTrafficGenerator : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    BackgroundTrafficGenerator();
    ~BackgroundTrafficGenerator() override;

    /**
     * \brief Generate the flows.
     * \param numHosts number of hosts (>= 2); src and dst are in [0, numHosts)
     * \return flows sorted by start then id
     * \throws std::invalid_argument on a bad attribute value or CDF
     */
    std::vector<FlowSpec> Generate(uint32_t numHosts);

    /// \return the size distribution used by the last Generate() (loaded on demand)
    Ptr<FlowSizeDistribution> GetDistribution();

    /// \return the mean Poisson gap per host for the current attributes
    Time GetMeanInterArrival();

    /**
     * \brief Assign fixed random variable stream numbers.
     * \param stream first stream index
     * \return number of streams used (4: gaps, destinations, sizes, incast)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for generated flows.
     * \param flow the flow, id assigned
     */
    typedef void (*FlowTracedCallback)(const FlowSpec& flow);

  private:
    void DoDispose() override;
    /// Throws std::invalid_argument if an attribute is out of range.
    void Validate(uint32_t numHosts) const;
    /// Loads m_distName into m_dist if not loaded yet.
    void EnsureDistribution();

    double m_load;          //!< offered load per host, fraction of HostRate
    DataRate m_hostRate;    //!< host link rate
    std::string m_distName; //!< CDF name or file
    Time m_startTime;       //!< first possible arrival
    Time m_stopTime;        //!< no arrival at or after this time
    uint64_t m_maxFlows;    //!< cap on Poisson flows, 0 = none
    uint8_t m_priority;     //!< priority of generated flows
    uint16_t m_dport;       //!< destination port of generated flows
    uint32_t m_incastFanIn; //!< senders per incast burst, 0 = no incast
    uint64_t m_incastBytes; //!< bytes per incast flow
    Time m_incastPeriod;    //!< time between incast bursts

    Ptr<FlowSizeDistribution> m_dist;        //!< loaded CDF
    Ptr<ExponentialRandomVariable> m_gapRng; //!< unit-mean exponential gaps
    Ptr<UniformRandomVariable> m_dstRng;     //!< destination choice
    Ptr<UniformRandomVariable> m_sizeRng;    //!< variate for the size inverse CDF
    Ptr<UniformRandomVariable> m_incastRng;  //!< incast receiver and senders

    TracedCallback<const FlowSpec&> m_flowTrace; //!< every generated flow
};

} // namespace ns3

#endif // BACKGROUND_TRAFFIC_GENERATOR_H
