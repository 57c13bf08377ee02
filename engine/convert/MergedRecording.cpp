// Merging: channel matching, placement and checks when created; reads split over the parts covering a slice.
#include "convert/MergedRecording.h"

#include "convert/MergeIrregular.h"

#include "convert/StackedRecording.h"
#include "core/TimeFormat.h"
#include "formats/RecordingOpener.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

std::string number(double v) { return core::formatNumber(v, 10); }

bool sameRate(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

// The whole number nearest `v` when `v` is one (to rounding noise), else nullopt.
std::optional<std::int64_t> wholeNumber(double v, double tolerance)
{
    if (!std::isfinite(v) || std::abs(v) > 1e15) return std::nullopt;
    const double r = std::nearbyint(v);
    if (std::abs(v - r) > tolerance * std::max(1.0, std::abs(v))) return std::nullopt;
    return static_cast<std::int64_t>(r);
}

} // namespace

core::Result<std::unique_ptr<MergedRecording>>
MergedRecording::create(std::vector<std::unique_ptr<core::Recording>> parts, OverlapPolicy overlap)
{
    auto m = build(std::move(parts), overlap);
    if (!m) return m.error();
    if (overlap == OverlapPolicy::Error)
        if (auto timeline = (*m)->timeline(overlap); timeline.error) return *timeline.error;
    return m;
}

core::Result<MergeTimeline> MergedRecording::plan(std::vector<std::unique_ptr<core::Recording>> parts,
                                                  OverlapPolicy overlap)
{
    auto m = build(std::move(parts), overlap);
    if (!m) return m.error();
    return (*m)->timeline(overlap);
}

core::Result<std::unique_ptr<MergedRecording>>
MergedRecording::build(std::vector<std::unique_ptr<core::Recording>> parts, OverlapPolicy overlap)
{
    if (parts.empty()) return makeError(ErrorCode::InvalidArgument, "nothing to merge: no recordings given");
    std::unique_ptr<MergedRecording> m(new MergedRecording());
    m->m_parts = std::move(parts);
    core::RecordingInfo& info = m->m_info;
    std::vector<std::string> formats;
    std::vector<std::vector<PartChannel>> channels; // per merged channel
    for (std::size_t p = 0; p < m->m_parts.size(); ++p) {
        const core::RecordingInfo& part = m->m_parts[p]->info();
        auto name = mergePartName(part, p, "merging");
        if (!name) return name.error();
        m->m_names.push_back(std::move(*name));
        if (std::find(formats.begin(), formats.end(), part.format) == formats.end()) formats.push_back(part.format);
        info.start = p == 0 ? part.start : std::min(info.start, part.start);
        info.end = p == 0 ? part.end : std::max(info.end, part.end);
        for (const std::string& w : part.warnings) info.warnings.push_back(m->m_names[p] + ": " + w);
        info.annotations.insert(info.annotations.end(), part.annotations.begin(), part.annotations.end());
        for (std::size_t c = 0; c < part.channels.size(); ++c) {
            const core::ChannelInfo& ch = part.channels[c];
            int merged = info.channelIndex(ch.name);
            if (merged < 0) {
                merged = static_cast<int>(info.channels.size());
                core::ChannelInfo fresh;
                fresh.name = ch.name;
                fresh.fs = ch.fs;
                fresh.unit = ch.unit;
                fresh.description = ch.description;
                info.channels.push_back(std::move(fresh));
                channels.emplace_back();
            }
            if (ch.gridLength <= 0) continue; // no samples: nothing to place
            channels[static_cast<std::size_t>(merged)].push_back({p, c, &ch});
        }
    }
    info.format = "merged";
    for (std::size_t i = 0; i < formats.size(); ++i) info.format += (i ? ", " : " (") + formats[i];
    info.format += ")";
    info.path = m->m_names.front();
    std::stable_sort(info.annotations.begin(), info.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    m->m_pieces.resize(info.channels.size());
    m->m_overlaps.resize(info.channels.size());
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        LV_TRY(m->checkChannel(c, channels[c]));
        if (!channels[c].empty() && channels[c].front().info->irregular)
            LV_TRY(m->placeIrregular(c, channels[c], overlap));
        else
            m->placeChannel(c, channels[c], overlap);
    }
    // The span of the merged channels (on the merged grids) and of the annotations; the parts' own spans when
    // no channel holds a sample.
    bool any = false;
    for (const core::ChannelInfo& ch : info.channels) {
        if (ch.gridLength <= 0) continue;
        info.start = any ? std::min(info.start, ch.start) : ch.start;
        info.end = any ? std::max(info.end, ch.end) : ch.end;
        any = true;
    }
    for (const core::Annotation& a : info.annotations)
        info.start = std::min(info.start, a.time), info.end = std::max(info.end, a.time + a.durationUs);
    return m;
}

// Every part of a merged channel must share the first part's rate and unit.
core::Status MergedRecording::checkChannel(std::size_t merged, const std::vector<PartChannel>& parts) const
{
    const core::ChannelInfo& out = m_info.channels[merged];
    if (parts.empty()) return {};
    const PartChannel& first = parts.front();
    for (const PartChannel& p : parts) {
        const core::ChannelInfo& a = *first.info;
        const core::ChannelInfo& b = *p.info;
        if (a.irregular != b.irregular)
            return makeError(ErrorCode::InvalidArgument,
                             "channel \"" + out.name + "\" is sampled at irregular times in " +
                                 fileOf(a.irregular ? first.part : p.part) + " but on a grid in " +
                                 fileOf(a.irregular ? p.part : first.part) +
                                 "; merged parts need one kind per channel");
        if (!a.irregular && !sameRate(a.fs, b.fs))
            return makeError(ErrorCode::InvalidArgument, "channel \"" + out.name + "\" is sampled at " + number(a.fs) +
                                                             " Hz in " + fileOf(first.part) + " but at " +
                                                             number(b.fs) + " Hz in " + fileOf(p.part) +
                                                             "; merged parts need one rate per channel");
        if (a.unit != b.unit)
            return makeError(ErrorCode::Unsupported, "channel \"" + out.name + "\" is in \"" + a.unit + "\" in " +
                                                         fileOf(first.part) + " but in \"" + b.unit + "\" in " +
                                                         fileOf(p.part) + "; merged parts need one unit per channel");
    }
    return {};
}

// Places the parts (convert/MergePlacement), fills in the merged channel, says shifts and resolved overlaps.
void MergedRecording::placeChannel(std::size_t merged, std::vector<PartChannel> parts, OverlapPolicy overlap)
{
    core::ChannelInfo& out = m_info.channels[merged];
    if (parts.empty()) return;
    Placement placed = placeParts(std::move(parts), overlap);
    const std::size_t earliest = placed.fragments.empty() ? 0 : placed.fragments.front().part;
    for (const auto& [part, shift] : placed.shifted)
        m_info.warnings.push_back("channel \"" + out.name + "\" of " + fileOf(part) + " is shifted by " +
                                  std::to_string(shift) + " us onto the grid of " + fileOf(earliest));
    sayKeptOverlaps(out.name, placed.overlaps);
    out.fs = placed.channel.fs;
    out.start = placed.channel.start;
    out.end = placed.channel.end;
    out.gridLength = placed.channel.gridLength;
    out.sampleCount = placed.channel.sampleCount;
    out.segments = std::move(placed.channel.segments);
    out.gaps = std::move(placed.channel.gaps);
    for (const Fragment& f : placed.fragments) {
        Piece piece;
        static_cast<Fragment&>(piece) = f;
        m_pieces[merged].push_back(piece);
    }
    m_overlaps[merged] = std::move(placed.overlaps);
    chooseScale(merged, m_pieces[merged]);
}

void MergedRecording::sayKeptOverlaps(const std::string& channel, const std::vector<Overlap>& overlaps)
{
    for (const Overlap& o : overlaps)
        if (o.kept)
            m_info.warnings.push_back(fileOf(o.earlier) + " and " + fileOf(o.later) + " overlap in channel \"" +
                                      channel + "\" from " + core::formatIso(o.range.start) + " to " +
                                      core::formatIso(o.range.end) + ": the samples of " + fileOf(*o.kept) +
                                      " are kept (" + std::to_string(o.droppedSamples) + " of " +
                                      fileOf(*o.kept == o.earlier ? o.later : o.earlier) + " left out)");
}

std::vector<core::Recording*> MergedRecording::partRecordings() const
{
    std::vector<core::Recording*> parts;
    parts.reserve(m_parts.size());
    for (const auto& p : m_parts) parts.push_back(p.get());
    return parts;
}

// Irregular parts one after another (convert/MergeIrregular); channels sharing their times in every part share them
// merged.
core::Status MergedRecording::placeIrregular(std::size_t merged, std::vector<PartChannel> parts, OverlapPolicy overlap)
{
    std::vector<std::pair<std::size_t, int>> bases;
    bases.reserve(parts.size());
    for (const PartChannel& p : parts) bases.emplace_back(p.part, p.info->timeBase);
    auto placed = placeIrregularParts(std::move(parts), partRecordings(), overlap);
    if (!placed) return placed.error();
    core::ChannelInfo& out = m_info.channels[merged];
    sayKeptOverlaps(out.name, placed->overlaps);
    const core::ChannelInfo& c = placed->channel;
    out.irregular = true;
    out.timeBase = m_timeBases.try_emplace(bases, static_cast<int>(m_timeBases.size())).first->second;
    out.fs = c.fs, out.start = c.start, out.end = c.end;
    out.gridLength = c.gridLength, out.sampleCount = c.sampleCount;
    out.segments = c.segments, out.gaps = c.gaps;
    for (const Fragment& f : placed->fragments) {
        Piece piece;
        static_cast<Fragment&>(piece) = f;
        m_pieces[merged].push_back(piece);
    }
    m_overlaps[merged] = std::move(placed->overlaps);
    if (!m_pieces[merged].empty()) chooseScale(merged, m_pieces[merged]);
    return {};
}

core::Status MergedRecording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& s : slices) {
        if (s.channel >= m_pieces.size() || !m_info.channels[s.channel].irregular) {
            LV_TRY(Recording::readTimes(std::span(&s, 1), control));
            continue;
        }
        const std::int64_t first = s.firstSample, last = s.firstSample + static_cast<std::int64_t>(s.outNs.size());
        for (const Piece& p : m_pieces[s.channel]) {
            const std::int64_t lo = std::max(first, p.offset + p.from), hi = std::min(last, p.offset + p.to);
            if (lo >= hi) continue;
            const core::TimeSlice part{
                p.channel, lo - p.offset,
                s.outNs.subspan(static_cast<std::size_t>(lo - first), static_cast<std::size_t>(hi - lo))};
            LV_TRY(m_parts[p.part]->readTimes(std::span(&part, 1), control));
        }
    }
    return {};
}

core::Result<core::SampleSpan> MergedRecording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel >= m_pieces.size() || !m_info.channels[channel].irregular) return Recording::samplesIn(channel, range);
    std::vector<Fragment> fragments(m_pieces[channel].begin(), m_pieces[channel].end());
    return irregularSamplesIn(fragments, partRecordings(), range);
}

MergeTimeline MergedRecording::timeline(OverlapPolicy overlap) const
{
    MergeTimeline t;
    t.options = {MergeMode::Concat, overlap};
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
        const core::RecordingInfo& part = m_parts[p]->info();
        t.inputs.push_back({m_names[p], part.format, {part.start, part.end}});
    }
    for (std::size_t c = 0; c < m_info.channels.size(); ++c) {
        const core::ChannelInfo& ch = m_info.channels[c];
        MergeTimeline::Channel out{ch.name, ch.fs, ch.unit, {ch.start, ch.end}, {}, ch.gaps, m_overlaps[c]};
        const core::SampleGrid grid = ch.grid();
        for (const Piece& p : m_pieces[c]) {
            const core::ChannelInfo& from = m_parts[p.part]->info().channels[p.channel];
            const core::TimeRange span =
                ch.irregular // its first to last sample (a trimmed part: as a whole)
                    ? core::TimeRange{from.start, from.end}
                    : core::TimeRange{grid.timeOf(p.offset + p.from), grid.timeOf(p.offset + p.to)};
            out.parts.push_back({p.part, from.name, span});
        }
        if (!t.error && overlap == OverlapPolicy::Error && !m_overlaps[c].empty()) {
            const Overlap& o = m_overlaps[c].front();
            t.error =
                makeError(ErrorCode::Unsupported,
                          fileOf(o.earlier) + " and " + fileOf(o.later) + " overlap in channel \"" + ch.name +
                              "\" from " + core::formatIso(o.range.start) + " to " + core::formatIso(o.range.end));
        }
        t.channels.push_back(std::move(out));
    }
    t.span = {m_info.start, m_info.end};
    t.warnings = m_info.warnings;
    return t;
}

// The coarsest exact common scale: a piece's factor divided by the smallest K (1, 2, ... kMaxDivisor), with that
// piece's offset, onto which every piece maps by whole numbers (first pieces in time order preferred); else
// the first piece's scale with the others rounded to it.
void MergedRecording::chooseScale(std::size_t merged, std::vector<Piece>& pieces)
{
    constexpr int kMaxDivisor = 10;
    core::ChannelInfo& out = m_info.channels[merged];
    const auto channelOf = [this](const Piece& p) -> const core::ChannelInfo& {
        return m_parts[p.part]->info().channels[p.channel];
    };
    const auto mapOnto = [&](double factor, double offset, Piece& p) {
        const core::ChannelInfo& ch = channelOf(p);
        p.ratio = ch.conversionFactor / factor;
        p.fraction = (ch.offset - offset) / factor;
        const auto multiplier = wholeNumber(p.ratio, 1e-9);
        const auto shift = wholeNumber(p.fraction, 1e-6);
        p.exact = multiplier && shift && *multiplier != 0 && factor != 0.0;
        if (p.exact) p.multiplier = *multiplier, p.shift = *shift;
        return p.exact;
    };
    for (int divisor = 1; divisor <= kMaxDivisor; ++divisor)
        for (const Piece& k : pieces) {
            const double factor = channelOf(k).conversionFactor / divisor, offset = channelOf(k).offset;
            bool all = true;
            for (Piece& p : pieces) all = mapOnto(factor, offset, p) && all;
            if (all) {
                out.conversionFactor = factor;
                out.offset = offset;
                return;
            }
        }
    const core::ChannelInfo& first = channelOf(pieces.front());
    out.conversionFactor = first.conversionFactor;
    out.offset = first.offset;
    for (Piece& p : pieces)
        if (!mapOnto(first.conversionFactor, first.offset, p))
            m_info.warnings.push_back("channel \"" + out.name + "\": the values of " + fileOf(p.part) + " (steps of " +
                                      number(channelOf(p).conversionFactor) + " " + out.unit +
                                      ") are rounded to the steps of " + fileOf(pieces.front().part) + " (" +
                                      number(first.conversionFactor) + " " + out.unit + "), at most half a step off");
}

core::Status MergedRecording::rescale(const Piece& piece, std::span<std::int32_t> counts) const
{
    if (piece.exact && piece.multiplier == 1 && piece.shift == 0) return {};
    constexpr double lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
    for (std::int32_t& v : counts) {
        if (v == core::kNoSample) continue;
        const double mapped = piece.exact ? static_cast<double>(v) * static_cast<double>(piece.multiplier) +
                                                static_cast<double>(piece.shift)
                                          : std::nearbyint(static_cast<double>(v) * piece.ratio + piece.fraction);
        if (mapped <= lo || mapped > hi)
            return makeError(ErrorCode::Unsupported,
                             "channel \"" + m_parts[piece.part]->info().channels[piece.channel].name +
                                 "\": its counts do not fit 32 bits on the merged channel's scale",
                             fileOf(piece.part));
        v = static_cast<std::int32_t>(mapped);
    }
    return {};
}

core::Status MergedRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    struct Rescale {
        const Piece* piece;
        std::span<std::int32_t> counts;
    };
    std::vector<std::vector<core::RawSlice>> perPart(m_parts.size());
    std::vector<std::uint64_t> partSamples(m_parts.size(), 0);
    std::vector<Rescale> rescales;
    std::uint64_t total = 0;
    for (const core::RawSlice& s : slices) {
        if (s.channel >= m_pieces.size())
            return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        std::fill(s.out.begin(), s.out.end(), core::kNoSample);
        const std::int64_t first = s.firstSample, last = s.firstSample + static_cast<std::int64_t>(s.out.size());
        for (const Piece& p : m_pieces[s.channel]) {
            const std::int64_t lo = std::max(first, p.offset + p.from), hi = std::min(last, p.offset + p.to);
            if (lo >= hi) continue;
            const auto out = s.out.subspan(static_cast<std::size_t>(lo - first), static_cast<std::size_t>(hi - lo));
            perPart[p.part].push_back(core::RawSlice{p.channel, lo - p.offset, out});
            partSamples[p.part] += out.size();
            total += out.size();
            rescales.push_back({&p, out});
        }
    }
    std::uint64_t before = 0;
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
        if (perPart[p].empty()) continue;
        if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "merge cancelled");
        core::ReadControl part = control;
        if (control.progress)
            part.progress = [&control, before, n = partSamples[p], total](std::uint64_t done, std::uint64_t of) {
                const std::uint64_t share =
                    of ? static_cast<std::uint64_t>(static_cast<double>(n) * static_cast<double>(done) /
                                                    static_cast<double>(of))
                       : n;
                control.progress(before + std::min(share, n), total);
            };
        LV_TRY(m_parts[p]->readRaw(perPart[p], part));
        before += partSamples[p];
        if (control.progress) control.progress(before, total);
    }
    for (const Rescale& r : rescales) LV_TRY(rescale(*r.piece, r.counts));
    return {};
}

std::vector<std::string> MergedRecording::takeWarnings()
{
    std::vector<std::string> all;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        for (std::string& w : m_parts[p]->takeWarnings()) all.push_back(fileOf(p) + ": " + std::move(w));
    return all;
}

std::vector<core::DamagedBlock> MergedRecording::takeDamage()
{
    std::vector<core::DamagedBlock> all;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        for (const core::DamagedBlock& d : m_parts[p]->takeDamage())
            for (std::size_t c = 0; c < m_pieces.size(); ++c)
                for (const Piece& piece : m_pieces[c]) {
                    if (piece.part != p || piece.channel != d.channel) continue;
                    const std::int64_t from = std::max(d.firstSample, piece.from);
                    const std::int64_t to = std::min(d.firstSample + d.sampleCount, piece.to);
                    if (from >= to) continue; // the part's samples there were left out (an overlap)
                    all.push_back(d);
                    all.back().channel = c;
                    all.back().firstSample = piece.offset + from;
                    all.back().sampleCount = to - from;
                }
    return all;
}

namespace {

core::Result<std::vector<std::unique_ptr<core::Recording>>>
openParts(const std::vector<std::string>& paths, const std::string& password, const std::string& snapshotDirectory)
{
    std::vector<std::unique_ptr<core::Recording>> parts;
    for (const std::string& path : paths) {
        auto part = formats::openRecording({path, password, snapshotDirectory});
        if (!part) return part.error();
        parts.push_back(std::move(*part));
    }
    return parts;
}

} // namespace

core::Result<std::unique_ptr<core::Recording>> openMerged(const std::vector<std::string>& paths,
                                                          const std::string& password,
                                                          const std::string& snapshotDirectory,
                                                          const MergeOptions& options)
{
    auto parts = openParts(paths, password, snapshotDirectory);
    if (!parts) return parts.error();
    if (options.mode == MergeMode::Stack) {
        auto stacked = StackedRecording::create(std::move(*parts));
        if (!stacked) return stacked.error();
        return std::unique_ptr<core::Recording>(std::move(*stacked));
    }
    auto merged = MergedRecording::create(std::move(*parts), options.overlap);
    if (!merged) return merged.error();
    return std::unique_ptr<core::Recording>(std::move(*merged));
}

core::Result<MergeTimeline> planMerge(const std::vector<std::string>& paths, const std::string& password,
                                      const std::string& snapshotDirectory, const MergeOptions& options)
{
    auto parts = openParts(paths, password, snapshotDirectory);
    if (!parts) return parts.error();
    if (options.mode == MergeMode::Stack) {
        auto stacked = StackedRecording::create(std::move(*parts));
        if (!stacked) return stacked.error();
        return (*stacked)->timeline();
    }
    return MergedRecording::plan(std::move(*parts), options.overlap);
}

} // namespace lv::convert
