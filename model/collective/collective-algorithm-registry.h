/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_ALGORITHM_REGISTRY_H
#define COLLECTIVE_ALGORITHM_REGISTRY_H

#include "ns3/collective-metrics.h"
#include "ns3/name-registry.h"
#include "ns3/ptr.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class CollectiveAlgorithm;

/**
 * \ingroup ai-fabric
 * \brief The collective algorithms by operation and name (allreduce "ring", "tree",
 * ...): the one table CollectiveAlgorithm::Create, the runner's --algorithm and its
 * help read. An algorithm registers itself with one line in its own .cc file:
 * \code
 *   static CollectiveAlgorithmRegistration g_registration({"tree", CollectiveOp::ALLREDUCE,
 *       "double binary tree (NCCL)", [] { return Ptr<CollectiveAlgorithm>(
 *       CreateObject<TreeAllreduce>()); }, false});
 * \endcode
 */
class CollectiveAlgorithmRegistry
{
  public:
    /// One registered algorithm.
    struct Entry
    {
        std::string name;                                 //!< as in --algorithm and GetName()
        CollectiveOp op;                                  //!< the operation it performs
        std::string help;                                 //!< one line: what it does, its source
        std::function<Ptr<CollectiveAlgorithm>()> create; //!< a new algorithm
        bool isDefault;                                   //!< what an empty name picks for op
    };

    /// Add an algorithm (at load time); aborts on an empty or registered name for its
    /// operation, or a second default.
    static void Add(Entry entry);
    /**
     * \param op an operation
     * \param name an algorithm name, or "" for the operation's default
     * \return its entry
     * \throws std::invalid_argument naming the value and the names registered for \p op
     */
    static const Entry& Get(CollectiveOp op, const std::string& name);
    /// \param op an operation \return the names registered for it, sorted
    static std::vector<std::string> GetNames(CollectiveOp op);

  private:
    /// The operation's table, made on first use (registrations run in static
    /// constructors). Defined in the .cc on purpose: an inline one would be a
    /// separate copy in each program that registers into it.
    static NameRegistry<Entry>& Table(CollectiveOp op);
};

/**
 * \ingroup ai-fabric
 * \brief Registers a collective algorithm (see CollectiveAlgorithmRegistry); one
 * static object of it per operation and name.
 */
class CollectiveAlgorithmRegistration
{
  public:
    /// \param entry the algorithm
    explicit CollectiveAlgorithmRegistration(CollectiveAlgorithmRegistry::Entry entry);
};

} // namespace ns3

#endif // COLLECTIVE_ALGORITHM_REGISTRY_H
