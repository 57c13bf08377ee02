// What an EDF+/BDF+ export must know of the samples before it writes the header: each channel's extrema and runs
// of missing samples, and which records hold a sample. Found by a pass over the records, or predicted from a
// block index's stored extrema and covered ranges; the write pass scans what it writes to check a prediction.
#pragma once

#include "convert/EdfPlan.h"
#include "core/Recording.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace lv::convert {

struct EdfChannelScan {
    std::int32_t minimum = std::numeric_limits<std::int32_t>::max(); // > maximum: no sample
    std::int32_t maximum = std::numeric_limits<std::int32_t>::min();
    std::vector<std::pair<std::int64_t, std::int64_t>> missing; // runs [first, end), samples counted from record 0

    bool operator==(const EdfChannelScan&) const = default;
};

struct EdfScan {
    std::vector<EdfChannelScan> channels;
    std::vector<bool> hasSamples; // per record

    bool operator==(const EdfScan&) const = default;
};

// Builds an EdfScan from each channel's samples fed in order, from sample 0 of record 0 to the plan's end.
class EdfScanner {
public:
    explicit EdfScanner(const EdfPlan& plan);

    // Samples [from, to) of channel c are all present, with these extrema.
    void present(std::size_t c, std::int64_t from, std::int64_t to, std::int32_t minimum, std::int32_t maximum);
    // Samples [from, to) of channel c are missing.
    void missing(std::size_t c, std::int64_t from, std::int64_t to);
    // Samples from `from` on of channel c, as read (kNoSample where missing).
    void samples(std::size_t c, std::int64_t from, std::span<const std::int32_t> values);
    // Records [first, first + count) of every channel, as readEdfRecords gives them.
    void records(std::int64_t first, std::int64_t count, const std::vector<std::vector<std::int32_t>>& data);
    // Every channel up to the plan's end is missing from where it was left.
    EdfScan finish();

    std::int64_t fedRecords() const { return m_fedRecords; }

private:
    struct State {
        std::int64_t at = 0;        // next sample
        std::int64_t runStart = -1; // open run of missing samples
    };
    const EdfPlan& m_plan;
    EdfScan m_scan;
    std::vector<State> m_state;
    std::int64_t m_fedRecords = 0;
};

// Pass 1 of the exact path: reads every record; the reader's damaged blocks (read as missing) are added to
// `damage`. Progress: records read of `total`, starting at `done`.
core::Status scanEdfRecords(core::Recording& recording, const EdfPlan& plan, EdfScan& out,
                            std::vector<core::DamagedBlock>& damage, const core::ReadControl& control,
                            std::uint64_t& done, std::uint64_t total);

// The scan predicted from the recording's block index (each block's stored extrema and grid range; blocks the
// plan's range cuts are decoded), without reading the rest: nullopt when there is no index with extrema, or a
// block fails to decode. Blocks may hold NaN samples the index does not show, so the writer checks what it
// writes against the prediction.
std::optional<EdfScan> predictEdfScan(core::Recording& recording, const EdfPlan& plan,
                                      const core::ReadControl& control);

// One "Gap" annotation per missing run of each channel (channel order, runs in time order).
std::vector<core::Annotation> edfGapAnnotations(const EdfPlan& plan, const EdfScan& scan,
                                                const core::RecordingInfo& info);

} // namespace lv::convert
