// Session directory, channels, passwords and records; the per-channel work is in ChannelWriter.
#include "formats/mef3/SessionWriter.h"

#include "formats/mef3/ChannelWriter.h"
#include "formats/mef3/Records.h"
#include "formats/mef3/UniversalHeader.h"
#include "io/ByteSource.h"
#include "io/FileSystem.h"
#include "io/Path.h"
#include "io/WritableFile.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

core::Status checkPasswords(const WriterOptions& o)
{
    if (!o.level2Password.empty() && o.level1Password.empty())
        return makeError(ErrorCode::InvalidArgument, "a level-2 password needs a level-1 password too");
    if (!o.level2Password.empty() && o.level2Password == o.level1Password)
        return makeError(ErrorCode::InvalidArgument,
                         "the level-1 and level-2 passwords are the same: a reader would then open only level 1 "
                         "and never see the subject or the record texts; choose two different passwords");
    for (const std::string* p : {&o.level1Password, &o.level2Password}) {
        std::size_t characters = 0;
        for (unsigned char c : *p) characters += (c & 0xC0) != 0x80;
        if (characters > 15) return makeError(ErrorCode::InvalidArgument, "MEF passwords have at most 15 characters");
    }
    if (!(o.blockSeconds >= 0.0) || !std::isfinite(o.blockSeconds))
        return makeError(ErrorCode::InvalidArgument, "the block length must be a positive number of seconds");
    return {};
}

} // namespace

std::string sessionNameOf(const std::string& path)
{
    std::string name = fs::path(path).filename().string();
    if (name.empty()) name = fs::path(path).parent_path().filename().string();
    if (const auto dot = name.find(".mefd"); dot != std::string::npos) name.erase(dot);
    return name;
}

std::vector<std::string> sessionChannelNames(const std::string& path)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory(ec) && name.size() > 5 && name.ends_with(".timd"))
            names.push_back(name.substr(0, name.size() - 5));
    }
    std::sort(names.begin(), names.end());
    return names;
}

core::Result<ValidationFields> sessionPasswordFields(const std::string& path)
{
    std::error_code ec;
    for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
        const std::string file = entry.path().string();
        if (!file.ends_with(".tmet") || file.find(".segd.tmp") != std::string::npos) continue;
        auto source = io::openFile(file);
        if (!source) return source.error();
        auto bytes = (*source)->read(0, kUniversalHeaderBytes);
        if (!bytes) return bytes.error();
        auto header = parseUniversalHeader(*bytes, file, "tmet");
        if (!header) return header.error();
        return header->passwords;
    }
    return makeError(ErrorCode::NotFound, "no channel metadata found: not a MEF 3.0 session", path);
}

std::uint32_t defaultBlockSamples(double fs)
{
    const double tenSeconds = std::round(fs * 10.0), oneSecond = std::round(fs);
    return static_cast<std::uint32_t>(std::clamp(std::min(tenSeconds, std::max(32768.0, oneSecond)), 1.0, 1e9));
}

SessionWriter::~SessionWriter() = default;

core::Result<std::unique_ptr<SessionWriter>> SessionWriter::create(const std::string& path,
                                                                   const WriterOptions& options)
{
    LV_TRY(checkPasswords(options));
    if (io::SystemError e = io::createFolder(io::toPath(path)); !e.ok()) {
        std::error_code ec;
        const bool emptyDir = e.kind == io::SystemError::Kind::Exists && fs::is_directory(io::toPath(path), ec) &&
                              fs::is_empty(io::toPath(path), ec);
        if (!emptyDir) // an empty directory is taken as it is (a conversion's locked temporary)
            return makeError(io::writeFailureCode(e), "cannot create the session directory: " + e.text, path);
    }
    auto writer = std::unique_ptr<SessionWriter>(new SessionWriter());
    writer->m_path = path;
    writer->m_name = sessionNameOf(path);
    writer->m_options = options;
    if (!options.level1Password.empty()) {
        writer->m_validation = makeValidationFields(options.level1Password, options.level2Password);
        writer->m_keys.level = options.level2Password.empty() ? 1 : 2;
        writer->m_keys.level1Key = passwordBytes(options.level1Password);
        if (!options.level2Password.empty()) writer->m_keys.level2Key = passwordBytes(options.level2Password);
    }
    return writer;
}

core::Result<std::unique_ptr<SessionWriter>> SessionWriter::open(const std::string& path, const WriterOptions& options)
{
    LV_TRY(checkPasswords(options));
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return makeError(ErrorCode::NotFound, "no such session directory", path);
    auto writer = std::unique_ptr<SessionWriter>(new SessionWriter());
    writer->m_path = path;
    writer->m_name = sessionNameOf(path);
    writer->m_options = options;
    auto fields = sessionPasswordFields(path);
    if (!fields) return fields.error();
    LV_TRY(writer->setPasswords(*fields));
    for (const std::string& name : sessionChannelNames(path)) {
        auto channel = ChannelWriter::reopen(writer->channelTemplate(name), options.runner);
        if (!channel) return channel.error();
        writer->m_channels.push_back(std::move(*channel));
    }
    writer->m_quantization.resize(writer->m_channels.size());
    return writer;
}

core::Status SessionWriter::setPasswords(const ValidationFields& existing)
{
    const std::string& given = m_options.level2Password.empty() ? m_options.level1Password : m_options.level2Password;
    if (existing.empty()) {
        if (!given.empty())
            return makeError(ErrorCode::InvalidArgument, "the session has no password; append without one", m_path);
        return {};
    }
    if (given.empty())
        return makeError(ErrorCode::PasswordRequired, "the session is encrypted; appending needs its password", m_path);
    m_keys = validatePassword(given, existing);
    if (m_keys.level == 0) return makeError(ErrorCode::WrongPassword, "the password does not open the session", m_path);
    m_validation = existing;
    return {};
}

SegmentSetup SessionWriter::channelTemplate(const std::string& name) const
{
    SegmentSetup s;
    s.channelDir = m_path + "/" + name + ".timd";
    s.channelName = name;
    s.sessionName = m_name;
    s.validation = m_validation;
    s.keys = m_keys;
    s.durability = m_options.durability;
    s.subjectName = m_options.subject.name;
    s.subjectId = m_options.subject.id;
    s.recordingLocation = m_options.recordingLocation;
    s.sessionDescription = m_options.sessionDescription;
    s.timeOffset = m_options.timeOffset;
    return s;
}

core::Result<std::size_t> SessionWriter::addChannel(const ChannelSpec& spec)
{
    if (!(spec.fs > 0.0) || !std::isfinite(spec.fs))
        return makeError(ErrorCode::InvalidArgument, "channel " + spec.name + ": the sampling rate must be positive");
    if (spec.name.empty() || spec.name.find('/') != std::string::npos)
        return makeError(ErrorCode::InvalidArgument, "\"" + spec.name + "\" cannot be a channel name");
    if (channelIndex(spec.name))
        return makeError(ErrorCode::InvalidArgument, "channel " + spec.name + " exists already");
    SegmentSetup s = channelTemplate(spec.name);
    if (io::SystemError e = io::createFolder(io::toPath(s.channelDir)); !e.ok())
        return makeError(io::writeFailureCode(e), "cannot create the channel directory: " + e.text, s.channelDir);
    s.fs = spec.fs;
    s.unit = spec.unit;
    s.conversionFactor = spec.conversionFactor;
    s.description = spec.description;
    s.acquisitionNumber = static_cast<std::int64_t>(m_channels.size() + 1);
    s.blockSamples =
        m_options.blockSeconds > 0
            ? static_cast<std::uint32_t>(std::clamp(std::round(spec.fs * m_options.blockSeconds), 1.0, 1e9))
            : defaultBlockSamples(spec.fs);
    auto channel = ChannelWriter::create(s, m_options.runner);
    if (!channel) return channel.error();
    m_channels.push_back(std::move(*channel));
    m_quantization.emplace_back();
    return m_channels.size() - 1;
}

core::Result<std::size_t> SessionWriter::channelIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < m_channels.size(); ++i)
        if (m_channels[i]->name() == name) return i;
    return makeError(ErrorCode::NotFound, "no channel called " + name, m_path);
}

const SegmentSetup& SessionWriter::channelSetup(std::size_t channel) const { return m_channels.at(channel)->setup(); }

core::Status SessionWriter::append(std::size_t channel, core::SampleGrid grid, std::int64_t firstIndex,
                                   std::span<const std::int32_t> samples)
{
    if (channel >= m_channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    LV_TRY(checkOpen(channel));
    return m_channels[channel]->append(grid, firstIndex, samples);
}

core::Status SessionWriter::appendPhysical(std::size_t channel, core::SampleGrid grid, std::int64_t firstIndex,
                                           std::span<const double> values)
{
    if (channel >= m_channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    m_counts.resize(values.size());
    LV_TRY(checkOpen(channel));
    const double factor = m_channels[channel]->setup().conversionFactor;
    if (auto s = core::quantize(values, factor, m_counts, m_quantization[channel]); !s)
        return makeError(ErrorCode::InvalidArgument,
                         "channel " + m_channels[channel]->name() + ": " + s.error().message);
    return m_channels[channel]->append(grid, firstIndex, m_counts);
}

core::Status SessionWriter::commit()
{
    for (std::size_t c = 0; c < m_channels.size(); ++c)
        if (!finished(c)) LV_TRY(m_channels[c]->commit());
    return {};
}

core::Status SessionWriter::checkOpen(std::size_t channel) const
{
    if (!finished(channel)) return {};
    return makeError(ErrorCode::InvalidArgument, "channel " + m_channels[channel]->name() + " is finished", m_path);
}

core::Status SessionWriter::finishChannel(std::size_t channel)
{
    if (channel >= m_channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    if (finished(channel)) return {};
    LV_TRY(m_channels[channel]->finish());
    m_finished.resize(m_channels.size());
    m_finished[channel] = true;
    return {};
}

core::Status SessionWriter::commit(std::size_t channel)
{
    if (channel >= m_channels.size())
        return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    LV_TRY(checkOpen(channel));
    return m_channels[channel]->commit();
}

core::Status SessionWriter::startSegment(std::size_t channel)
{
    if (channel >= m_channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    LV_TRY(checkOpen(channel));
    return m_channels[channel]->startSegment();
}

void SessionWriter::addAnnotation(const core::Annotation& annotation) { m_annotations.push_back(annotation); }

core::Status SessionWriter::writeRecords(const std::string& base, const std::optional<std::string>& channel)
{
    std::vector<Record> records;
    for (const core::Annotation& a : m_annotations)
        if (a.channel == channel)
            records.push_back(Record{a.type, m_options.timeOffset.stored(a.time), a.durationUs, a.text, true});
    if (records.empty()) return {};
    const std::string rdat = base + ".rdat";
    std::error_code ec;
    if (fs::exists(rdat, ec)) { // keep what the session holds already
        auto source = io::openFile(rdat);
        if (!source) return source.error();
        auto bytes = (*source)->readAll();
        if (!bytes) return bytes.error();
        auto existing = parseRecords(*bytes, rdat, m_keys);
        if (!existing) return existing.error();
        records.insert(records.begin(), existing->records.begin(), existing->records.end());
    }
    UniversalHeader h;
    h.segmentNumber = channel ? -2 : -3;
    h.channelName = channel.value_or("");
    h.sessionName = m_name;
    h.passwords = m_validation;
    const int level = m_keys.level2Key ? 2 : m_keys.level1Key ? 1 : 0;
    const RecordFiles files = serializeRecords(records, h, level, m_keys);
    const bool durable = true;
    LV_TRY(io::replaceFile(rdat, files.rdat, durable));
    return io::replaceFile(base + ".ridx", files.ridx, durable);
}

core::Status SessionWriter::finish()
{
    for (std::size_t c = 0; c < m_channels.size(); ++c)
        if (!finished(c)) LV_TRY(m_channels[c]->finish());
    LV_TRY(writeRecords(m_path + "/" + m_name, std::nullopt));
    for (auto& channel : m_channels)
        LV_TRY(writeRecords(m_path + "/" + channel->name() + ".timd/" + channel->name(), channel->name()));
    return {};
}

} // namespace lv::formats::mef3
