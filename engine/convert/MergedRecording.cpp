// Merging: channel matching, placement and checks when created; reads split over the parts covering a slice.
#include "convert/MergedRecording.h"

#include "core/TimeFormat.h"
#include "formats/RecordingOpener.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

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
MergedRecording::create(std::vector<std::unique_ptr<core::Recording>> parts)
{
    if (parts.empty()) return makeError(ErrorCode::InvalidArgument, "nothing to merge: no recordings given");
    std::unique_ptr<MergedRecording> m(new MergedRecording());
    m->m_parts = std::move(parts);
    core::RecordingInfo& info = m->m_info;
    std::vector<std::string> formats;
    for (std::size_t p = 0; p < m->m_parts.size(); ++p) {
        const core::RecordingInfo& part = m->m_parts[p]->info();
        m->m_names.push_back(part.path.empty() ? "part " + std::to_string(p + 1) : part.path);
        if (!part.timesKnown)
            return makeError(ErrorCode::Unsupported,
                             "its times are relative to its start (the level-2 password would give them); merging "
                             "needs true times",
                             m->m_names[p]);
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
                m->m_pieces.emplace_back();
            }
            if (ch.gridLength <= 0) continue; // no samples: nothing to place
            Piece piece;
            piece.part = p;
            piece.channel = c;
            piece.length = ch.gridLength;
            m->m_pieces[static_cast<std::size_t>(merged)].push_back(piece);
        }
    }
    info.format = "merged";
    for (std::size_t i = 0; i < formats.size(); ++i) info.format += (i ? ", " : " (") + formats[i];
    info.format += ")";
    info.path = m->m_names.front();
    std::stable_sort(info.annotations.begin(), info.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    for (std::size_t c = 0; c < info.channels.size(); ++c) LV_TRY(m->placeChannel(c, m->m_pieces[c]));
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

// Checks rate and unit, orders the pieces in time, places them on the merged grid, refuses overlaps, and fills
// in the merged channel's times, counts, segments and gaps.
core::Status MergedRecording::placeChannel(std::size_t merged, std::vector<Piece>& pieces)
{
    core::ChannelInfo& out = m_info.channels[merged];
    if (pieces.empty()) return {};
    const auto partChannel = [this](const Piece& p) -> const core::ChannelInfo& {
        return m_parts[p.part]->info().channels[p.channel];
    };
    const Piece& first = pieces.front();
    for (const Piece& p : pieces) {
        const core::ChannelInfo& a = partChannel(first);
        const core::ChannelInfo& b = partChannel(p);
        if (!sameRate(a.fs, b.fs))
            return makeError(ErrorCode::InvalidArgument, "channel \"" + out.name + "\" is sampled at " + number(a.fs) +
                                                             " Hz in " + fileOf(first.part) + " but at " +
                                                             number(b.fs) + " Hz in " + fileOf(p.part) +
                                                             "; merged parts need one rate per channel");
        if (a.unit != b.unit)
            return makeError(ErrorCode::Unsupported, "channel \"" + out.name + "\" is in \"" + a.unit + "\" in " +
                                                         fileOf(first.part) + " but in \"" + b.unit + "\" in " +
                                                         fileOf(p.part) + "; merged parts need one unit per channel");
    }
    std::stable_sort(pieces.begin(), pieces.end(),
                     [&](const Piece& a, const Piece& b) { return partChannel(a).start < partChannel(b).start; });
    out.fs = partChannel(pieces.front()).fs;
    out.start = partChannel(pieces.front()).start;
    const core::SampleGrid grid = out.grid();
    std::int64_t end = 0;        // merged grid index after the last placed sample
    const Piece* last = nullptr; // the placed piece that ends latest
    for (Piece& p : pieces) {
        const core::ChannelInfo& ch = partChannel(p);
        if (last) {
            const core::ChannelInfo& prev = partChannel(*last);
            if (ch.start < prev.end)
                return makeError(ErrorCode::Unsupported, fileOf(last->part) + " and " + fileOf(p.part) +
                                                             " overlap in channel \"" + out.name + "\" from " +
                                                             core::formatIso(ch.start) + " to " +
                                                             core::formatIso(std::min(prev.end, ch.end)));
        }
        p.offset = grid.nearestIndex(ch.start);
        if (p.offset < end) // on the grid the part starts inside its predecessor's last sample period
            return makeError(ErrorCode::Unsupported, fileOf(last->part) + " and " + fileOf(p.part) +
                                                         " overlap in channel \"" + out.name + "\" from " +
                                                         core::formatIso(grid.timeOf(p.offset)) + " to " +
                                                         core::formatIso(grid.timeOf(end)));
        const core::Uutc placed = grid.timeOf(p.offset);
        if (std::abs(placed - ch.start) > 1)
            m_info.warnings.push_back("channel \"" + out.name + "\" of " + fileOf(p.part) + " is shifted by " +
                                      std::to_string(placed - ch.start) + " us onto the grid of " +
                                      fileOf(pieces.front().part));
        if (last && p.offset > end) out.gaps.push_back({grid.timeOf(end), placed});
        const core::SampleGrid own = ch.grid();
        const auto toMerged = [&](core::Uutc t) { return grid.timeOf(p.offset + own.nearestIndex(t)); };
        for (const core::TimeRange& g : ch.gaps) out.gaps.push_back({toMerged(g.start), toMerged(g.end)});
        for (const core::TimeRange& s : ch.segments) out.segments.push_back({toMerged(s.start), toMerged(s.end)});
        out.sampleCount += ch.sampleCount;
        end = p.offset + p.length;
        last = &p;
    }
    out.gridLength = end;
    out.end = grid.timeOf(end);
    chooseScale(merged, pieces);
    return {};
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
            const std::int64_t lo = std::max(first, p.offset), hi = std::min(last, p.offset + p.length);
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
        for (core::DamagedBlock& d : m_parts[p]->takeDamage())
            for (std::size_t c = 0; c < m_pieces.size(); ++c)
                for (const Piece& piece : m_pieces[c])
                    if (piece.part == p && piece.channel == d.channel) {
                        all.push_back(d);
                        all.back().channel = c;
                        all.back().firstSample += piece.offset;
                    }
    return all;
}

core::Result<std::unique_ptr<MergedRecording>>
openMerged(const std::vector<std::string>& paths, const std::string& password, const std::string& snapshotDirectory)
{
    std::vector<std::unique_ptr<core::Recording>> parts;
    for (const std::string& path : paths) {
        auto part = formats::openRecording({path, password, snapshotDirectory});
        if (!part) return part.error();
        parts.push_back(std::move(*part));
    }
    return MergedRecording::create(std::move(parts));
}

} // namespace lv::convert
