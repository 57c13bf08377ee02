// Stacking: channel names made distinct by file-name prefixes, reads passed to the part holding each channel.
#include "convert/StackedRecording.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

// "a" for ".../a.edf", ".../a.mefd", ".../a.mefd.tar".
std::string stemOf(const std::string& path)
{
    std::string name = std::filesystem::path(path).filename().string();
    for (const char* ext : {".mefd.tar", ".mefd", ".timd", ".edf", ".bdf", ".EDF", ".BDF"})
        if (name.size() > std::string(ext).size() && name.ends_with(ext))
            return name.substr(0, name.size() - std::string(ext).size());
    const auto dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

} // namespace

core::Result<std::unique_ptr<StackedRecording>>
StackedRecording::create(std::vector<std::unique_ptr<core::Recording>> parts)
{
    if (parts.empty()) return makeError(ErrorCode::InvalidArgument, "nothing to merge: no recordings given");
    std::unique_ptr<StackedRecording> s(new StackedRecording());
    s->m_parts = std::move(parts);
    for (std::size_t p = 0; p < s->m_parts.size(); ++p) {
        const core::RecordingInfo& part = s->m_parts[p]->info();
        auto name = mergePartName(part, p, "stacking");
        if (!name) return name.error();
        s->m_names.push_back(std::move(*name));
        for (std::size_t c = 0; c < part.channels.size(); ++c) s->m_sources.push_back({p, c});
    }
    const std::vector<std::string> names = s->channelNames();
    core::RecordingInfo& info = s->m_info;
    std::vector<std::string> formats;
    bool any = false;
    for (std::size_t i = 0; i < s->m_sources.size(); ++i) {
        const Source& src = s->m_sources[i];
        core::ChannelInfo ch = s->m_parts[src.part]->info().channels[src.channel];
        if (names[i] != ch.name)
            info.warnings.push_back("channel \"" + ch.name + "\" of " + s->m_names[src.part] + " is written as \"" +
                                    names[i] + "\" (another input has a channel of that name)");
        ch.name = names[i];
        if (ch.timeBase >= 0) ch.timeBase += static_cast<int>(src.part) << 16; // distinct across inputs
        if (ch.gridLength > 0) {
            info.start = any ? std::min(info.start, ch.start) : ch.start;
            info.end = any ? std::max(info.end, ch.end) : ch.end;
            any = true;
        }
        info.channels.push_back(std::move(ch));
    }
    for (std::size_t p = 0; p < s->m_parts.size(); ++p) {
        const core::RecordingInfo& part = s->m_parts[p]->info();
        if (std::find(formats.begin(), formats.end(), part.format) == formats.end()) formats.push_back(part.format);
        for (const std::string& w : part.warnings) info.warnings.push_back(s->m_names[p] + ": " + w);
        if (!any) info.start = p == 0 ? part.start : std::min(info.start, part.start);
        if (!any) info.end = p == 0 ? part.end : std::max(info.end, part.end);
        for (core::Annotation a : part.annotations) {
            if (a.channel) // follows its channel's new name
                for (std::size_t i = 0; i < s->m_sources.size(); ++i)
                    if (s->m_sources[i].part == p && part.channels[s->m_sources[i].channel].name == *a.channel)
                        a.channel = names[i];
            info.annotations.push_back(std::move(a));
        }
    }
    std::stable_sort(info.annotations.begin(), info.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    for (const core::Annotation& a : info.annotations)
        info.start = std::min(info.start, a.time), info.end = std::max(info.end, a.time + a.durationUs);
    info.format = "stacked";
    for (std::size_t i = 0; i < formats.size(); ++i) info.format += (i ? ", " : " (") + formats[i];
    info.format += ")";
    info.path = s->m_names.front();
    return s;
}

// Names held by several inputs get "<stem>:" (and "(k)" after the stem when stems repeat too).
std::vector<std::string> StackedRecording::channelNames() const
{
    std::map<std::string, std::size_t> holders; // name -> inputs holding it
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
        std::vector<std::string> seen;
        for (const core::ChannelInfo& ch : m_parts[p]->info().channels)
            if (std::find(seen.begin(), seen.end(), ch.name) == seen.end()) seen.push_back(ch.name), ++holders[ch.name];
    }
    std::vector<std::string> prefixes;
    std::map<std::string, std::size_t> stems;
    for (const std::string& path : m_names) ++stems[stemOf(path)];
    std::map<std::string, std::size_t> used;
    for (const std::string& path : m_names) {
        const std::string stem = stemOf(path);
        prefixes.push_back(stems[stem] > 1 ? stem + "(" + std::to_string(++used[stem]) + ")" : stem);
    }
    std::vector<std::string> names;
    for (const Source& src : m_sources) {
        const std::string& name = m_parts[src.part]->info().channels[src.channel].name;
        names.push_back(holders[name] > 1 ? prefixes[src.part] + ":" + name : name);
    }
    return names;
}

core::Status StackedRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::vector<std::vector<core::RawSlice>> perPart(m_parts.size());
    std::vector<std::uint64_t> partSamples(m_parts.size(), 0);
    std::uint64_t total = 0;
    for (const core::RawSlice& s : slices) {
        if (s.channel >= m_sources.size())
            return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        const Source& src = m_sources[s.channel];
        perPart[src.part].push_back({src.channel, s.firstSample, s.out});
        partSamples[src.part] += s.out.size();
        total += s.out.size();
    }
    std::uint64_t before = 0;
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
        if (perPart[p].empty()) continue;
        if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "merge cancelled");
        core::ReadControl part = control;
        if (control.progress)
            part.progress = [&control, before, n = partSamples[p], total](std::uint64_t done, std::uint64_t of) {
                const double share = of ? static_cast<double>(done) / static_cast<double>(of) : 1.0;
                control.progress(before + static_cast<std::uint64_t>(share * static_cast<double>(n)), total);
            };
        LV_TRY(m_parts[p]->readRaw(perPart[p], part));
        before += partSamples[p];
    }
    return {};
}

core::Status StackedRecording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& s : slices) {
        if (s.channel >= m_sources.size())
            return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        const Source& src = m_sources[s.channel];
        const core::TimeSlice inner{src.channel, s.firstSample, s.outNs};
        LV_TRY(m_parts[src.part]->readTimes(std::span(&inner, 1), control));
    }
    return {};
}

core::Result<core::SampleSpan> StackedRecording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel >= m_sources.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    return m_parts[m_sources[channel].part]->samplesIn(m_sources[channel].channel, range);
}

std::vector<std::string> StackedRecording::takeWarnings()
{
    std::vector<std::string> all;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        for (std::string& w : m_parts[p]->takeWarnings()) all.push_back(m_names[p] + ": " + std::move(w));
    return all;
}

std::vector<core::DamagedBlock> StackedRecording::takeDamage()
{
    std::vector<core::DamagedBlock> all;
    for (std::size_t p = 0; p < m_parts.size(); ++p)
        for (core::DamagedBlock& d : m_parts[p]->takeDamage())
            for (std::size_t i = 0; i < m_sources.size(); ++i)
                if (m_sources[i].part == p && m_sources[i].channel == d.channel) {
                    all.push_back(d);
                    all.back().channel = i;
                }
    return all;
}

MergeTimeline StackedRecording::timeline() const
{
    MergeTimeline t;
    t.options = {MergeMode::Stack, OverlapPolicy::Error};
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
        const core::RecordingInfo& part = m_parts[p]->info();
        t.inputs.push_back({m_names[p], part.format, {part.start, part.end}});
    }
    for (std::size_t i = 0; i < m_sources.size(); ++i) {
        const core::ChannelInfo& ch = m_info.channels[i];
        const Source& src = m_sources[i];
        MergeTimeline::Channel out{ch.name, ch.fs, ch.unit, {ch.start, ch.end}, {}, ch.gaps, {}};
        if (ch.gridLength > 0)
            out.parts.push_back({src.part, m_parts[src.part]->info().channels[src.channel].name, {ch.start, ch.end}});
        t.channels.push_back(std::move(out));
    }
    t.span = {m_info.start, m_info.end};
    t.warnings = m_info.warnings;
    return t;
}

} // namespace lv::convert
