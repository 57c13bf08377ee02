// Per channel, what each column of the whole recording holds (data, data not yet checked for NaN samples, gap, NaN
// run), computed off the UI thread from the viewing engine without decoding, and drawn into an image there too.
#pragma once

#include "GapBands.h"
#include "Theme.h"

#include "core/TaskRunner.h"

#include <QImage>
#include <cstdint>
#include <vector>

namespace lv::view {
class ViewSession;
}

namespace lv::widgets {

// In drawing order: a later state wins a column where several lie.
enum class Coverage : std::uint8_t {
    None,      // the channel has not started or has ended
    Data,      // samples, none of them NaN
    Unchecked, // samples known by their blocks' stored extrema only: NaN samples not yet known
    Gap,       // some time of the column without samples (a recording pause)
    NaN,       // a NaN run or the channel's own gap (what the plot draws in orange)
};

struct CoverageMap {
    std::uint64_t id = 0;
    core::TimeRange range; // the recording; column k covers [timeOf(k), timeOf(k + 1))
    std::size_t columns = 0;
    std::vector<std::vector<Coverage>> channels; // [channel][column]
    bool pyramidLoaded = false;                  // computed after the saved pyramid was read
    core::Uutc timeOf(std::size_t column) const;
    bool complete() const; // no Unchecked column: the pyramid knows every block's NaN samples
};

// Stored block extrema (ViewSession::envelope with a smear that decodes nothing) give data and gaps, the channel's
// own gaps and the pyramid's bins NaN runs. Empty when cancelled. Not on the UI thread.
CoverageMap computeCoverage(view::ViewSession& session, const GapBands& bands, std::size_t columns,
                            const core::CancelToken& cancel);
// One row per channel (at least one pixel, later channels over earlier ones when rows are thinner).
QImage renderCoverage(const CoverageMap& map, QSize size, const Theme& theme);

} // namespace lv::widgets
