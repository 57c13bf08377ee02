// C1 conversion: the first `hours` of a synthetic session to EDF+ or BDF+ (gaps filled), in a fresh process:
// wall time, samples per second, peak RSS (which must not grow with the length converted), output size.
#include "Scenario.h"

#include "convert/EdfExport.h"
#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"

#include <filesystem>

namespace lv::bench {

Json runConvert(const CellArgs& a)
{
    const double hours = a.number("hours", 1);
    const bool bdf = a.text("format", "edf") == "bdf";
    const std::string path = session(a.text("session", "64ch-12h-seg60"));
    const std::string out = "/tmp/longview-bench/convert-out" + std::string(bdf ? ".bdf" : ".edf");
    std::filesystem::remove(out);
    warm(path);
    const std::size_t rssBefore = rssBytes();
    auto recording = formats::openRecording({path, "", ""});
    if (!recording) fail(recording.error().describe());
    const core::RecordingInfo& info = (*recording)->info();
    const core::TimeRange range{info.start, std::min(info.end, info.start + static_cast<core::Uutc>(hours * 3600e6))};
    double samples = 0;
    for (const core::ChannelInfo& c : info.channels) samples += static_cast<double>(core::sampleSpan(c, range).count);
    decode::ThreadPool pool(static_cast<std::size_t>(a.number("threads", 0)));
    core::ReadControl control;
    control.runner = &pool;
    const auto started = std::chrono::steady_clock::now();
    auto written = convert::exportEdf(**recording, {{}, range, bdf, convert::GapPolicy::Fill, 0.0}, out, control);
    const double ms = msSince(started);
    if (!written) fail(written.error().describe());
    const double outputMB = static_cast<double>(std::filesystem::file_size(out)) / (1 << 20);
    std::filesystem::remove(out);
    return Json{{"hours", hours},
                {"format", bdf ? "bdf" : "edf"},
                {"threads", pool.threadCount()},
                {"seconds", ms / 1000},
                {"samplesPerSecond", samples / (ms / 1000)},
                {"outputMBperSecond", outputMB / (ms / 1000)},
                {"outputMB", outputMB},
                {"rssBeforeOpenMB", static_cast<double>(rssBefore) / (1 << 20)},
                {"peakRssMB", static_cast<double>(peakRssBytes()) / (1 << 20)}};
}

} // namespace lv::bench
