/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FLOW_SIZE_DISTRIBUTION_H
#define FLOW_SIZE_DISTRIBUTION_H

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Empirical flow-size distribution given as a piecewise-linear CDF.
 *
 * The CDF is a list of "bytes cumulative-percent" points (the format of the
 * HPCC-derived simulators' traffic generators). Between two points the CDF is
 * linear, so a sample is the linear interpolation of the inverse CDF at a
 * uniform variate; a first point with percent > 0 is an atom at that size.
 * This is what ns3::EmpiricalRandomVariable does with interpolation on, done
 * here directly so the behaviour does not depend on that class's default
 * (interpolation became opt-in in ns-3.38) and the mean is exact.
 *
 * Built-in CDFs: "websearch" (DCTCP paper, mean 1,711,250 B) and "fbhadoop"
 * (Facebook Hadoop, mean 120,420.75 B); anything else is read as a CDF file.
 *
 * CDF file: one point per line, "bytes percent", blank lines and lines
 * starting with '#' ignored; bytes >= 0 and percent in [0, 100], both
 * non-decreasing; the last point must have percent 100. Violations throw
 * std::invalid_argument naming the file, line number, the text and what is
 * allowed.
 */
class FlowSizeDistribution : public Object
{
  public:
    /// One CDF point: (bytes, cumulative percent in [0, 100]).
    using Point = std::pair<double, double>;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowSizeDistribution();
    ~FlowSizeDistribution() override;

    /**
     * \brief Load a built-in CDF by name ("websearch", "fbhadoop") or a CDF file.
     * \param nameOrPath the name or a file path
     * \throws std::invalid_argument if the file is missing or malformed
     */
    void Load(const std::string& nameOrPath);

    /**
     * \brief Parse CDF text.
     * \param in the text
     * \param sourceName the file name used in error messages
     * \throws std::invalid_argument if malformed
     */
    void Parse(std::istream& in, const std::string& sourceName);

    /**
     * \brief Use these points (validated as a file would be).
     * \param points (bytes, percent) pairs
     * \param sourceName name used in error messages
     * \throws std::invalid_argument if invalid
     */
    void SetPoints(const std::vector<Point>& points, const std::string& sourceName);

    /// \return the CDF points
    const std::vector<Point>& GetPoints() const;

    /// \return the name or path last loaded
    std::string GetSourceName() const;

    /**
     * \return the exact mean in bytes of the piecewise-linear CDF
     *         (sum over segments of probability x segment midpoint, plus the atom)
     */
    double GetMeanBytes() const;

    /// \return the largest size the CDF can produce, in bytes
    double GetMaxBytes() const;

    /**
     * \brief Inverse CDF.
     * \param u a probability in [0, 1)
     * \return the size in bytes (not rounded)
     */
    double InverseCdf(double u) const;

    /**
     * \brief Draw one flow size.
     * \return InverseCdf(U) rounded to the nearest byte, at least 1
     */
    uint64_t Sample();

    /**
     * \brief Round a CDF value to a flow size, as Sample() does.
     * \param bytes a value returned by InverseCdf
     * \return nearest integer, at least 1
     */
    static uint64_t ToFlowSize(double bytes);

    /**
     * \brief Built-in CDF points.
     * \param name "websearch" or "fbhadoop"
     * \return the points, empty if the name is unknown
     */
    static std::vector<Point> BuiltinPoints(const std::string& name);

    /**
     * \brief Assign a fixed random variable stream number.
     * \param stream first stream index
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    void DoDispose() override;

    std::vector<Point> m_points;          //!< CDF points, percent in [0, 100]
    std::vector<double> m_cumulative;     //!< percent / 100, for the inverse CDF search
    std::string m_source;                 //!< name or path, for messages
    Ptr<UniformRandomVariable> m_uniform; //!< the variate behind Sample()
};

} // namespace ns3

#endif // FLOW_SIZE_DISTRIBUTION_H
