// The status readout under the mouse: the channel's value at the time under it, dt with 1/dt and dv between two
// cursors, refreshed when the frame or the view changes and cleared when the mouse leaves or the recording changes.
#include "PlotFixtures.h"
#include "WidgetTestMain.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

using lv::test::FourLanes;
using lv::test::kAmplitude;
using lv::widgets::TracePlot;

namespace {

// The QCustomPlot inside the TracePlot: it takes the mouse.
QWidget* plotArea(TracePlot& plot)
{
    for (QWidget* w : plot.findChildren<QWidget*>())
        if (QByteArray(w->metaObject()->className()) == "QCustomPlot") return w;
    return nullptr;
}

// A point inside lane 1 at `seconds` from the start, in the plot area's coordinates.
QPoint at(TracePlot& plot, QWidget* area, double seconds)
{
    const QRect data = plot.dataRect();
    const int x = static_cast<int>(std::lround(plot.pixelOf(static_cast<lv::core::Uutc>(seconds * 1e6))));
    return area->mapFrom(&plot, QPoint(x, data.top() + data.height() * 3 / 8));
}

QString lastText(const QSignalSpy& spy) { return spy.isEmpty() ? QString("(none)") : spy.last().first().toString(); }

} // namespace

class ReadoutTest : public QObject {
    Q_OBJECT

private slots:
    void showsTheValueUnderTheMouseAndFollowsChanges()
    {
        FourLanes lanes;
        QVERIFY(lanes.exposed);
        TracePlot& plot = lanes.plot;
        QSignalSpy status(&plot, &TracePlot::statusText);
        plot.showFrame(lv::test::squareWave(plot.dataColumns()));
        QWidget* area = plotArea(plot);
        QVERIFY(area);
        // The square wave is -20 uV for [0, 0.5) s, +20 uV for [0.5, 1) s, ...
        QTest::mouseMove(area, at(plot, area, 0.25));
        QVERIFY2(lastText(status).contains("ch1 = -20 uV"), qPrintable(lastText(status)));
        QTest::mouseMove(area, at(plot, area, 0.75));
        QVERIFY2(lastText(status).contains("ch1 = 20 uV"), qPrintable(lastText(status)));
        // Two cursors 0.5 s apart: dt, 2 Hz, and dv from -20 to +20 uV.
        QTest::mouseClick(area, Qt::RightButton, {}, at(plot, area, 0.25));
        QTest::mouseClick(area, Qt::RightButton, {}, at(plot, area, 0.75));
        const QRegularExpressionMatch m =
            QRegularExpression(R"(dt = ([0-9.]+) s \(([0-9.]+) Hz\), dv = 40 uV)").match(lastText(status));
        QVERIFY2(m.hasMatch(), qPrintable(lastText(status)));
        const double dt = m.captured(1).toDouble(), hz = m.captured(2).toDouble();
        QVERIFY2(std::abs(dt - 0.5) < 0.02 && std::abs(hz * dt - 1) < 1e-3, qPrintable(lastText(status)));
        // A new frame with another amplitude: the readout follows it without a mouse move.
        plot.showFrame(lv::test::squareWave(plot.dataColumns(), 2 * kAmplitude));
        QVERIFY2(lastText(status).contains("ch1 = 40 uV"), qPrintable(lastText(status)));
        // The view moved past the frame: nothing known there, no stale value.
        plot.setView({20'000'000, 30'000'000}, {0, 1, 2, 3});
        QVERIFY2(lastText(status).contains("ch1 = nan"), qPrintable(lastText(status)));
        // Another recording: the readout is cleared.
        const lv::core::RecordingInfo other = lv::test::fourChannels("mV");
        plot.setRecording(&other, &lanes.bands);
        QCOMPARE(lastText(status), QString());
    }

    void aLabelledChannelShowsTheTextItsCountStandsFor()
    {
        FourLanes lanes;
        QVERIFY(lanes.exposed);
        TracePlot& plot = lanes.plot;
        lv::core::RecordingInfo info = lanes.info;
        info.channels[1].labelled = true; // ch1: its counts stand for texts
        plot.setRecording(&info, &lanes.bands);
        plot.setView({0, 10'000'000}, {0, 1, 2, 3});
        const double factor = info.channels[1].conversionFactor, offset = info.channels[1].offset;
        std::vector<std::pair<std::size_t, std::int32_t>> asked;
        plot.setValueLabels([&](std::size_t channel, std::int32_t count) {
            asked.emplace_back(channel, count);
            return count < 0 ? QString("low") : QString("high");
        });
        QSignalSpy status(&plot, &TracePlot::statusText);
        plot.showFrame(lv::test::squareWave(plot.dataColumns()));
        QWidget* area = plotArea(plot);
        QVERIFY(area);
        QTest::mouseMove(area, at(plot, area, 0.25));
        QVERIFY2(lastText(status).contains("ch1 = -20 uV (low)"), qPrintable(lastText(status)));
        QVERIFY(!asked.empty());
        QCOMPARE(asked.back().first, std::size_t{1});
        QCOMPARE(asked.back().second, static_cast<std::int32_t>(std::lround((-20 - offset) / factor)));
        QTest::mouseMove(area, at(plot, area, 0.75));
        QVERIFY2(lastText(status).contains("ch1 = 20 uV (high)"), qPrintable(lastText(status)));
        info.channels[1].labelled = false; // an unlabelled channel asks for none
        asked.clear();
        plot.setRecording(&info, &lanes.bands);
        plot.setView({0, 10'000'000}, {0, 1, 2, 3});
        plot.showFrame(lv::test::squareWave(plot.dataColumns()));
        QTest::mouseMove(area, at(plot, area, 0.25));
        QVERIFY2(!lastText(status).contains("("), qPrintable(lastText(status)));
        QVERIFY(asked.empty());
    }
};

LONGVIEW_WIDGET_TEST(ReadoutTest)
#include "ReadoutTest.moc"
