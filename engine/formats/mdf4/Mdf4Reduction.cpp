// Sample reductions read whole at open (they are small), checked against the master times, then per channel and
// interval their minimum and maximum sub-records as counts.
#include "formats/mdf4/Mdf4Reduction.h"

#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Stream.h"

#include <algorithm>
#include <cmath>

namespace lv::formats::mdf4 {

namespace {

constexpr std::uint64_t kMaxReductionBytes = std::uint64_t{64} << 20;

double masterTime(const Channel& master, const std::uint8_t* record)
{
    const double raw = rawValue(master, record);
    return master.hasConversion ? convert(*master.conversion, raw) : raw;
}

// The reduction's intervals in records, or why they cannot be had.
std::optional<ReductionData> readOne(const io::ByteSource& file, const ChannelGroup& cg, const Reduction& sr,
                                     const Channel& master, std::span<const double> times, double tolerance,
                                     std::string& why)
{
    if (sr.syncType != 1 || (sr.flags & 1u)) {
        why = sr.syncType != 1 ? "it is not over time" : "its invalidation bytes are not read";
        return std::nullopt;
    }
    const std::uint64_t recordBytes = std::uint64_t{3} * cg.dataBytes;
    if (sr.cycleCount == 0 || sr.cycleCount > cg.cycleCount || recordBytes == 0) {
        why = "it counts " + std::to_string(sr.cycleCount) + " intervals";
        return std::nullopt;
    }
    auto stream = indexReductionStream(file, sr.dataLink, kMaxReductionBytes);
    if (!stream || stream->bytes != sr.cycleCount * recordBytes) {
        why = stream ? "its data holds " + std::to_string(stream->bytes) + " bytes, not " +
                           std::to_string(sr.cycleCount * recordBytes)
                     : stream.error().message;
        return std::nullopt;
    }
    ReductionData r;
    r.dataBytes = cg.dataBytes;
    r.records.resize(stream->bytes);
    if (core::Status read = readStreamRange(file, *stream, 0, r.records); !read.ok()) {
        why = read.error().message;
        return std::nullopt;
    }
    for (std::size_t k = 0; k < sr.cycleCount; ++k) {
        // Each interval starts at a record's time (the first interval at the first record's): a writer that meant
        // something else by the master's mean (the intervals' middles) is not taken at its word.
        const double start = masterTime(master, r.records.data() + 3 * k * r.dataBytes);
        const auto first = std::lower_bound(times.begin(), times.end(), start - tolerance) - times.begin();
        if (!std::isfinite(start) || first >= std::ssize(times) || (k > 0 && first <= r.firstRecord.back()) ||
            (k == 0 && first != 0) || std::abs(times[static_cast<std::size_t>(first)] - start) > tolerance) {
            why = "its interval " + std::to_string(k) + " does not start at a record";
            return std::nullopt;
        }
        r.firstRecord.push_back(first);
    }
    return r;
}

} // namespace

std::optional<ReductionData> chooseReduction(const io::ByteSource& file, const ChannelGroup& cg, const Channel& master,
                                             std::span<const double> times, double tolerance, std::string& why)
{
    if (master.kind != ChannelKind::Master || master.hasInvalidationBit() || master.allInvalid()) return std::nullopt;
    // Fine enough ones before the others; of those the most intervals, of the others the fewest.
    const auto rank = [&](const ReductionData& x) {
        const std::ptrdiff_t n = std::ssize(x.firstRecord);
        return std::ssize(times) / n >= kReductionRecords ? n : -n;
    };
    std::optional<ReductionData> best;
    for (const Reduction& sr : cg.reductions) {
        std::string problem;
        std::optional<ReductionData> r = readOne(file, cg, sr, master, times, tolerance, problem);
        if (!r) {
            if (why.empty()) why = problem;
            continue;
        }
        if (!best || rank(*r) > rank(*best)) best = std::move(r);
    }
    if (best) why.clear();
    return best;
}

std::optional<std::pair<std::int32_t, std::int32_t>>
reducedCounts(const ReductionData& r, const Channel& c, bool quantized, double step, std::size_t k0, std::size_t k1)
{
    const bool linear = !c.hasConversion || c.conversion->kind == ConversionKind::Identity ||
                        c.conversion->kind == ConversionKind::Linear;
    if (!linear || c.hasInvalidationBit() || c.allInvalid() || c.kind == ChannelKind::VirtualData || k0 >= k1 ||
        (quantized && !(step > 0)))
        return std::nullopt;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t k = k0; k < k1; ++k)
        for (const std::uint8_t* sub : {r.minimum(k), r.maximum(k)}) {
            double v = rawValue(c, sub);
            if (quantized) v = std::round((c.hasConversion ? convert(*c.conversion, v) : v) / step);
            lo = std::min(lo, v), hi = std::max(hi, v); // a falling conversion swaps them: both are taken
        }
    if (!(lo >= -2147483647.0 && hi <= 2147483647.0)) return std::nullopt; // NaN too
    return std::pair{static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi)};
}

} // namespace lv::formats::mdf4
