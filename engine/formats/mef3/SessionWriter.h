// Writes MEF 3.0 sessions: new ones, or appends to existing ones. RED blocks encoded in parallel, indices,
// metadata filled as meflib fills it, records, level-1/level-2 passwords, segments, crash-safe commits.
#pragma once

#include "core/Quantization.h"
#include "core/Recording.h"
#include "formats/mef3/Password.h"
#include "formats/mef3/SegmentWriter.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct WriterOptions {
    double blockSeconds = 0.0;          // > 0: round(fs * blockSeconds) samples a block; 0: defaultBlockSamples
    std::string level1Password;         // empty: no encryption
    std::string level2Password;         // needs a level-1 password
    core::TaskRunner* runner = nullptr; // RED encoding runs here; output bytes do not depend on it
    Durability durability = Durability::Fast;
    core::SubjectInfo subject{}; // section 3: id, name (as subject name 1), and the recording location
    std::string recordingLocation{};
    TimeOffset timeOffset{};          // how times are stored; see TimeOffset (exportMef sets it)
    std::string sessionDescription{}; // section 2 of every segment (level 1): where the session came from
};

struct ChannelSpec {
    std::string name;
    double fs = 0.0; // samples per second, possibly fractional
    std::string unit;
    double conversionFactor = 1.0; // physical value = stored count * conversionFactor
    std::string description;
};

class ChannelWriter;

// The default block length: ten seconds, but at most 32768 samples (and at least one second). Measured on EEG
// at 256 Hz (bench/README.md): 2.18 bytes a sample with 1 s blocks (the 304-byte block header alone costs
// 1.19), 1.18 with 10 s, 1.11 with 30 s; random access decodes at most two blocks for any window.
std::uint32_t defaultBlockSamples(double fs);

// The password fields of a session directory (from the first metadata file found).
core::Result<ValidationFields> sessionPasswordFields(const std::string& path);
// A session's name: its directory name without ".mefd".
std::string sessionNameOf(const std::string& path);
// The channel directories of a session directory, by name without ".timd", sorted.
std::vector<std::string> sessionChannelNames(const std::string& path);

class SessionWriter {
public:
    // Creates the session in directory `path` (created here unless it exists and is empty). Its name is the
    // directory name without ".mefd".
    static core::Result<std::unique_ptr<SessionWriter>> create(const std::string& path, const WriterOptions& options);
    // Opens an existing session to append to its channels' last segments. Passwords: those of the session.
    static core::Result<std::unique_ptr<SessionWriter>> open(const std::string& path, const WriterOptions& options);
    ~SessionWriter();

    core::Result<std::size_t> addChannel(const ChannelSpec& spec);
    std::size_t channelCount() const { return m_channels.size(); }
    // The channel called `name`, or an error.
    core::Result<std::size_t> channelIndex(const std::string& name) const;
    const SegmentSetup& channelSetup(std::size_t channel) const;

    // Appends samples [firstIndex, firstIndex + samples.size()) of `grid` to a channel, in time order.
    // kNoSample values become gaps (never stored); a jump in time between calls is a gap too.
    // Whole blocks are written at once; readers see them after commit().
    core::Status append(std::size_t channel, core::SampleGrid grid, std::int64_t firstIndex,
                        std::span<const std::int32_t> samples);
    // Physical values (NaN: missing) rounded to counts of the channel's conversion factor (see
    // core::chooseQuantization to pick it); what the rounding changed adds up in quantizationError(channel).
    core::Status appendPhysical(std::size_t channel, core::SampleGrid grid, std::int64_t firstIndex,
                                std::span<const double> values);
    const core::QuantizationError& quantizationError(std::size_t channel) const { return m_quantization.at(channel); }
    // Publishes every channel's appends (with Durability::Full, synced in the order data, index, metadata).
    core::Status commit();
    // Publishes one channel's appends and lets go of its buffers (a writer filling channels one after the other
    // then holds one channel's buffers, not every channel's).
    core::Status commit(std::size_t channel);
    // Continues a channel in a new segment.
    core::Status startSegment(std::size_t channel);

    // Annotations become records: whole-recording ones at session level, others at their channel's level.
    // Written by finish(), after any records the session already holds.
    void addAnnotation(const core::Annotation& annotation);

    // Writes out a channel's last block and closes its files, so that a writer of tens of thousands of channels
    // holds only the unfinished channels' descriptors; the channel takes no more appends.
    core::Status finishChannel(std::size_t channel);

    // Commits, writes the records and closes every file.
    core::Status finish();

private:
    SessionWriter() = default;
    core::Status setPasswords(const ValidationFields& existing);
    SegmentSetup channelTemplate(const std::string& name) const;
    core::Status writeRecords(const std::string& base, const std::optional<std::string>& channel);
    bool finished(std::size_t channel) const { return channel < m_finished.size() && m_finished[channel]; }
    core::Status checkOpen(std::size_t channel) const;

    std::string m_path;
    std::string m_name;
    WriterOptions m_options;
    Access m_keys;
    ValidationFields m_validation;
    std::vector<std::unique_ptr<ChannelWriter>> m_channels;
    std::vector<bool> m_finished; // per channel, when finishChannel was called (shorter: the rest are not)
    std::vector<core::QuantizationError> m_quantization;
    std::vector<std::int32_t> m_counts; // scratch for appendPhysical
    std::vector<core::Annotation> m_annotations;
};

} // namespace lv::formats::mef3
