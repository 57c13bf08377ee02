// The viewer on the legacy reference sessions and a small synthetic one: gap and NaN bands drawn equal the
// engine's gaps, lines break in every gap, annotations sit at their times, paging and zooming move the axis.
#include "AnnotationList.h"
#include "MainWindow.h"
#include "OverviewStrip.h"
#include "SessionBrowser.h"
#include "Theme.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "formats/RecordingOpener.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <cmath>

using lv::core::TimeRange;
using lv::widgets::MainWindow;

namespace {

lv::core::RecordingInfo engineInfo(const QString& path, const QString& password = {})
{
    auto r = lv::formats::openRecording({path.toStdString(), password.toStdString(), ""});
    if (!r) qFatal("cannot open %s: %s", qPrintable(path), r.error().describe().c_str());
    return (*r)->info();
}

// Every gap of every shown channel has a NaN point inside it: the line is broken there.
bool linesBreakInGaps(const MainWindow& w, const lv::core::RecordingInfo& info)
{
    const auto frame = w.plot()->frame();
    if (!frame) return false;
    for (const lv::widgets::ChannelTrace& t : frame->traces)
        for (const TimeRange& g : lv::test::clip(info.channels[t.channel].gaps, frame->range)) {
            const double a = static_cast<double>(g.start - info.start) / 1e6;
            const double b = static_cast<double>(g.end - info.start) / 1e6;
            bool broken = false;
            for (std::size_t i = 0; i < t.x.size() && !broken; ++i)
                broken = t.x[i] >= a && t.x[i] <= b && std::isnan(t.y[i]);
            if (!broken) return false;
        }
    return true;
}

// Trace-coloured pixels (the light theme's trace colour) in the plot's columns [x0, x1).
int tracePixels(const MainWindow& w, int x0, int x1)
{
    const QImage image = w.plot()->grab().toImage();
    const QRect area = w.plot()->dataRect();
    const QColor trace = lv::widgets::Theme::light().trace;
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = std::max(x0, area.left()); x < std::min(x1, area.right()); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - trace.red()) + std::abs(c.green() - trace.green()) +
                     std::abs(c.blue() - trace.blue()) <
                 40;
        }
    return n;
}

} // namespace

class ViewerTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_synth;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_synth = lv::test::makeSynth(m_dir.path(), {"--channels", "4", "--hours", "1", "--fs", "64", "--seed", "7"});
        QVERIFY(!m_synth.isEmpty());
    }

    void gapBandsEqualTheEngineGaps_data()
    {
        QTest::addColumn<QString>("session");
        QTest::addColumn<QString>("password");
        for (const char* s : {"plain_single", "nan_gap_long", "multi_segment", "multi_channel", "with_annotations"})
            QTest::newRow(s) << lv::test::testdata(QString("mef3/legacy/%1.mefd").arg(s)) << QString();
        QTest::newRow("enc_both") << lv::test::testdata("mef3/legacy/enc_both.mefd") << QString("pass2");
    }
    void gapBandsEqualTheEngineGaps()
    {
        QFETCH(QString, session);
        QFETCH(QString, password);
        const lv::core::RecordingInfo info = engineInfo(session, password);
        MainWindow w;
        w.setInteractive(false);
        w.setThemeName("light");
        w.setInitialView({"", 1e6, ""}); // the whole recording
        w.show();
        QVERIFY(lv::test::openAndWait(w, session, password));
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{info.start, info.end}));
        QCOMPARE(w.plot()->drawnGapBands(), lv::test::commonGaps(info));
        QVERIFY(w.plot()->drawnNanBands().empty()); // legacy sessions: every gap is recording-wide
        QVERIFY(linesBreakInGaps(w, info));
        // In the picture: no trace pixel inside a gap (lines never bridge it), plenty outside.
        QVERIFY(tracePixels(w, 0, 100000) > 500);
        for (const TimeRange& g : lv::test::commonGaps(info)) {
            const int a = static_cast<int>(w.plot()->pixelOf(g.start)) + 2,
                      b = static_cast<int>(w.plot()->pixelOf(g.end)) - 1;
            if (b > a) QCOMPARE(tracePixels(w, a, b), 0);
        }
        // Zoomed in around each gap (samples drawn one by one): the band is the gap, clipped to the view.
        for (const TimeRange& g : lv::test::commonGaps(info)) {
            w.goTo(g.start - 500'000);
            w.setPageLength(2'000'000);
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(w.plot()->frame()->samples);
            QCOMPARE(w.plot()->drawnGapBands(), lv::test::clip({g}, w.view().range()));
            QVERIFY(linesBreakInGaps(w, info));
        }
    }

    void nanBandsEqualEachChannelsOwnGaps()
    {
        const lv::core::RecordingInfo info = engineInfo(m_synth);
        const auto common = lv::test::commonGaps(info);
        std::size_t own = 0;
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 1e6, ""});
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_synth));
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnGapBands(), common);
        for (std::size_t c = 0; c < info.channels.size(); ++c) {
            std::vector<TimeRange> expected; // the channel's gaps that are not gaps of every channel
            for (const TimeRange& g : info.channels[c].gaps)
                if (std::find(common.begin(), common.end(), g) == common.end()) expected.push_back(g);
            std::vector<TimeRange> drawn;
            for (const auto& b : w.plot()->drawnNanBands())
                if (b.channel == c) drawn.push_back(b.range);
            QCOMPARE(drawn, expected);
            own += expected.size();
        }
        QVERIFY2(own > 0, "the synthetic session should hold NaN runs");
        QVERIFY(linesBreakInGaps(w, info));
        // The browser counts them too.
        QTreeWidgetItem* root = w.browser()->tree()->topLevelItem(0);
        QCOMPARE(root->childCount(), static_cast<int>(info.channels.size()));
    }

    void overviewMarksGapsAndNaNRunsPerChannel()
    {
        using lv::widgets::Coverage;
        const lv::core::RecordingInfo info = engineInfo(m_synth);
        const auto common = lv::test::commonGaps(info);
        MainWindow w;
        w.setInteractive(false);
        w.setThemeName("light");
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_synth));
        QVERIFY(lv::test::waitSettled(w));
        lv::widgets::OverviewStrip* strip = w.overview();
        QTRY_VERIFY_WITH_TIMEOUT(strip->coverage().channels.size() == info.channels.size() &&
                                     strip->coverage().columns == static_cast<std::size_t>(strip->width()),
                                 20000);
        // The pyramid fills in the background (the loader builds it): the strip follows until every block is known.
        QTRY_VERIFY_WITH_TIMEOUT(strip->coverage().complete(), 90000);
        const lv::widgets::CoverageMap& map = strip->coverage();
        QCOMPARE(map.range, (TimeRange{info.start, info.end}));
        const QImage picture = strip->grab().toImage();
        const QRect area = strip->coverageRect();
        const double rowH = static_cast<double>(area.height()) / static_cast<double>(info.channels.size());
        const QColor nan = lv::widgets::Theme::light().nanBand;
        std::size_t nanColumns = 0, gapColumns = 0, dataColumns = 0;
        for (std::size_t c = 0; c < info.channels.size(); ++c) {
            std::vector<TimeRange> own; // NaN runs: the channel's gaps that are not gaps of every channel
            for (const TimeRange& g : info.channels[c].gaps)
                if (std::find(common.begin(), common.end(), g) == common.end()) own.push_back(g);
            for (std::size_t k = 0; k < map.columns; ++k) {
                const TimeRange col{map.timeOf(k), map.timeOf(k + 1)};
                const auto touches = [&](const std::vector<TimeRange>& ranges) {
                    return std::any_of(ranges.begin(), ranges.end(),
                                       [&](const TimeRange& r) { return r.start < col.end && r.end > col.start; });
                };
                const Coverage got = map.channels[c][k];
                const QByteArray where = QByteArray::number(c) + "/" + QByteArray::number(k);
                if (touches(own)) {
                    QVERIFY2(got == Coverage::NaN, where);
                    ++nanColumns;
                    const QColor px = picture.pixelColor(area.left() + static_cast<int>(k) * area.width() /
                                                                           static_cast<int>(map.columns),
                                                         area.top() + static_cast<int>(rowH * (c + 0.5)));
                    if (!w.view().range().contains(col.start)) // the window's tint is not over it
                        QVERIFY2(std::abs(px.red() - nan.red()) + std::abs(px.green() - nan.green()) +
                                         std::abs(px.blue() - nan.blue()) <
                                     40,
                                 where);
                } else if (touches(common)) {
                    QVERIFY2(got == Coverage::Gap, where);
                    ++gapColumns;
                } else if (col.start >= info.channels[c].start && col.end <= info.channels[c].end) {
                    QVERIFY2(got == Coverage::Data, where);
                    ++dataColumns;
                }
            }
        }
        QVERIFY(nanColumns > 0);
        QVERIFY(gapColumns > 0);
        QVERIFY(dataColumns > map.columns);
    }

    void overviewIsCompleteFromTheSavedPyramid()
    {
        {
            MainWindow w; // builds the pyramid; it is saved when the session closes
            w.setInteractive(false);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_synth));
            QTRY_VERIFY_WITH_TIMEOUT(w.overview()->coverage().columns > 0 && w.overview()->coverage().complete(),
                                     90000);
        }
        MainWindow w;
        w.setInteractive(false);
        w.loader()->setBuildPyramid(false); // only the saved pyramid can tell every block's NaN samples now
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_synth));
        QTRY_VERIFY_WITH_TIMEOUT(w.overview()->coverage().pyramidLoaded && w.overview()->coverage().complete(), 90000);
        QCOMPARE(w.overview()->coverage().columns, static_cast<std::size_t>(w.overview()->coverageRect().width()));
    }

    void annotationsAreDrawnAtTheirTimes()
    {
        const QString session = lv::test::testdata("mef3/legacy/with_annotations.mefd");
        const lv::core::RecordingInfo info = engineInfo(session);
        QVERIFY(!info.annotations.empty());
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 2, ""});
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        QVERIFY(lv::test::waitSettled(w));
        std::vector<lv::core::Uutc> expected;
        for (const auto& a : info.annotations) expected.push_back(a.time);
        QCOMPARE(w.plot()->drawnAnnotations(), expected);
        QCOMPARE(w.plot()->labelledAnnotations(), static_cast<int>(expected.size()));
        // The list dock: filter, then a double-click jumps there.
        QCOMPARE(w.annotations()->visibleCount(), static_cast<int>(expected.size()));
        w.annotations()->setFilter("offset");
        QCOMPARE(w.annotations()->visibleCount(), 1);
        w.pageBy(2);
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(w.plot()->drawnAnnotations().empty());
        QTreeWidgetItem* item = w.annotations()->list()->topLevelItem(1);
        emit w.annotations()->list()->itemDoubleClicked(item, 0);
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(w.view().range().contains(info.annotations[1].time));
    }

    void pagingAndZoomingMoveTheTimeAxis()
    {
        const QString session = lv::test::testdata("mef3/legacy/multi_segment.mefd");
        const lv::core::RecordingInfo info = engineInfo(session);
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 2, ""});
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        QVERIFY(lv::test::waitSettled(w));
        const lv::core::Uutc s = info.start;
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s, s + 2'000'000}));
        QTest::keyClick(&w, Qt::Key_PageDown);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s + 2'000'000, s + 4'000'000}));
        QCOMPARE(w.plot()->frame()->range, w.plot()->drawnRange());
        QTest::keyClick(&w, Qt::Key_Right);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s + 2'200'000, s + 4'200'000}));
        QTest::keyClick(&w, Qt::Key_PageUp);
        QTest::keyClick(&w, Qt::Key_Left);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s, s + 2'000'000})); // clamped at the start
        w.zoomAroundCenter(0.5);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s + 500'000, s + 1'500'000}));
        // Ctrl+= zooms in as Ctrl++ does (without Shift), Ctrl+- zooms out.
        QTest::keyClick(&w, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s + 750'000, s + 1'250'000}));
        QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{s + 500'000, s + 1'500'000}));
        // The wheel zooms about the mouse: one notch in at the traces' left edge keeps the left edge (left of it,
        // over the labels, the wheel scrolls through the channels).
        QWidget* canvas = w.plot()->findChild<QWidget*>();
        QVERIFY(canvas);
        const QRect data = w.plot()->dataRect();
        const QPointF edge = canvas->mapFrom(w.plot(), QPointF(data.left(), data.center().y()));
        QWheelEvent wheel(edge, canvas->mapToGlobal(edge), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        const lv::core::TimeRange before = w.view().range();
        QApplication::sendEvent(canvas, &wheel);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.view().span(), before.duration() * 4 / 5); // one notch: 0.8 times the span
        QCOMPARE(w.view().range().start, before.start);       // about the mouse at the left edge
        QCOMPARE(w.plot()->drawnRange(), w.view().range());
        // Page length presets and the end of the recording.
        w.setPageLength(0);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{info.start, info.end}));
        w.setPageLength(5'000'000);
        w.goTo(info.end);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->drawnRange(), (TimeRange{info.end - 5'000'000, info.end}));
    }

    void channelsCanBeHiddenShownAndReordered()
    {
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 1e6, "ch2"});
        w.show();
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("mef3/legacy/multi_channel.mefd")));
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->channels(), (std::vector<std::size_t>{1}));
        QVERIFY(w.plot()->laneLabel(0).startsWith("ch2"));
        w.setVisibleChannels({0, 1});
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->frame()->traces.size(), std::size_t(2));
        QVERIFY(w.plot()->frame()->traces[1].x.size() > 100);
        QVERIFY(w.plot()->hasTraceImage());
        // Dragging ch2 above ch1 in the session browser (what an internal move does to the tree) reorders lanes.
        QTreeWidgetItem* root = w.browser()->tree()->topLevelItem(0);
        root->insertChild(0, root->takeChild(1));
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->channels(), (std::vector<std::size_t>{1, 0}));
        QVERIFY(w.plot()->laneLabel(0).startsWith("ch2"));
        // Unchecking hides.
        root->child(1)->setCheckState(0, Qt::Unchecked);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->channels(), (std::vector<std::size_t>{1}));
    }
};

LONGVIEW_WIDGET_TEST(ViewerTest)
#include "ViewerTest.moc"
