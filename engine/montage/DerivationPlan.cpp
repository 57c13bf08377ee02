// The derivation's channels by name, one rate and one grid checked, integer weights found where the factors allow,
// gaps where any channel has one.
#include "montage/DerivationPlan.h"

#include "core/Recording.h"
#include "core/TimeFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::montage {

namespace {

constexpr int kLargestDenominator = 1000; // weights of k/M (M <= this) keep a derivation exact

// The smallest M with M x r whole for every r, or 0.
int commonDenominator(const std::vector<double>& ratios)
{
    for (int m = 1; m <= kLargestDenominator; ++m) {
        const bool whole = std::all_of(ratios.begin(), ratios.end(), [&](double r) {
            const double v = r * m;
            return std::abs(v - std::nearbyint(v)) <= 1e-9 * std::max(1.0, std::abs(v)) && std::abs(v) < 1e9;
        });
        if (whole) return m;
    }
    return 0;
}

std::string hz(double fs) { return core::formatNumber(fs, 6) + " Hz"; }

// The derivation's channels, or the first term that names none, is irregular or has another rate.
core::Result<std::vector<std::size_t>> channelsOf(const core::RecordingInfo& source, const Derivation& d)
{
    const auto refuse = [&](const std::string& why) {
        return core::makeError(core::ErrorCode::InvalidArgument, "derivation " + d.name + ": " + why, source.path);
    };
    if (d.terms.empty()) return refuse("it sums no channel");
    std::vector<std::size_t> channels;
    for (const Term& t : d.terms) {
        const int c = source.channelIndex(t.channel);
        if (c < 0) return refuse("the recording has no channel named " + t.channel);
        const core::ChannelInfo& ch = source.channels[static_cast<std::size_t>(c)];
        if (ch.irregular) return refuse(t.channel + " is sampled at irregular times and has no grid to combine on");
        const core::ChannelInfo& first = channels.empty() ? ch : source.channels[channels.front()];
        if (ch.fs != first.fs)
            return refuse(first.name + " is sampled at " + hz(first.fs) + " and " + ch.name + " at " + hz(ch.fs) +
                          ": channels of different rates cannot be combined");
        channels.push_back(static_cast<std::size_t>(c));
    }
    return channels;
}

// Gaps of the derived channel: wherever one of its channels has a gap (a MEF segment holds gaps of its own, so
// segments are not enough) or no sample; segments between them; the samples it has.
void placeGaps(const core::RecordingInfo& source, const std::vector<std::size_t>& channels, core::ChannelInfo& out)
{
    std::vector<core::TimeRange> gaps;
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = source.channels[c];
        gaps.insert(gaps.end(), ch.gaps.begin(), ch.gaps.end());
        gaps.push_back({out.start, std::min(out.end, ch.start)}); // before its first sample, after its last
        gaps.push_back({std::max(out.start, ch.end), out.end});
    }
    std::sort(gaps.begin(), gaps.end(),
              [](const core::TimeRange& x, const core::TimeRange& y) { return x.start < y.start; });
    for (const core::TimeRange& g : gaps) {
        const core::TimeRange cut{std::max(g.start, out.start), std::min(g.end, out.end)};
        if (cut.start >= cut.end) continue;
        if (!out.gaps.empty() && cut.start <= out.gaps.back().end)
            out.gaps.back().end = std::max(out.gaps.back().end, cut.end);
        else
            out.gaps.push_back(cut);
    }
    core::Uutc at = out.start;
    for (const core::TimeRange& g : out.gaps) {
        if (g.start > at) out.segments.push_back({at, g.start});
        at = g.end;
    }
    if (at < out.end) out.segments.push_back({at, out.end});
    for (const core::TimeRange& s : out.segments) out.sampleCount += core::sampleSpan(out, s).count;
}

} // namespace

core::Result<DerivationPlan> planDerivation(const core::RecordingInfo& source, const Derivation& d)
{
    auto found = channelsOf(source, d);
    if (!found) return found.error();
    const std::vector<std::size_t>& channels = *found;
    const core::ChannelInfo& first = source.channels[channels.front()];
    const core::SampleGrid grid = first.grid();
    const double tolerance = std::max(1.0, 0.01 * 1e6 / first.fs); // us
    std::vector<std::int64_t> shifts;
    std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = source.channels[c];
        const std::int64_t shift = grid.nearestIndex(ch.start);
        if (std::abs(static_cast<double>(grid.timeOf(shift) - ch.start)) > tolerance)
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "derivation " + d.name + ": " + first.name + " and " + ch.name +
                                       " are not sampled on one grid (their samples fall at different times)",
                                   source.path);
        shifts.push_back(shift);
        lo = std::max(lo, shift);
        hi = std::min(hi, shift + ch.gridLength);
    }
    double smallest = std::numeric_limits<double>::infinity();
    for (std::size_t c : channels)
        if (source.channels[c].conversionFactor != 0)
            smallest = std::min(smallest, std::abs(source.channels[c].conversionFactor));
    if (!std::isfinite(smallest)) smallest = 1;
    std::vector<double> ratios;
    DerivationPlan plan;
    core::ChannelInfo& out = plan.channel;
    for (std::size_t k = 0; k < channels.size(); ++k) {
        const core::ChannelInfo& ch = source.channels[channels[k]];
        ratios.push_back(d.terms[k].weight * ch.conversionFactor / smallest);
        out.offset += d.terms[k].weight * ch.offset;
    }
    const int m = commonDenominator(ratios);
    plan.exact = m > 0;
    for (std::size_t k = 0; k < channels.size(); ++k)
        plan.parts.push_back({channels[k], lo - shifts[k],
                              plan.exact ? static_cast<std::int64_t>(std::nearbyint(ratios[k] * m)) : 0,
                              d.terms[k].weight});
    out.name = d.name;
    out.unit = d.unit.empty() ? first.unit : d.unit;
    out.fs = first.fs;
    out.conversionFactor = plan.exact ? smallest / m : smallest / 16;
    out.gridLength = std::max<std::int64_t>(0, hi - lo);
    out.start = grid.timeOf(lo);
    out.end = out.grid().timeOf(out.gridLength);
    placeGaps(source, channels, out);
    for (std::size_t k = 0; k < channels.size(); ++k)
        out.description += (k == 0 ? "" : " + ") + core::formatNumber(d.terms[k].weight, 6) + " x " +
                           source.channels[channels[k]].name;
    return plan;
}

} // namespace lv::montage
