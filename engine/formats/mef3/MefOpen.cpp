// openMef3: walks the session, checks passwords and headers, places blocks, gathers records as annotations.
#include "formats/mef3/MefLoad.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Snapshot.h"

namespace lv::formats::mef3 {

namespace {

// Without the recording time offset, times are shifted to start at zero and flagged as relative.
void makeTimesRelative(core::RecordingInfo& info, std::vector<LoadedChannel>& channels, OpenWarnings& warnings)
{
    const core::Uutc origin = info.start;
    auto shift = [origin](core::TimeRange& r) { r.start -= origin, r.end -= origin; };
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        core::ChannelInfo& ch = info.channels[c];
        ch.start -= origin;
        ch.end -= origin;
        for (auto& r : ch.gaps) shift(r);
        for (auto& r : ch.segments) shift(r);
        for (BlockRef& b : channels[c].detail.blocks) b.startTime -= origin;
    }
    for (core::Annotation& a : info.annotations) a.time -= origin;
    info.start = 0;
    info.end -= origin;
    info.timesKnown = false;
    warnings.times.push_back("the recording time offset is protected by the level-2 password: times are "
                             "relative to the recording start, not true dates");
}

// Every channel and record of the session from its files.
core::Status loadSession(OpenState& s, core::RecordingInfo& info, std::vector<LoadedChannel>& channels,
                         OpenWarnings& warnings)
{
    for (const ChannelFiles& c : s.layout.channels) {
        auto loaded = loadChannel(s, c);
        if (!loaded) return loaded.error();
        channels.push_back(std::move(*loaded));
    }
    warnings.layout = std::move(s.layout.warnings);
    std::vector<core::Annotation> sessionAnnotations;
    LV_TRY(loadRecords(s, s.layout.recordsBase, std::nullopt, sessionAnnotations, warnings.sessionRecords));
    std::vector<std::vector<core::Annotation>> channelAnnotations;
    for (std::size_t c = 0; c < channels.size(); ++c) {
        LV_TRY(loadChannelRecords(s, s.layout.channels[c], channels[c]));
        info.channels.push_back(channels[c].info);
        channelAnnotations.push_back(std::move(channels[c].annotations));
        warnings.channels.push_back(std::move(channels[c].warnings));
        warnings.channelRecords.push_back(std::move(channels[c].recordWarnings));
    }
    info.annotations = mergeAnnotations(std::move(sessionAnnotations), channelAnnotations);
    computeSpan(info);
    if (s.time.sawOffsetTimes && !s.time.offset) makeTimesRelative(info, channels, warnings);
    return {};
}

} // namespace

void MefRecording::makeSpans()
{
    m_spans.clear();
    for (const ChannelDetail& d : m_details) {
        std::vector<core::BlockSpan>& spans = m_spans.emplace_back();
        for (const BlockRef& b : d.blocks)
            spans.push_back({b.gridIndex, b.sampleCount, b.minimum, b.maximum, b.minimum != INT32_MIN});
    }
}

core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options)
{
    const bool snapshots = !options.snapshotDirectory.empty() && options.password.empty();
    if (snapshots)
        if (auto snapshot = loadSnapshot(path, options.snapshotDirectory)) return std::move(*snapshot);
    auto layout = discoverSession(path);
    if (!layout) return layout.error();
    const auto fingerprint = snapshots ? takeFingerprint(*layout) : core::Result<Fingerprint>(Fingerprint{});
    OpenState s;
    s.layout = std::move(*layout);
    s.password = options.password;
    auto recording = std::unique_ptr<MefRecording>(new MefRecording());
    std::vector<LoadedChannel> channels;
    OpenWarnings warnings;
    LV_TRY(loadSession(s, recording->m_info, channels, warnings));
    recording->m_info.format = "MEF 3.0";
    recording->m_info.path = path;
    recording->m_info.warnings = warnings.all();
    for (LoadedChannel& c : channels) recording->m_details.push_back(std::move(c.detail));
    recording->m_tree = s.layout.tree;
    recording->makeSpans();
    recording->m_access = s.access;
    if (snapshots && fingerprint && recording->accessLevel() == 0)
        (void)saveSnapshot(*recording, *fingerprint, options.snapshotDirectory); // a cache: failure only costs speed
    return recording;
}

} // namespace lv::formats::mef3
