// A channel group's sample reduction (SR) as stored block extrema: which reduction can stand for the minimum and
// maximum of blocks of records, the records each of its intervals covers, a channel's extremes over intervals.
#pragma once

#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lv::formats::mdf4 {

// One SR read whole: its K records of three sub-records (mean, minimum, maximum), each laid out as the channel
// group's data bytes (the master's mean is the interval's start time), and the records each interval covers.
struct ReductionData {
    // Interval k covers records [firstRecord[k], firstRecord[k + 1]), the last one to the group's end; ascending.
    std::vector<std::int64_t> firstRecord;
    std::vector<std::uint8_t> records;
    std::uint32_t dataBytes = 0;

    std::size_t intervals() const { return firstRecord.size(); }
    const std::uint8_t* minimum(std::size_t k) const { return records.data() + (3 * k + 1) * dataBytes; }
    const std::uint8_t* maximum(std::size_t k) const { return records.data() + (3 * k + 2) * dataBytes; }
};

// The reduction of `cg` that block extrema come from: one over time without invalidation bytes, its data whole and
// of the size its count says, each interval's start (the master's mean) within `tolerance` (s) of a record's time
// in `times` (the group's master times, s), the first at the first record, each later than the last. Of those, the
// finest whose intervals hold kReductionRecords records on average, else the coarsest. nullopt when there is none;
// `why` then says why one present was not used.
std::optional<ReductionData> chooseReduction(const io::ByteSource& file, const ChannelGroup& cg, const Channel& master,
                                             std::span<const double> times, double tolerance, std::string& why);

inline constexpr std::int64_t kReductionRecords = 64;

// Channel c's least and greatest count over intervals [k0, k1) of `r`: its raw integers (read as counts), or its
// physical values rounded to multiples of `step` (quantized). nullopt when they cannot stand for the decoded counts:
// a conversion other than identity or linear, an invalidation bit, a virtual channel, a count outside int32.
std::optional<std::pair<std::int32_t, std::int32_t>>
reducedCounts(const ReductionData& r, const Channel& c, bool quantized, double step, std::size_t k0, std::size_t k1);

} // namespace lv::formats::mdf4
