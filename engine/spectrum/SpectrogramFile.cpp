// Written in one buffer and replaced atomically; read with core::FieldReader, every count checked against the bytes
// left before anything is allocated.
#include "spectrum/SpectrogramFile.h"

#include "core/FieldReader.h"
#include "io/ByteSource.h"
#include "io/WritableFile.h"

#include <cmath>
#include <cstring>

namespace lv::spectrum {

namespace {

constexpr char kMagic[8] = {'L', 'V', 'S', 'P', 'G', 'R', 'A', 'M'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeader = 8 + 4 + 8 + 8 + 4 + 4;

template <typename T>
void put(std::vector<std::uint8_t>& out, T value)
{
    const std::size_t at = out.size();
    out.resize(at + sizeof(T));
    core::le::store(out.data() + at, value);
}

core::Error corrupt(const std::string& file, std::size_t at, const std::string& why)
{
    return core::makeError(core::ErrorCode::Corrupt, "spectrogram " + why + " (at byte " + std::to_string(at) + ")",
                           file);
}

} // namespace

std::vector<std::uint8_t> formatSpectrogram(const Spectrogram& s)
{
    std::vector<std::uint8_t> out(kMagic, kMagic + 8);
    put(out, kVersion);
    put(out, s.start);
    put(out, s.columnUs);
    put(out, static_cast<std::uint32_t>(s.frequencies.size()));
    put(out, static_cast<std::uint32_t>(s.columns.size()));
    for (double f : s.frequencies) put(out, f);
    for (std::size_t c = 0; c < s.columns.size(); ++c) {
        const bool present = !s.columns[c].empty();
        put(out, present ? std::max<std::uint32_t>(1, s.segments[c]) : std::uint32_t{0});
        if (present)
            for (float p : s.columns[c]) put(out, p);
    }
    return out;
}

core::Result<Spectrogram> parseSpectrogram(std::span<const std::uint8_t> bytes, const std::string& file)
{
    core::FieldReader r(bytes, file);
    if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, 8) != 0)
        return corrupt(file, 0, "file expected (no LVSPGRAM header)");
    if (r.u32(8) != kVersion) return corrupt(file, 8, "version " + std::to_string(r.u32(8)) + " is not 1");
    Spectrogram s;
    s.start = r.i64(12);
    s.columnUs = r.i64(20);
    const std::uint32_t bins = r.u32(28), columns = r.u32(32);
    if (s.columnUs <= 0) return corrupt(file, 20, "column length below 1 us");
    if (bins == 0 || bins > (1u << 20) || bins > (bytes.size() - kHeader) / 8)
        return corrupt(file, 28, std::to_string(bins) + " frequency bins do not fit the file");
    if (columns > (bytes.size() - kHeader - 8 * std::size_t{bins}) / 4)
        return corrupt(file, 32, std::to_string(columns) + " columns do not fit the file");
    std::size_t at = kHeader;
    for (std::uint32_t b = 0; b < bins; ++b, at += 8) {
        const double f = r.f64(at);
        if (!std::isfinite(f) || f < 0 || (b > 0 && f <= s.frequencies.back()))
            return corrupt(file, at, "frequencies do not rise from 0");
        s.frequencies.push_back(f);
    }
    s.columns.resize(columns);
    s.segments.resize(columns);
    for (std::uint32_t c = 0; c < columns; ++c) {
        s.segments[c] = r.u32(at);
        at += 4;
        if (s.segments[c] == 0) continue;
        if (bytes.size() < at || (bytes.size() - at) / 4 < bins)
            return core::makeError(core::ErrorCode::Truncated,
                                   "spectrogram column " + std::to_string(c) +
                                       " ends past the end of the file (at byte " + std::to_string(at) + ")",
                                   file);
        std::vector<float>& column = s.columns[c];
        column.resize(bins);
        for (std::uint32_t b = 0; b < bins; ++b, at += 4) {
            column[b] = r.f32(at);
            if (!std::isfinite(column[b]) || column[b] < 0) return corrupt(file, at, "power is negative or not finite");
        }
    }
    if (!r.ok()) return r.status().error();
    if (at != bytes.size()) return corrupt(file, at, "file is longer than its columns");
    return s;
}

core::Status saveSpectrogram(const Spectrogram& spectrogram, const std::string& file)
{
    const std::vector<std::uint8_t> bytes = formatSpectrogram(spectrogram);
    return io::replaceFile(file, bytes, false); // a cache: recomputed when lost
}

core::Result<Spectrogram> loadSpectrogram(const std::string& file)
{
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    return parseSpectrogram(*bytes, file);
}

} // namespace lv::spectrum
