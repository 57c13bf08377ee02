// openMef3: a fresh snapshot as it is, a snapshot with its changed channels read again, or a full walk of the session.
#include "formats/mef3/MefLoad.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Snapshot.h"

#include <filesystem>
#include <map>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

// Without the recording time offset, times are shifted to start at zero and flagged as relative.
core::Uutc makeTimesRelative(core::RecordingInfo& info, std::vector<LoadedChannel>& channels, OpenWarnings& warnings,
                             bool offsetKnown)
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
    warnings.times.push_back(offsetKnown ? "the recording time offset is not recorded (a copy of a level-1 view): "
                                           "times are relative to the recording start, not true dates"
                                         : "the recording time offset is protected by the level-2 password: times "
                                           "are relative to the recording start, not true dates");
    return origin;
}

// Every channel and record of the session from its files.
core::Status loadSession(OpenState& s, core::RecordingInfo& info, std::vector<LoadedChannel>& channels,
                         OpenWarnings& warnings, unsigned threads)
{
    auto loaded = loadChannels(s, threads);
    if (!loaded) return loaded.error();
    channels = std::move(*loaded);
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
    if (s.time.unknown()) s.time.origin = makeTimesRelative(info, channels, warnings, s.time.offset.has_value());
    const std::string offsetField =
        s.layout.channels.empty() || s.layout.channels.front().segments.empty()
            ? std::string("the recording time offset")
            : "the recording time offset (" +
                  s.layout.tree->displayPath(s.layout.channels.front().segments.front().base + ".tmet") +
                  ", byte 13312) or a start time";
    if (auto w = core::futureStartWarning(info, core::nowUutc(), offsetField)) warnings.checks.push_back(*w);
    return {};
}

std::string folderName(const std::string& treePath)
{
    const auto slash = treePath.rfind('/');
    return slash == std::string::npos ? treePath : treePath.substr(slash + 1);
}

} // namespace

// The steps of openMef3 that build a MefRecording (its friend).
class MefOpener {
public:
    // Every channel and record read from the session's files; a snapshot saved when `snapshots`.
    static core::Result<std::unique_ptr<MefRecording>> openFiles(const std::string& path, const OpenOptions& options,
                                                                 bool snapshots);
    // A snapshot, checked unless the caller defers that; channels that changed since are read again from files.
    static core::Result<std::unique_ptr<MefRecording>> openSnapshot(const std::string& path,
                                                                    const OpenOptions& options);
    // Reads `changed` channels again from their files (the session's folder listing is unchanged, so they are the
    // same folders): description, blocks, records and warnings replace what the snapshot held.
    static core::Status reloadChannels(MefRecording& r, const std::vector<std::size_t>& changed);
};

core::Result<std::unique_ptr<MefRecording>> MefOpener::openFiles(const std::string& path, const OpenOptions& options,
                                                                 bool snapshots)
{
    auto layout = discoverSession(path);
    if (!layout) return layout.error();
    auto fingerprint = snapshots ? takeFingerprint(*layout) : core::Result<Fingerprint>(Fingerprint{});
    std::vector<std::vector<SegmentStamp>> stamps; // before the files are read, as the fingerprint
    if (snapshots && fingerprint && !fingerprint->archive)
        for (const ChannelFiles& channel : layout->channels) {
            auto stamped = stampSegments(layout->tree->rootPath(), channel);
            if (!stamped) {
                fingerprint = stamped.error(); // no snapshot then
                break;
            }
            stamps.push_back(std::move(*stamped));
        }
    OpenState s;
    s.layout = std::move(*layout);
    s.password = options.password;
    auto recording = std::unique_ptr<MefRecording>(new MefRecording());
    MefRecording& r = *recording;
    std::vector<LoadedChannel> channels;
    LV_TRY(loadSession(s, r.m_info, channels, r.m_openWarnings, options.loadThreads));
    r.m_info.format = "MEF 3.0";
    r.m_info.path = path;
    r.m_info.warnings = r.m_openWarnings.all();
    r.m_info.subject = s.subject;
    r.m_info.site = s.site;
    r.m_info.description = s.description;
    r.initChannels(channels.size());
    for (std::size_t c = 0; c < channels.size(); ++c) {
        if (c < stamps.size()) channels[c].detail.stamps = std::move(stamps[c]);
        r.setChannel(c, std::move(channels[c].detail));
    }
    r.m_tree = s.layout.tree;
    r.m_treeRoot = s.layout.tree->rootPath();
    r.m_access = s.access;
    r.m_timeOffset = s.time.offset;
    r.m_timeOrigin = s.time.origin;
    if (snapshots && fingerprint) r.m_fingerprint = std::move(*fingerprint);
    if (r.m_fingerprint && r.accessLevel() == 0)
        (void)saveSnapshot(r, *r.m_fingerprint, options.snapshotDirectory); // a cache: failure only costs speed
    return recording;
}

core::Result<std::unique_ptr<MefRecording>> MefOpener::openSnapshot(const std::string& path, const OpenOptions& options)
{
    auto r = readSnapshot(path, options.snapshotDirectory);
    if (!r) return r.error();
    if (options.deferSnapshotCheck) return r;
    Recheck recheck = (*r)->recheck(); // every segment's files: before the first read (the CLI's opens)
    if (recheck.check.fresh()) return r;
    if (recheck.check.sessionChanged) return makeError(ErrorCode::NotFound, "the session changed", path);
    LV_TRY(reloadChannels(**r, recheck.check.changedChannels));
    (*r)->m_fingerprint = std::move(recheck.now);
    (void)saveSnapshot(**r, *(*r)->m_fingerprint, options.snapshotDirectory);
    return r;
}

core::Status MefOpener::reloadChannels(MefRecording& r, const std::vector<std::size_t>& changed)
{
    const Fingerprint& then = *r.m_fingerprint;
    auto tree = io::openDirectoryTree(r.m_treeRoot);
    if (!tree) return tree.error();
    OpenState s;
    s.layout.tree = *tree;
    s.layout.sessionDir = then.sessionDir;
    s.time.offset = r.m_timeOffset; // a session's offset, as the first channel's metadata gave it
    std::vector<core::Annotation> sessionAnnotations;
    std::vector<std::vector<core::Annotation>> channelAnnotations(r.m_info.channels.size());
    std::map<std::string, std::size_t> byName;
    for (std::size_t c = 0; c < r.m_info.channels.size(); ++c) byName[r.m_info.channels[c].name] = c;
    for (core::Annotation& a : r.m_info.annotations) {
        const auto owner = a.channel ? byName.find(*a.channel) : byName.end();
        (owner == byName.end() ? sessionAnnotations : channelAnnotations[owner->second]).push_back(std::move(a));
    }
    for (const std::size_t c : changed) {
        auto files = discoverChannel(*s.layout.tree, then.channels[c].dir, folderName(then.channels[c].dir));
        if (!files) return files.error();
        auto stamps = stampSegments(r.m_treeRoot, *files);
        if (!stamps) return stamps.error();
        auto loaded = loadChannel(s, *files);
        if (!loaded) return loaded.error();
        loaded->detail.stamps = std::move(*stamps);
        LV_TRY(loadChannelRecords(s, *files, *loaded));
        if (loaded->info.name != r.m_info.channels[c].name)
            return makeError(ErrorCode::Corrupt, "snapshot channel names disagree", files->dir);
        r.m_info.channels[c] = std::move(loaded->info);
        channelAnnotations[c] = std::move(loaded->annotations);
        r.m_openWarnings.channels[c] = std::move(loaded->warnings);
        r.m_openWarnings.channelRecords[c] = std::move(loaded->recordWarnings);
        r.setChannel(c, std::move(loaded->detail));
    }
    if (s.time.unknown()) return makeError(ErrorCode::Unsupported, "relative times need a full open");
    r.m_info.annotations = mergeAnnotations(std::move(sessionAnnotations), channelAnnotations);
    r.m_info.warnings = r.m_openWarnings.all();
    computeSpan(r.m_info);
    return {};
}

core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options)
{
    const bool snapshots = !options.snapshotDirectory.empty() && options.password.empty();
    if (snapshots)
        if (auto fromSnapshot = MefOpener::openSnapshot(path, options)) return std::move(*fromSnapshot);
    return MefOpener::openFiles(path, options, snapshots);
}

} // namespace lv::formats::mef3
