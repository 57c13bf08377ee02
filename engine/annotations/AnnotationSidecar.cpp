// Reading, writing and finding annotation sidecars (nlohmann/json; temporary file and rename).
#include "annotations/AnnotationSidecar.h"

#include "io/ByteSource.h"
#include "io/WritableFile.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

namespace lv::annotations {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr std::string_view kFormat = "longview-annotations";
constexpr int kVersion = 1;
constexpr std::size_t kMaxText = 4096; // bytes of a type or text

core::Error corrupt(const std::string& file, const std::string& what, std::int64_t offset = -1)
{
    return core::makeError(core::ErrorCode::Corrupt, "not a Longview annotation file: " + what, file, offset);
}

std::string sha256Hex(const std::string& text)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(text.data(), text.size(), digest, &size, EVP_sha256(), nullptr);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < size; ++i) out += hex[digest[i] >> 4], out += hex[digest[i] & 15];
    return out;
}

std::int64_t wholeNumber(const json& object, const char* key, const std::string& where)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer())
        throw std::runtime_error(where + ": \"" + key + "\" is not a whole number");
    return it->get<std::int64_t>();
}

std::string text(const json& object, const char* key, const std::string& where)
{
    const auto it = object.find(key);
    if (it == object.end()) return {};
    if (!it->is_string()) throw std::runtime_error(where + ": \"" + key + "\" is not text");
    std::string s = it->get<std::string>();
    if (s.size() > kMaxText) throw std::runtime_error(where + ": \"" + key + "\" is longer than 4096 bytes");
    return s;
}

RecordingIdentity parseIdentity(const json& doc)
{
    const auto it = doc.find("recording");
    if (it == doc.end() || !it->is_object()) throw std::runtime_error("no \"recording\" object");
    RecordingIdentity id;
    id.file = text(*it, "file", "recording");
    id.durationUs = wholeNumber(*it, "duration_us", "recording");
    if (id.durationUs < 0) throw std::runtime_error("recording: \"duration_us\" is negative");
    const auto channels = it->find("channels");
    if (channels == it->end() || !channels->is_array()) throw std::runtime_error("recording: no \"channels\" list");
    for (const json& c : *channels) {
        if (!c.is_string()) throw std::runtime_error("recording: a channel name is not text");
        id.channels.push_back(c.get<std::string>());
    }
    return id;
}

core::Annotation parseAnnotation(const json& a, std::size_t index, const RecordingIdentity& id)
{
    const std::string where = "annotation " + std::to_string(index + 1);
    if (!a.is_object()) throw std::runtime_error(where + " is not an object");
    core::Annotation out;
    out.time = wholeNumber(a, "onset_us", where);
    out.durationUs = wholeNumber(a, "duration_us", where);
    if (out.time < 0 || out.time > id.durationUs)
        throw std::runtime_error(where + ": \"onset_us\" " + std::to_string(out.time) +
                                 " is outside the recording (0 to " + std::to_string(id.durationUs) + ")");
    if (out.durationUs < 0 || out.durationUs > id.durationUs - out.time)
        throw std::runtime_error(where + ": \"duration_us\" " + std::to_string(out.durationUs) +
                                 " runs past the recording's end");
    out.type = text(a, "type", where);
    out.text = text(a, "text", where);
    if (const auto c = a.find("channel"); c != a.end() && !c->is_null()) {
        if (!c->is_string()) throw std::runtime_error(where + ": \"channel\" is not text");
        out.channel = c->get<std::string>();
        if (std::find(id.channels.begin(), id.channels.end(), *out.channel) == id.channels.end())
            throw std::runtime_error(where + ": channel \"" + *out.channel + "\" is not one of the recording's");
    }
    return out;
}

bool earlier(const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; }

} // namespace

RecordingIdentity identityOf(const core::RecordingInfo& info)
{
    RecordingIdentity id{fs::path(info.path).filename().string(), info.end - info.start, {}};
    for (const core::ChannelInfo& c : info.channels) id.channels.push_back(c.name);
    return id;
}

std::string sidecarBeside(const std::string& recordingPath)
{
    std::string path = fs::path(recordingPath).lexically_normal().string();
    while (path.size() > 1 && path.back() == '/') path.pop_back(); // a session folder: beside it
    return path + std::string(kSidecarSuffix);
}

std::string sidecarInDataFolder(const std::string& recordingPath, const std::string& dataDirectory)
{
    std::string key = fs::absolute(recordingPath).lexically_normal().string();
    while (key.size() > 1 && key.back() == '/') key.pop_back();
    return dataDirectory + "/annotations/" + sha256Hex(key) + ".json";
}

std::string defaultDataDirectory()
{
    if (const char* d = std::getenv("LONGVIEW_DATA_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::string(x) + "/longview";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.local/share/longview";
    return {};
}

std::string findSidecar(const std::string& recordingPath, const std::string& dataDirectory)
{
    std::error_code ec;
    if (std::string beside = sidecarBeside(recordingPath); fs::is_regular_file(beside, ec)) return beside;
    if (dataDirectory.empty()) return {};
    if (std::string kept = sidecarInDataFolder(recordingPath, dataDirectory); fs::is_regular_file(kept, ec))
        return kept;
    return {};
}

core::Result<Sidecar> parseSidecar(std::string_view textIn, const std::string& file)
{
    json doc;
    try {
        doc = json::parse(textIn.begin(), textIn.end());
    } catch (const json::parse_error& e) {
        return corrupt(file, "its JSON does not read", static_cast<std::int64_t>(e.byte > 0 ? e.byte - 1 : 0));
    } catch (const json::exception&) { // a number beyond a double (found by fuzz_annotations)
        return corrupt(file, "its JSON holds a number out of range");
    }
    try {
        if (!doc.is_object() || doc.value("format", json()) != kFormat)
            return corrupt(file, "no \"format\": \"longview-annotations\"");
        const json version = doc.value("version", json());
        if (!version.is_number_integer() || version.get<std::int64_t>() != kVersion)
            return core::makeError(
                core::ErrorCode::Unsupported,
                "annotation file version " + version.dump() + " is not 1 (made by a newer Longview?)", file);
        Sidecar s;
        s.recording = parseIdentity(doc);
        const auto list = doc.find("annotations");
        if (list == doc.end() || !list->is_array()) return corrupt(file, "no \"annotations\" list");
        for (std::size_t i = 0; i < list->size(); ++i)
            s.annotations.push_back(parseAnnotation((*list)[i], i, s.recording));
        std::stable_sort(s.annotations.begin(), s.annotations.end(), earlier);
        return s;
    } catch (const std::exception& e) { // a field of the wrong kind
        return corrupt(file, e.what());
    }
}

std::string formatSidecar(const Sidecar& s)
{
    ordered_json doc;
    doc["format"] = kFormat;
    doc["version"] = kVersion;
    doc["recording"] = {
        {"file", s.recording.file}, {"duration_us", s.recording.durationUs}, {"channels", s.recording.channels}};
    ordered_json list = ordered_json::array();
    for (const core::Annotation& a : s.annotations) {
        ordered_json entry = {{"onset_us", a.time}, {"duration_us", a.durationUs}, {"type", a.type}, {"text", a.text}};
        entry["channel"] = a.channel ? ordered_json(*a.channel) : ordered_json(nullptr);
        list.push_back(std::move(entry));
    }
    doc["annotations"] = std::move(list);
    // Text that is not UTF-8 is written with U+FFFD (the user's texts are UTF-8; a reader's may not be).
    return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

core::Result<Sidecar> readSidecar(const std::string& file)
{
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    return parseSidecar(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()), file);
}

core::Result<std::string> saveSidecar(const Sidecar& sidecar, const std::string& recordingPath,
                                      const std::string& dataDirectory)
{
    const std::string text = formatSidecar(sidecar);
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    const std::string beside = sidecarBeside(recordingPath);
    const core::Status there = io::replaceFile(beside, bytes, true);
    if (there) return beside;
    if (dataDirectory.empty()) return there.error();
    const std::string kept = sidecarInDataFolder(recordingPath, dataDirectory);
    std::error_code ec;
    fs::create_directories(fs::path(kept).parent_path(), ec);
    if (const core::Status s = io::replaceFile(kept, bytes, true); !s) return s.error();
    return kept;
}

Sidecar sidecarOf(const core::RecordingInfo& info, const std::vector<core::Annotation>& annotations)
{
    Sidecar s{identityOf(info), annotations};
    for (core::Annotation& a : s.annotations) a.time -= info.start;
    std::stable_sort(s.annotations.begin(), s.annotations.end(), earlier);
    return s;
}

core::Result<std::vector<core::Annotation>>
loadUserAnnotations(const core::RecordingInfo& info, const std::string& recordingPath, const std::string& dataDirectory)
{
    const std::string file = findSidecar(recordingPath, dataDirectory);
    if (file.empty()) return std::vector<core::Annotation>{};
    auto sidecar = readSidecar(file);
    if (!sidecar) return sidecar.error();
    const RecordingIdentity id = identityOf(info);
    if (sidecar->recording.durationUs != id.durationUs || sidecar->recording.channels != id.channels)
        return core::makeError(core::ErrorCode::Unsupported,
                               "these annotations were made on another recording (its length or channels differ)",
                               file);
    for (core::Annotation& a : sidecar->annotations) a.time += info.start;
    return std::move(sidecar->annotations);
}

} // namespace lv::annotations
