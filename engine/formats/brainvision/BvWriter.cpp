// The header and marker texts, and the three files' temporaries.
#include "formats/brainvision/BvWriter.h"

#include "io/Path.h"

#include <charconv>
#include <filesystem>

namespace lv::formats::brainvision {

namespace {

std::string number(double v)
{
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr; // shortest text that reads back to v
    return std::string(text, end);
}

const char* formatName(BinaryFormat f)
{
    switch (f) {
    case BinaryFormat::Int16:
        return "INT_16";
    case BinaryFormat::Int32:
        return "INT_32";
    case BinaryFormat::Float32:
        break;
    }
    return "IEEE_FLOAT_32";
}

// Lines of a [Comment] text that would read as a section header get a leading space.
std::string commentLines(const std::string& comment)
{
    std::string out;
    std::size_t at = 0;
    while (at <= comment.size()) {
        const std::size_t end = std::min(comment.find('\n', at), comment.size());
        std::string line = comment.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line.front() == '[') line.insert(0, " ");
        out += line + "\r\n";
        at = end + 1;
    }
    return out;
}

std::string replaceExtension(const std::string& path, const char* extension)
{
    return io::toUtf8(io::toPath(path).replace_extension(extension));
}

} // namespace

std::string headerText(const BvFileSpec& spec, const std::string& dataName, const std::string& markerName)
{
    std::string t = "BrainVision Data Exchange Header File Version 1.0\r\n";
    t += "; Written by " + spec.program + "\r\n\r\n[Common Infos]\r\nCodepage=UTF-8\r\n";
    t += "DataFile=" + dataName + "\r\nMarkerFile=" + markerName + "\r\nDataFormat=BINARY\r\n";
    t += "; Data orientation: MULTIPLEXED=ch1,pt1, ch2,pt1 ...\r\nDataOrientation=MULTIPLEXED\r\n";
    t += "NumberOfChannels=" + std::to_string(spec.channels.size()) + "\r\n";
    if (spec.dataPoints >= 0) t += "DataPoints=" + std::to_string(spec.dataPoints) + "\r\n";
    t += "; Sampling interval in microseconds\r\nSamplingInterval=" + number(1e6 / spec.fs) + "\r\n\r\n";
    t += "[Binary Infos]\r\nBinaryFormat=" + std::string(formatName(spec.format)) + "\r\n\r\n[Channel Infos]\r\n";
    t += "; Each entry: Ch<Channel number>=<Name>,<Reference channel name>,\r\n";
    t += "; <Resolution in \"Unit\">,<Unit>, Future extensions..\r\n";
    t += "; Fields are delimited by commas, some fields might be omitted (empty).\r\n";
    t += "; Commas in channel names are coded as \"\\1\".\r\n";
    for (std::size_t k = 0; k < spec.channels.size(); ++k) {
        const BvChannel& c = spec.channels[k];
        t += "Ch" + std::to_string(k + 1) + "=" + escapeComma(c.name) + ",," + number(c.resolution) + "," +
             escapeComma(c.unit) + "\r\n";
    }
    if (!spec.comment.empty()) t += "\r\n[Comment]\r\n" + commentLines(spec.comment);
    return t;
}

std::string markerText(const std::vector<BvMarker>& markers, const std::string& dataName)
{
    std::string t = "Brain Vision Data Exchange Marker File, Version 1.0\r\n\r\n[Common Infos]\r\nCodepage=UTF-8\r\n";
    t += "DataFile=" + dataName + "\r\n\r\n[Marker Infos]\r\n";
    t += "; Each entry: Mk<Marker number>=<Type>,<Description>,<Position in data points>,\r\n";
    t += "; <Size in data points>, <Channel number (0 = marker is related to all channels)>\r\n";
    t += "; Fields are delimited by commas, some fields might be omitted (empty).\r\n";
    t += "; Commas in type or description text are coded as \"\\1\".\r\n";
    for (std::size_t k = 0; k < markers.size(); ++k) {
        const BvMarker& m = markers[k];
        t += "Mk" + std::to_string(k + 1) + "=" + escapeComma(m.type) + "," + escapeComma(m.description) + "," +
             std::to_string(m.position) + "," + std::to_string(m.size) + "," + std::to_string(m.channel);
        if (m.date) t += "," + formatMarkerDate(*m.date);
        t += "\r\n";
    }
    return t;
}

core::Result<std::unique_ptr<BvWriter>> BvWriter::create(const std::string& header)
{
    std::unique_ptr<BvWriter> w(new BvWriter());
    const std::string data = replaceExtension(header, ".eeg"), markers = replaceExtension(header, ".vmrk");
    for (const std::string& p : {header, data, markers}) {
        std::error_code ec;
        if (std::filesystem::exists(io::toPath(p), ec))
            return core::makeError(core::ErrorCode::InvalidArgument, "the output already exists; choose a new name", p);
    }
    w->m_dataName = io::toUtf8(io::toPath(data).filename());
    w->m_markerName = io::toUtf8(io::toPath(markers).filename());
    LV_TRY(w->m_data.open(data));
    LV_TRY(w->m_markers.open(markers));
    LV_TRY(w->m_header.open(header));
    return w;
}

core::Status BvWriter::commit(const BvFileSpec& spec, const std::vector<BvMarker>& markers)
{
    LV_TRY(m_markers.write(markerText(markers, m_dataName)));
    LV_TRY(m_header.write(headerText(spec, m_dataName, m_markerName)));
    LV_TRY(m_data.finish());
    LV_TRY(m_markers.finish());
    LV_TRY(m_header.finish());
    LV_TRY(m_data.commit());
    LV_TRY(m_markers.commit());
    return m_header.commit();
}

} // namespace lv::formats::brainvision
