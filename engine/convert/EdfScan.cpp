// Scanning runs: present stretches close a channel's open missing run and mark their records; a read span takes
// a vectorisable extrema pass first and walks sample by sample only when it holds a missing sample.
#include "convert/EdfScan.h"

#include "core/BlockSource.h"

#include <algorithm>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

EdfScanner::EdfScanner(const EdfPlan& plan) : m_plan(plan), m_state(plan.channels.size())
{
    m_scan.channels.resize(plan.channels.size());
    m_scan.hasSamples.assign(static_cast<std::size_t>(plan.records), false);
}

void EdfScanner::present(std::size_t c, std::int64_t from, std::int64_t to, std::int32_t minimum, std::int32_t maximum)
{
    if (from >= to) return;
    State& s = m_state[c];
    EdfChannelScan& scan = m_scan.channels[c];
    if (from > s.at && s.runStart < 0) s.runStart = s.at; // skipped samples are missing
    if (s.runStart >= 0) scan.missing.emplace_back(s.runStart, from), s.runStart = -1;
    scan.minimum = std::min(scan.minimum, minimum);
    scan.maximum = std::max(scan.maximum, maximum);
    const std::int64_t per = m_plan.channels[c].perRecord;
    for (std::int64_t r = from / per; r <= (to - 1) / per && r < m_plan.records; ++r)
        m_scan.hasSamples[static_cast<std::size_t>(r)] = true;
    s.at = to;
}

void EdfScanner::missing(std::size_t c, std::int64_t from, std::int64_t to)
{
    if (from >= to) return;
    State& s = m_state[c];
    if (s.runStart < 0) s.runStart = std::min(from, s.at);
    s.at = to;
}

void EdfScanner::samples(std::size_t c, std::int64_t from, std::span<const std::int32_t> values)
{
    std::int32_t lo = std::numeric_limits<std::int32_t>::max(), hi = std::numeric_limits<std::int32_t>::min();
    for (std::int32_t v : values) lo = std::min(lo, v), hi = std::max(hi, v);
    const auto n = static_cast<std::int64_t>(values.size());
    if (n == 0) return;
    if (lo != core::kNoSample) return present(c, from, from + n, lo, hi);
    for (std::int64_t i = 0; i < n;) { // runs of missing and present samples
        std::int64_t j = i;
        const bool gap = values[static_cast<std::size_t>(i)] == core::kNoSample;
        lo = std::numeric_limits<std::int32_t>::max(), hi = std::numeric_limits<std::int32_t>::min();
        for (; j < n && (values[static_cast<std::size_t>(j)] == core::kNoSample) == gap; ++j)
            lo = std::min(lo, values[static_cast<std::size_t>(j)]),
            hi = std::max(hi, values[static_cast<std::size_t>(j)]);
        if (gap)
            missing(c, from + i, from + j);
        else
            present(c, from + i, from + j, lo, hi);
        i = j;
    }
}

void EdfScanner::records(std::int64_t first, std::int64_t count, const std::vector<std::vector<std::int32_t>>& data)
{
    for (std::size_t c = 0; c < m_plan.channels.size(); ++c) {
        samples(c, first * m_plan.channels[c].perRecord, data[c]); // records skipped since the last call: missing
    }
    m_fedRecords = first + count;
}

EdfScan EdfScanner::finish()
{
    for (std::size_t c = 0; c < m_plan.channels.size(); ++c) {
        const std::int64_t end = m_plan.records * m_plan.channels[c].perRecord;
        missing(c, m_state[c].at, end);
        State& s = m_state[c];
        if (s.runStart >= 0) m_scan.channels[c].missing.emplace_back(s.runStart, end), s.runStart = -1;
    }
    return m_scan;
}

core::Status scanEdfRecords(core::Recording& recording, const EdfPlan& plan, EdfScan& out,
                            std::vector<core::DamagedBlock>& damage, const core::ReadControl& control,
                            std::uint64_t& done, std::uint64_t total)
{
    EdfScanner scanner(plan);
    std::vector<std::vector<std::int32_t>> data(plan.channels.size());
    const std::int64_t step = edfChunkRecords(plan);
    for (std::int64_t r = 0; r < plan.records; r += step) {
        const std::int64_t n = std::min(step, plan.records - r);
        LV_TRY(readEdfRecords(recording, plan, r, n, data, control));
        scanner.records(r, n, data);
        done += static_cast<std::uint64_t>(n);
        if (control.progress) control.progress(done, total);
        if (control.cancel && control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    out = scanner.finish();
    for (core::DamagedBlock& d : recording.takeDamage()) damage.push_back(std::move(d));
    return {};
}

namespace {

// Feeds channel c's blocks within the plan's range: stored extrema for whole blocks, decoded samples for cut ones.
bool predictChannel(const core::BlockSource& source, std::size_t c, const EdfChannel& ch, const core::ChannelInfo& info,
                    std::int64_t records, EdfScanner& scanner, const core::ReadControl& control)
{
    const std::int64_t lo = ch.base, hi = ch.base + records * ch.perRecord;
    const std::int64_t from = std::max<std::int64_t>(lo, 0), to = std::min(hi, info.gridLength);
    std::vector<std::int32_t> decoded;
    bool ok = true;
    const bool visited = source.visitBlocks(ch.source, from, to, [&](std::size_t index, const core::BlockSpan& b) {
        const std::int64_t a = std::max(b.first, from), e = std::min(b.first + std::int64_t{b.count}, to);
        if (a >= e) return true;
        if (!b.hasExtrema) return ok = false;
        if (a == b.first && e == b.first + std::int64_t{b.count}) {
            scanner.present(c, a - lo, e - lo, b.minimum, b.maximum);
            return true;
        }
        decoded.assign(b.count, core::kNoSample);
        if (!source.decodeBlock(ch.source, index, decoded, control).ok()) return ok = false;
        scanner.samples(
            c, a - lo,
            std::span(decoded).subspan(static_cast<std::size_t>(a - b.first), static_cast<std::size_t>(e - a)));
        return true;
    });
    return visited && ok;
}

} // namespace

std::optional<EdfScan> predictEdfScan(core::Recording& recording, const EdfPlan& plan, const core::ReadControl& control)
{
    const core::BlockSource* source = recording.blockSource();
    if (!source || !source->storesExtrema()) return std::nullopt;
    EdfScanner scanner(plan);
    for (std::size_t c = 0; c < plan.channels.size(); ++c) {
        const EdfChannel& ch = plan.channels[c];
        if (!predictChannel(*source, c, ch, recording.info().channels[ch.source], plan.records, scanner, control))
            return std::nullopt;
    }
    return scanner.finish();
}

std::vector<core::Annotation> edfGapAnnotations(const EdfPlan& plan, const EdfScan& scan,
                                                const core::RecordingInfo& info)
{
    std::vector<core::Annotation> gaps;
    for (std::size_t c = 0; c < plan.channels.size(); ++c) {
        const EdfChannel& ch = plan.channels[c];
        for (const auto& [first, end] : scan.channels[c].missing) {
            const core::Uutc a = edfSampleTime(plan, ch, first), b = edfSampleTime(plan, ch, end);
            gaps.push_back({a, b - a, "Gap", "Gap", info.channels[ch.source].name});
        }
    }
    return gaps;
}

} // namespace lv::convert
