// libFuzzer target: arbitrary bytes as an annotations CSV imported onto a one-hour, two-channel recording. Never a
// crash; what reads lies inside the recording, on its channels, and writes back to a CSV that reads the same.
#include "convert/AnnotationFiles.h"
#include "convert/CsvSideFiles.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool ok, const char* what)
{
    if (ok) return;
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

lv::core::RecordingInfo recording()
{
    lv::core::RecordingInfo info;
    info.start = 1'735'689'600'000'000;
    info.end = info.start + 3'600'000'000;
    for (const char* name : {"Fp1", "Fp2"}) {
        lv::core::ChannelInfo c;
        c.name = name;
        info.channels.push_back(c);
    }
    return info;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > (1u << 20)) return 0;
    static const lv::core::RecordingInfo info = recording();
    auto read =
        lv::convert::parseAnnotationsCsv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv", info);
    if (!read) {
        check(!read.error().message.empty(), "an error without words");
        return 0;
    }
    for (const lv::core::Annotation& a : *read) {
        check(a.time >= info.start && a.time <= info.end, "an onset outside the recording");
        check(a.durationUs >= 0, "a negative duration");
        check(!a.channel || info.channelIndex(*a.channel) >= 0, "an unknown channel");
    }
    const std::string text = lv::convert::annotationsCsv(*read, info.start, true);
    auto again = lv::convert::parseAnnotationsCsv(text, "again.csv", info);
    check(again.ok(), "written annotations do not read");
    check(again->size() == read->size(), "annotation count changed");
    for (std::size_t i = 0; i < read->size(); ++i) {
        check((*again)[i].time == (*read)[i].time, "onset changed");
        check((*again)[i].durationUs == (*read)[i].durationUs, "duration changed");
        check((*again)[i].channel == (*read)[i].channel, "channel changed");
    }
    return 0;
}
