// What a channel group's records say before the group is opened: its channels sorted by what they hold, its master
// times, the first values of channels stored as floats, and the raster the times fit. Reads data, changes nothing:
// the open scans many groups side by side and opens them in order.
#pragma once

#include "core/Raster.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "io/LargeArray.h"

#include <optional>
#include <vector>

namespace lv::formats::mdf4 {

// Values looked at to choose the step of a channel stored as floats.
inline constexpr std::uint64_t kFirstValueCount = 65536;

struct GroupScan {
    std::vector<const Channel*> numbers; // channels that read as counts, in their group's order
    std::vector<const Channel*> texts;   // text channels (read as annotations)
    std::size_t skipped = 0;             // channels that hold bytes (not shown)
    const Channel* master = nullptr;
    io::LargeArray<double> times;                 // per record: master time (s after the start), or its number
    std::vector<std::vector<double>> firstValues; // per number: its first values, for channels stored as floats
    std::optional<core::Raster> raster;           // the times' raster, when there are numbers and times fit one
};

class GroupScanner {
public:
    // `runner`: a long group's DZ blocks inflated side by side (nullptr: on this thread).
    explicit GroupScanner(const Mdf4Recording& r, core::TaskRunner* runner = nullptr) : m_r(r), m_runner(runner) {}

    // `group` scanned; nothing read when its channels hold neither numbers nor texts or it has no records. Corrupt
    // when its data holds fewer records than it counts or a channel lies outside its record.
    core::Result<GroupScan> scan(const Mdf4Recording::Group& group) const;

private:
    std::uint64_t mastersAloneFrom(const Mdf4Recording::Group& group, const Channel& master, std::uint64_t from) const;
    core::Status readMasters(const Mdf4Recording::Group& group, const Channel& master, std::uint64_t from,
                             std::span<double> times) const;
    core::Status readLeafMasters(const Mdf4Recording::Group& group, const Channel& master, const Leaf& leaf,
                                 std::vector<std::uint8_t>& columns, std::span<double> times) const;
    template <class Visit>
    core::Status visitRecords(const Mdf4Recording::Group& group, Visit&& visit, std::uint64_t from,
                              std::uint64_t to) const;

    const Mdf4Recording& m_r;
    core::TaskRunner* m_runner;
};

} // namespace lv::formats::mdf4
