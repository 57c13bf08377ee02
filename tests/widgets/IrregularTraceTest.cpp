// Irregular channels in the plot: steps hold each value to the next sample and stop at pauses longer than the
// maximum gap (per sample and per column), points stand alone, empty columns stay empty, in the trace and in the
// rendered picture.
#include "IrregularTrace.h"
#include "TraceRenderer.h"
#include "WidgetTestMain.h"

#include "cache/Pyramid.h"
#include "support/IrregularRecording.h"

#include <QGuiApplication>
#include <QTest>
#include <cmath>
#include <map>
#include <set>

namespace {

using lv::widgets::ChannelTrace;

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000; // ns

// 1 s of samples 1 ms apart, a pause of 600 ms, 1 s more; values a slow square wave (0 or 10 counts, 20 ms each).
lv::test::IrregularRecording withPause()
{
    std::vector<std::int64_t> times;
    std::vector<std::int32_t> counts;
    for (int i = 0; i < 2000; ++i) {
        times.push_back(kT0 + std::int64_t{i} * 1'000'000 + (i >= 1000 ? 600'000'000 : 0) + (i % 3) * 100'000);
        counts.push_back((i / 20) % 2 ? 10 : 0);
    }
    lv::test::IrregularRecording r;
    r.addChannel("can", std::move(times), std::move(counts), 128, 1.0);
    return r;
}

struct Fixture {
    lv::test::IrregularRecording recording = withPause();
    lv::cache::BlockCache cache{16 << 20};
    lv::cache::ViewContext view{&recording, &cache, 1, nullptr, nullptr, &recording};
    lv::core::TimeRange range{kT0 / 1000 - 100'000, kT0 / 1000 + 2'700'000}; // 2.8 s

    std::map<std::size_t, bool> pointsOf; // the channel's own choice, if any

    ChannelTrace trace(std::size_t columns, bool points, double maxGapFactor = lv::core::kIrregularGapFactor)
    {
        lv::widgets::FrameRequest request;
        request.range = range;
        request.channels = {0};
        request.columns = columns;
        request.exact = true;
        request.irregular.points = points;
        request.irregular.pointsOf = pointsOf;
        request.irregular.maxGapFactor = maxGapFactor;
        lv::core::CancelToken cancel;
        std::string error;
        ChannelTrace t = lv::widgets::buildIrregularTrace(view, request, 0, cancel, error);
        if (!error.empty()) qWarning("%s", error.c_str());
        return t;
    }
    // Seconds from the recording's start of a time in ns.
    double x(std::int64_t ns) const { return static_cast<double>(ns - lv::core::usToNs(recording.info().start)) / 1e9; }
};

// Whether a line of the trace (two finite points in a row) crosses the open interval (a, b).
bool bridges(const ChannelTrace& t, double a, double b)
{
    for (std::size_t i = 1; i < t.x.size(); ++i)
        if (!std::isnan(t.y[i - 1]) && !std::isnan(t.y[i]) && t.x[i - 1] < b && t.x[i] > a) return true;
    return false;
}

QImage render(const ChannelTrace& trace, const Fixture& f, int width)
{
    lv::widgets::TraceFrame frame;
    frame.traces.push_back(trace);
    lv::widgets::RenderSpec spec;
    spec.pixels = QSize(width, 60);
    spec.x0 = static_cast<double>(f.range.start - f.recording.info().start) / 1e6;
    spec.x1 = static_cast<double>(f.range.end - f.recording.info().start) / 1e6;
    spec.color = Qt::black;
    spec.mapping.push_back({0, 0, 5.0, 0.05, QColor()});
    return lv::widgets::renderTraces(frame, spec);
}

// Device columns of the picture with any pixel set, within [from, to).
int inkedColumns(const QImage& image, int from, int to)
{
    int n = 0;
    for (int x = std::max(from, 0); x < std::min(to, image.width()); ++x)
        for (int y = 0; y < image.height(); ++y)
            if (qAlpha(image.pixel(x, y)) != 0) {
                ++n;
                break;
            }
    return n;
}

} // namespace

class IrregularTraceTest : public QObject {
    Q_OBJECT
private slots:
    void stepsStopAtPausesLongerThanTheMaximumGap_data()
    {
        QTest::addColumn<int>("columns");
        QTest::newRow("per sample") << 1400; // 2000 samples, at most 2 a column: one point each
        QTest::newRow("per column") << 280;  // about 7 samples a column: min/max envelopes
    }

    void stepsStopAtPausesLongerThanTheMaximumGap()
    {
        QFETCH(int, columns);
        Fixture f;
        const double pauseFrom = f.x(kT0 + 999'200'000) + 0.002, pauseTo = f.x(kT0 + 1'600'000'000) - 0.002;
        const ChannelTrace steps = f.trace(static_cast<std::size_t>(columns), false);
        QVERIFY(steps.x.size() > 100);
        QVERIFY(!bridges(steps, pauseFrom, pauseTo)); // 600 ms > 10 median intervals of 1 ms
        QVERIFY(bridges(steps, 0.2, 0.3));            // samples 1 ms apart are joined
        QVERIFY(std::is_sorted(steps.x.begin(), steps.x.end()));
        const ChannelTrace held = f.trace(static_cast<std::size_t>(columns), false, 1000); // up to 1 s bridged
        QVERIFY(bridges(held, pauseFrom, pauseTo));
        // The picture: nothing drawn in the pause, a held line across it with the wider setting.
        const int width = columns, a = static_cast<int>(std::ceil(pauseFrom / 2.8 * width + 0.1 / 2.8 * width));
        const int b = static_cast<int>(std::floor(pauseTo / 2.8 * width + 0.1 / 2.8 * width));
        QVERIFY(b - a > 20);
        QCOMPARE(inkedColumns(render(steps, f, width), a, b), 0);
        QCOMPARE(inkedColumns(render(held, f, width), a, b), b - a);
    }

    void stepsAreLevelBetweenSamples()
    {
        Fixture f;
        const ChannelTrace steps = f.trace(1400, false);
        int vertical = 0;
        for (std::size_t i = 1; i < steps.x.size(); ++i) {
            if (std::isnan(steps.y[i - 1]) || std::isnan(steps.y[i])) continue;
            QVERIFY2(steps.x[i] == steps.x[i - 1] || steps.y[i] == steps.y[i - 1], "a sloped line between samples");
            vertical += steps.x[i] == steps.x[i - 1] && steps.y[i] != steps.y[i - 1];
        }
        QCOMPARE(vertical, 98); // the square wave's 99 value changes, less the one across the pause (not joined)
    }

    void pointsStandAlone_data() { stepsStopAtPausesLongerThanTheMaximumGap_data(); }

    void pointsStandAlone()
    {
        QFETCH(int, columns);
        Fixture f;
        const ChannelTrace points = f.trace(static_cast<std::size_t>(columns), true, 1000);
        QVERIFY(points.points);
        QVERIFY(points.x.size() > 100);
        for (std::size_t i = 1; i < points.x.size(); ++i) // a run joins only a column's min and max (same x)
            if (!std::isnan(points.y[i - 1]) && !std::isnan(points.y[i])) QCOMPARE(points.x[i], points.x[i - 1]);
        const int width = columns;
        const int a = static_cast<int>(std::ceil((f.x(kT0 + 999'200'000) + 0.102) / 2.8 * width));
        const int b = static_cast<int>(std::floor((f.x(kT0 + 1'600'000'000) + 0.098) / 2.8 * width));
        const QImage image = render(points, f, width);
        QCOMPARE(inkedColumns(image, a, b), 0); // no sample in the pause: nothing drawn, whatever the max gap
        QVERIFY(inkedColumns(image, 0, width) > width / 2);
    }

    // A channel's own choice (Session dock > Draw Samples As) wins over the View menu's, both ways; the trace is
    // then what that choice alone gives.
    void aChannelsOwnChoiceOverridesTheDefault()
    {
        Fixture f;
        const ChannelTrace steps = f.trace(4000, false), points = f.trace(4000, true);
        QVERIFY(!steps.points && points.points);
        QVERIFY(steps.x != points.x); // steps hold each value until the next sample: other points
        f.pointsOf[0] = true;
        const ChannelTrace chosenPoints = f.trace(4000, false);
        QVERIFY(chosenPoints.points);
        QCOMPARE(chosenPoints.x, points.x);
        f.pointsOf[0] = false;
        const ChannelTrace chosenSteps = f.trace(4000, true);
        QVERIFY(!chosenSteps.points);
        QCOMPARE(chosenSteps.x, steps.x);
        f.pointsOf = {{1, true}}; // another channel's choice leaves this one as the default
        QVERIFY(!f.trace(4000, false).points);
    }

    void emptyColumnsStayEmptyWhenSparse()
    {
        // Bursts of 10 samples 1 ms apart every 200 ms for 2 s, in 40 columns of 50 ms: min/max columns (100
        // samples), of which 10 hold samples; the others stay empty, and no step joins one burst to the next.
        std::vector<std::int64_t> times;
        std::vector<std::int32_t> counts;
        for (int i = 0; i < 100; ++i)
            times.push_back(kT0 + (i / 10) * 200'000'000 + (i % 10) * 1'000'000), counts.push_back(i % 10);
        lv::test::IrregularRecording r;
        r.addChannel("bursts", times, counts, 8, 1.0);
        lv::cache::BlockCache cache(4 << 20);
        const lv::cache::ViewContext view{&r, &cache, 1, nullptr, nullptr, &r};
        lv::widgets::FrameRequest request;
        request.range = {kT0 / 1000, kT0 / 1000 + 2'000'000};
        request.columns = 40;
        for (bool points : {true, false}) {
            request.irregular.points = points;
            lv::core::CancelToken cancel;
            std::string error;
            const ChannelTrace t = lv::widgets::buildIrregularTrace(view, request, 0, cancel, error);
            QVERIFY(error.empty());
            std::set<long> columns;
            int runs = 0;
            for (std::size_t i = 0; i < t.y.size(); ++i) {
                if (std::isnan(t.y[i])) continue;
                columns.insert(std::lround(std::floor(t.x[i] / 0.05)));
                runs += i == 0 || std::isnan(t.y[i - 1]);
            }
            QCOMPARE(columns.size(), std::size_t{10}); // only the columns that hold samples
            QCOMPARE(runs, 10);                        // one run per burst: a column's min and max, or its steps
            QCOMPARE(t.low, 0.0);
            QCOMPARE(t.high, 9.0);
        }
    }
};

LONGVIEW_GUI_TEST(IrregularTraceTest)

#include "IrregularTraceTest.moc"
