// asammdf's benchmark shape written through Mdf4Writer: records built group by group from synthetic EEG.
#include "Mdf4Shape.h"

#include "Scenario.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Writer.h"
#include "synth/SyntheticEeg.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace lv::bench {

namespace {

constexpr int kGroups = 183;
constexpr int kChannels = 36424;
constexpr double kSeconds = 21.0;

int channelsIn(int group) { return kChannels / kGroups + (group < kChannels % kGroups ? 1 : 0); }
double rateOf(int group) { return 10.0 + group; }

formats::mdf4::FileSpec shapeSpec(bool compress)
{
    formats::mdf4::FileSpec spec;
    spec.startNs = std::uint64_t{1'700'000'000} * 1'000'000'000;
    spec.comment = "asammdf benchmark shape: 183 data groups, 36,424 channels";
    spec.program = "Longview";
    spec.version = "bench";
    spec.compress = compress;
    for (int g = 0, first = 0; g < kGroups; first += channelsIn(g), ++g) {
        formats::mdf4::GroupSpec group;
        group.acquisitionName = std::to_string(static_cast<int>(rateOf(g))) + " Hz";
        for (int c = 0; c < channelsIn(g); ++c)
            group.channels.push_back({"ch" + std::to_string(first + c), "uV", "", formats::mdf4::ValueType::Int16, true,
                                      synth::kMicrovoltsPerCount, 0.0});
        spec.groups.push_back(std::move(group));
    }
    return spec;
}

// Group g's records, 4096 at a time: the master time, then each channel's count clamped to int16.
void appendGroup(formats::mdf4::Mdf4Writer& w, int g, int firstChannel)
{
    const formats::mdf4::RecordLayout& layout = w.layout(static_cast<std::size_t>(g));
    const std::int64_t records = static_cast<std::int64_t>(rateOf(g) * kSeconds);
    std::vector<synth::SyntheticEeg> eeg;
    for (int c = 0; c < channelsIn(g); ++c) eeg.emplace_back(7, static_cast<std::size_t>(firstChannel + c), rateOf(g));
    std::vector<std::int32_t> counts;
    std::vector<std::uint8_t> bytes;
    for (std::int64_t at = 0; at < records; at += 4096) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(4096, records - at));
        bytes.assign(n * layout.recordBytes(), 0);
        for (std::size_t i = 0; i < n; ++i)
            core::le::store<double>(&bytes[i * layout.recordBytes()], static_cast<double>(at + i) / rateOf(g));
        counts.resize(n);
        for (std::size_t c = 0; c < eeg.size(); ++c) {
            eeg[c].generate(counts);
            for (std::size_t i = 0; i < n; ++i)
                core::le::store<std::int16_t>(&bytes[i * layout.recordBytes() + layout.offsets[c]],
                                              static_cast<std::int16_t>(std::clamp(counts[i], -32768, 32767)));
        }
        if (auto s = w.append(static_cast<std::size_t>(g), bytes); !s) fail(s.error().describe());
    }
}

} // namespace

void writeAsamShape(const std::string& path, bool compress)
{
    if (std::filesystem::exists(path)) return;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::fprintf(stderr, "writing %s (once)\n", path.c_str());
    auto w = formats::mdf4::Mdf4Writer::create(path, shapeSpec(compress));
    if (!w) fail(w.error().describe());
    for (int g = 0, first = 0; g < kGroups; first += channelsIn(g), ++g) appendGroup(**w, g, first);
    if (auto s = (*w)->commit(); !s) fail(s.error().describe());
}

} // namespace lv::bench
