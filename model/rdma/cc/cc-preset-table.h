/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AI_FABRIC_CC_PRESET_TABLE_H
#define AI_FABRIC_CC_PRESET_TABLE_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ai-fabric
 * The named parameter sets of one congestion-control algorithm: per preset, the
 * attribute values of the sender's algorithm and (optionally) of the switches' ECN
 * marker. The first preset is the one the algorithm's attribute defaults equal. A class
 * keeps one static table; its GetPresetNames/GetPreset/GetSwitchPreset read it, so a
 * preset is added by one row and an unknown name is refused in one place.
 */
class CcPresetTable
{
  public:
    using Values = std::vector<std::pair<std::string, std::string>>;

    /// One preset: its name, the sender's values and the switches' values.
    struct Row
    {
        std::string name;
        Values sender;
        Values switches;
    };

    /**
     * \param algorithm the algorithm's name in error messages ("DCQCN")
     * \param rows the presets, the default first
     */
    CcPresetTable(std::string algorithm, std::vector<Row> rows);

    /// The preset names in table order.
    std::vector<std::string> GetNames() const;
    /// The first preset's name.
    const std::string& GetDefaultName() const;
    /// The sender's values of \p name; std::invalid_argument naming the allowed presets.
    const Values& GetSender(const std::string& name) const;
    /// The switches' values of \p name; std::invalid_argument naming the allowed presets.
    const Values& GetSwitches(const std::string& name) const;

    /// \p common followed by \p extra (presets that share most values).
    static Values Join(Values common, const Values& extra);

  private:
    const Row& Find(const std::string& name) const;

    std::string m_algorithm;
    std::vector<Row> m_rows;
};

} // namespace ns3

#endif // AI_FABRIC_CC_PRESET_TABLE_H
