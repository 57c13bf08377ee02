// Text channels' strings as annotations at their records' times.
#include "formats/mdf4/Mdf4TextAnnotations.h"

#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Text.h"

#include <cmath>

namespace lv::formats::mdf4 {

namespace {

constexpr std::uint64_t kMaxGroupBytes = std::uint64_t{256} << 20;

} // namespace

bool isTextChannel(const Channel& c)
{
    return !c.isMaster() && c.dataType >= DataType::StringLatin1 && c.dataType <= DataType::StringUtf16Be;
}

core::Status textAnnotations(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                             std::span<const Channel* const> channels, std::span<const double> timesS, core::Uutc start,
                             std::vector<core::Annotation>& out, std::vector<std::string>& warnings)
{
    auto records = readDataGroupBytes(file, dg, kMaxGroupBytes);
    if (!records) {
        if (records.error().code != core::ErrorCode::Unsupported) return records.error();
        warnings.push_back("the texts of channel " + channels.front()->name +
                           " and its group are not read: " + records.error().message);
        return {};
    }
    for (const Channel* c : channels) {
        auto samples = channelSamples(file, dg, group, *c, *records);
        if (!samples) return samples.error();
        std::size_t kept = 0, left = 0;
        for (std::size_t i = 0; i < samples->values.size() && i < timesS.size(); ++i) {
            const Physical& v = samples->values[i];
            if (samples->invalid[i] || !std::isfinite(timesS[i]) || std::abs(timesS[i]) > 1e12) continue;
            if (v.isText() && v.text->empty()) continue;
            if (kept == kMaxTextAnnotations) {
                ++left;
                continue;
            }
            core::Annotation a;
            a.time = start + std::llround(timesS[i] * 1e6);
            a.type = c->name;
            a.text = v.isText() ? *v.text : std::to_string(v.number);
            out.push_back(std::move(a));
            ++kept;
        }
        if (left)
            warnings.push_back("channel " + c->name + ": its first " + std::to_string(kept) +
                               " texts are annotations, " + std::to_string(left) + " more are not shown");
    }
    return {};
}

} // namespace lv::formats::mdf4
