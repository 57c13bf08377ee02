// Test fixtures for the plot: four channels of 10 s, a square wave on channel 1 (and 3), the plot showing them.
#pragma once

#include "TracePlot.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>
#include <string>

namespace lv::test {

constexpr double kAmplitude = 20.0; // the square wave of channel 1 swings between -20 and +20 uV

inline lv::core::RecordingInfo fourChannels(const std::string& lastUnit = "uV")
{
    lv::core::RecordingInfo info;
    info.start = 0;
    info.end = 10'000'000;
    for (int c = 0; c < 4; ++c) {
        lv::core::ChannelInfo ch;
        ch.name = "ch" + std::to_string(c);
        ch.fs = 100;
        ch.unit = c == 3 ? lastUnit : "uV";
        ch.end = info.end;
        info.channels.push_back(ch);
    }
    return info;
}

// Channel 1 a square wave of +-amplitude (with `last`, channel 3 too, of +-10 x amplitude), the others empty.
inline lv::widgets::FramePtr squareWave(std::size_t columns, double amplitude = kAmplitude, bool exact = true,
                                        bool last = false)
{
    auto frame = std::make_shared<lv::widgets::TraceFrame>();
    frame->id = 1;
    frame->range = {0, 10'000'000};
    frame->columns = columns;
    frame->exact = exact;
    for (std::size_t c = 0; c < 4; ++c) {
        lv::widgets::ChannelTrace t;
        t.channel = c;
        const double a = c == 3 ? 10 * amplitude : amplitude;
        if (c == 1 || (c == 3 && last)) {
            for (int i = 0; i < 1000; ++i) {
                t.x.push_back(i / 100.0);
                t.y.push_back((i / 50) % 2 ? a : -a);
            }
            t.low = -a;
            t.high = a;
        }
        frame->traces.push_back(std::move(t));
    }
    return frame;
}

// A 900 x 600 plot of fourChannels(lastUnit), all four in view (lanes 0-3), shown unless told otherwise.
struct FourLanes {
    explicit FourLanes(const std::string& lastUnit = "uV", bool show = true) : info(fourChannels(lastUnit))
    {
        plot.resize(900, 600);
        if (show) {
            plot.show();
            exposed = QTest::qWaitForWindowExposed(&plot);
        }
        plot.setRecording(&info, &bands);
        plot.setView({0, 10'000'000}, {0, 1, 2, 3});
    }

    const lv::core::RecordingInfo info;
    const lv::widgets::GapBands bands{{}, std::vector<std::vector<lv::core::TimeRange>>(4)};
    lv::widgets::TracePlot plot;
    QSignalSpy drawn{&plot, &lv::widgets::TracePlot::frameDrawn};
    bool exposed = true;
};

} // namespace lv::test
