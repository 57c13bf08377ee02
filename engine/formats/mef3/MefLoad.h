// Reading a session's files (internal to openMef3): one channel's metadata, indices and data headers, and records.
#pragma once

#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionLayout.h"

#include <optional>

namespace lv::formats::mef3 {

// Stored times are negative once the recording time offset (RTO) is applied: true = -stored + RTO.
struct TimeBase {
    std::optional<std::int64_t> offset; // nullopt: protected by a password we do not have
    bool sawOffsetTimes = false;
    core::Uutc origin = 0; // subtracted from every true time once they are made relative (unknown offset)
    core::Uutc toTrue(std::int64_t stored);
    // Offset times whose offset we lack: protected by level 2, or recorded as unknown (kUutcNoEntry).
    bool unknown() const { return sawOffsetTimes && (!offset || *offset == kUutcNoEntry); }
};

struct OpenState {
    SessionLayout layout;
    std::string password;
    Access access;
    bool accessDecided = false;
    TimeBase time;
    bool subjectRead = false; // subject and site come from the first channel whose section 3 is readable
    core::SubjectInfo subject;
    core::SiteInfo site;
    bool descriptionRead = false; // the session description comes from the first readable section 2
    std::string description;
};

// One channel as read from its files.
struct LoadedChannel {
    core::ChannelInfo info;
    ChannelDetail detail;
    std::vector<std::string> warnings;         // from its metadata, indices and data files
    std::vector<core::Annotation> annotations; // its channel- and segment-level records, in file order
    std::vector<std::string> recordWarnings;
};

// Metadata, index and data header of every segment of `files`: the channel's description and blocks.
core::Result<LoadedChannel> loadChannel(OpenState& s, const ChannelFiles& files);
// loadChannel for every channel of s.layout, in order. The first channel decides the access level and the
// recording time offset; the others are then read by up to `threads` threads, each with its own copy of that
// state. Results, warnings and the first error (in channel order) are those of reading them one by one.
core::Result<std::vector<LoadedChannel>> loadChannels(OpenState& s, unsigned threads);
// The channel's own records (channel and segment level) into c.annotations and c.recordWarnings.
core::Status loadChannelRecords(OpenState& s, const ChannelFiles& files, LoadedChannel& c);
// Records of one level become annotations (`channel` names the channel they belong to).
core::Status loadRecords(OpenState& s, const std::string& base, const std::optional<std::string>& channel,
                         std::vector<core::Annotation>& annotations, std::vector<std::string>& warnings);

// Session annotations, then each channel's, each in file order, stably sorted by time (the order of a full open).
std::vector<core::Annotation> mergeAnnotations(std::vector<core::Annotation> session,
                                               const std::vector<std::vector<core::Annotation>>& channels);
// The recording's span over its channels with samples.
void computeSpan(core::RecordingInfo& info);

} // namespace lv::formats::mef3
