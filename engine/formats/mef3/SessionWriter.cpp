// Session directory, channels and records; the per-channel work is in ChannelWriter.
#include "formats/mef3/SessionWriter.h"

#include "formats/mef3/ChannelWriter.h"
#include "formats/mef3/Records.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

core::Status checkPasswords(const WriterOptions& o)
{
    if (!o.level2Password.empty() && o.level1Password.empty())
        return makeError(ErrorCode::InvalidArgument, "a level-2 password needs a level-1 password too");
    for (const std::string* p : {&o.level1Password, &o.level2Password}) {
        std::size_t characters = 0;
        for (unsigned char c : *p) characters += (c & 0xC0) != 0x80;
        if (characters > 15) return makeError(ErrorCode::InvalidArgument, "MEF passwords have at most 15 characters");
    }
    return {};
}

core::Status writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    return {};
}

} // namespace

SessionWriter::~SessionWriter() = default;

core::Result<std::unique_ptr<SessionWriter>> SessionWriter::create(const std::string& path,
                                                                   const WriterOptions& options)
{
    LV_TRY(checkPasswords(options));
    if (!(options.blockSeconds > 0.0) || !std::isfinite(options.blockSeconds))
        return makeError(ErrorCode::InvalidArgument, "the block length must be a positive number of seconds");
    if (::mkdir(path.c_str(), 0777) != 0)
        return makeError(ErrorCode::Io, std::string("cannot create the session directory: ") + std::strerror(errno),
                         path);
    auto writer = std::unique_ptr<SessionWriter>(new SessionWriter());
    writer->m_path = path;
    std::string name = std::filesystem::path(path).filename().string();
    if (const auto dot = name.find(".mefd"); dot != std::string::npos) name.erase(dot);
    writer->m_name = name;
    writer->m_options = options;
    if (!options.level1Password.empty()) {
        writer->m_validation = makeValidationFields(options.level1Password, options.level2Password);
        writer->m_keys.level = options.level2Password.empty() ? 1 : 2;
        writer->m_keys.level1Key = passwordBytes(options.level1Password);
        if (!options.level2Password.empty()) writer->m_keys.level2Key = passwordBytes(options.level2Password);
    }
    return writer;
}

core::Result<std::size_t> SessionWriter::addChannel(const ChannelSpec& spec)
{
    if (!(spec.fs > 0.0) || !std::isfinite(spec.fs))
        return makeError(ErrorCode::InvalidArgument, "channel " + spec.name + ": the sampling rate must be positive");
    if (spec.name.empty() || spec.name.find('/') != std::string::npos)
        return makeError(ErrorCode::InvalidArgument, "\"" + spec.name + "\" cannot be a channel name");
    const std::string dir = m_path + "/" + spec.name + ".timd";
    if (::mkdir(dir.c_str(), 0777) != 0)
        return makeError(ErrorCode::Io, std::string("cannot create the channel directory: ") + std::strerror(errno),
                         dir);
    ChannelWriterSetup setup;
    setup.channelDir = dir;
    setup.name = spec.name;
    setup.sessionName = m_name;
    setup.fs = spec.fs;
    setup.unit = spec.unit;
    setup.conversionFactor = spec.conversionFactor;
    setup.description = spec.description;
    setup.acquisitionNumber = static_cast<std::int64_t>(m_channels.size() + 1);
    setup.blockSamples = static_cast<std::uint32_t>(std::max(1.0, std::round(spec.fs * m_options.blockSeconds)));
    setup.validation = m_validation;
    setup.keys = m_keys;
    setup.runner = m_options.runner;
    auto channel = std::make_unique<ChannelWriter>(std::move(setup));
    LV_TRY(channel->open());
    m_channels.push_back(std::move(channel));
    return m_channels.size() - 1;
}

core::Status SessionWriter::append(std::size_t channel, core::SampleGrid grid, std::int64_t firstIndex,
                                   std::span<const std::int32_t> samples)
{
    if (channel >= m_channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    return m_channels[channel]->append(grid, firstIndex, samples);
}

void SessionWriter::addAnnotation(const core::Annotation& annotation) { m_annotations.push_back(annotation); }

core::Status SessionWriter::finish()
{
    for (auto& channel : m_channels) LV_TRY(channel->finish());
    const int level = m_keys.level2Key ? 2 : m_keys.level1Key ? 1 : 0;
    auto writeRecords = [&](const std::string& base, const std::optional<std::string>& channel) -> core::Status {
        std::vector<Record> records;
        for (const core::Annotation& a : m_annotations)
            if (a.channel == channel) records.push_back(Record{a.type, a.time, a.durationUs, a.text, true});
        if (records.empty()) return {};
        UniversalHeader h;
        h.segmentNumber = channel ? -2 : -3;
        h.channelName = channel.value_or("");
        h.sessionName = m_name;
        h.passwords = m_validation;
        const RecordFiles files = serializeRecords(records, h, level, m_keys);
        LV_TRY(writeFile(base + ".rdat", files.rdat));
        return writeFile(base + ".ridx", files.ridx);
    };
    LV_TRY(writeRecords(m_path + "/" + m_name, std::nullopt));
    for (auto& channel : m_channels)
        LV_TRY(writeRecords(m_path + "/" + channel->name() + ".timd/" + channel->name(), channel->name()));
    return {};
}

} // namespace lv::formats::mef3
