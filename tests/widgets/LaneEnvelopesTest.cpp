// Montage lanes where their samples are not summed: laneEnvelopePoints reduces chunk extrema to columns (least and
// greatest of the chunks a column touches, NaN where none has a sample, refused when a column is narrower than a
// chunk); in the viewer, a bipolar lane of 5 h at 256 Hz (wider than kFilterLimit) zoomed out to the whole recording
// is drawn from its envelopes, reaching the derivation's true least and greatest value.
#include "LaneEnvelopes.h"
#include "MainWindow.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "formats/RecordingOpener.h"
#include "montage/MontageRecording.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>

using lv::widgets::MainWindow;

class LaneEnvelopesTest : public QObject {
    Q_OBJECT

private slots:
    void columnsTakeTheChunksTheyTouch()
    {
        auto lanes = std::make_shared<lv::widgets::MontageLanes>();
        lanes->first = 3;
        lanes->plans.resize(1);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        lv::widgets::LaneEnvelopes e{lanes, {4, {{{1, 2}, {-5, 0}, {nan, nan}, {nan, nan}, {3, 9}, {2, 2}}}}};
        lv::core::SampleGrid grid{2'000'000, 1.0}; // 1 Hz, starting 1 s after `start`
        lv::widgets::ChannelTrace t;
        QVERIFY(lv::widgets::laneEnvelopePoints(e, 3, grid, 1'000'000, 0, 24, 3, t)); // 8 samples, 2 chunks a column
        const std::vector<double> x = {5, 5, 13, 21, 21}; // each column's middle, 1 s after `start`
        QCOMPARE(t.x, x);
        QCOMPARE(t.y.size(), std::size_t{5});
        QCOMPARE(t.y[0], -5.0);
        QCOMPARE(t.y[1], 2.0);
        QVERIFY(std::isnan(t.y[2])); // chunks 2 and 3 hold no sample
        QCOMPARE(t.y[3], 2.0);
        QCOMPARE(t.y[4], 9.0);
        lv::widgets::ChannelTrace straddling; // columns of 6 samples: the middle one touches chunks 1 and 2
        QVERIFY(lv::widgets::laneEnvelopePoints(e, 3, grid, 1'000'000, 0, 24, 4, straddling));
        QCOMPARE(straddling.y[2], -5.0);
        QCOMPARE(straddling.y[3], 0.0);
        lv::widgets::ChannelTrace narrow;
        QVERIFY(!lv::widgets::laneEnvelopePoints(e, 3, grid, 1'000'000, 0, 24, 7, narrow)); // columns under a chunk
        QVERIFY(!lv::widgets::laneEnvelopePoints(e, 5, grid, 1'000'000, 0, 24, 3, narrow)); // not a lane of them
        QVERIFY(narrow.x.empty());
    }

    void aWideViewOfALaneIsDrawnFromItsEnvelopes()
    {
        QTemporaryDir dir;
        const QString session = lv::test::makeSynth(dir.path(), {"--channels", "2", "--hours", "5", "--seed", "4"});
        QVERIFY(!session.isEmpty());
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 600);
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        const lv::montage::Montage pair{"pair", {{"a-b", "", "", {{"ch001", 1}, {"ch002", -1}}, {}}}};
        w.saveMontage(pair);
        QVERIFY(w.setMontage("saved:pair"));
        const std::size_t lane = w.loader()->info()->channels.size();
        QTest::qWait(1000);
        QVERIFY(w.loader()->laneEnvelopes() == nullptr); // not computed while no view needs them
        w.setPageLength(0);                              // 4.6 M samples a lane: more than kFilterLimit
        QTRY_VERIFY_WITH_TIMEOUT(w.loader()->laneEnvelopes() != nullptr, 60000);
        QVERIFY(lv::test::waitSettled(w));
        const lv::widgets::ChannelTrace* t = nullptr;
        for (const lv::widgets::ChannelTrace& c : w.plot()->frame()->traces)
            if (c.channel == lane) t = &c;
        QVERIFY(t && t->y.size() > 1000);

        // The derivation read whole: the drawn envelope reaches its least and greatest value (floats outward).
        auto recording = lv::formats::openRecording({session.toStdString(), "", "", false});
        QVERIFY(recording.ok());
        auto derived = lv::montage::MontageRecording::create(std::move(*recording), pair);
        QVERIFY(derived.ok());
        const lv::core::ChannelInfo& ch = (*derived)->info().channels[0];
        std::vector<std::int32_t> counts(static_cast<std::size_t>(ch.gridLength));
        const lv::core::RawSlice slice{0, 0, counts};
        QVERIFY((*derived)->readRaw({&slice, 1}, {}).ok());
        double lo = INFINITY, hi = -INFINITY, drawnLo = INFINITY, drawnHi = -INFINITY;
        for (const std::int32_t c : counts)
            if (c != lv::core::kNoSample)
                lo = std::min(lo, c * ch.conversionFactor + ch.offset),
                hi = std::max(hi, c * ch.conversionFactor + ch.offset);
        for (const double y : t->y)
            if (!std::isnan(y)) drawnLo = std::min(drawnLo, y), drawnHi = std::max(drawnHi, y);
        QVERIFY2(drawnLo <= lo && lo - drawnLo < 1e-5 * std::abs(lo),
                 qPrintable(QString("%1 vs %2").arg(drawnLo).arg(lo)));
        QVERIFY2(drawnHi >= hi && drawnHi - hi < 1e-5 * std::abs(hi),
                 qPrintable(QString("%1 vs %2").arg(drawnHi).arg(hi)));
        lv::test::saveShot(w, "lane-envelopes.png"); // with LONGVIEW_SHOT_DIR
    }
};

LONGVIEW_WIDGET_TEST(LaneEnvelopesTest)
#include "LaneEnvelopesTest.moc"
