// ViewState (paging, steps, zoom, clamping) and GapBands (recording-wide vs per-channel) without a window.
#include "GapBands.h"
#include "ViewState.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QTest>

using lv::core::TimeRange;
using namespace lv::widgets;

class UnitsTest : public QObject {
    Q_OBJECT
private slots:
    void pagingMovesByWholePagesAndStopsAtTheEnds()
    {
        ViewState v;
        v.setBounds({1000, 1000 + 100'000'000});
        v.setRange({1000, 1000 + 10'000'000});
        v.page(1);
        QCOMPARE(v.range(), (TimeRange{1000 + 10'000'000, 1000 + 20'000'000}));
        v.step(-0.1);
        QCOMPARE(v.range(), (TimeRange{1000 + 9'000'000, 1000 + 19'000'000}));
        v.page(100);
        QCOMPARE(v.range(), (TimeRange{1000 + 90'000'000, 1000 + 100'000'000}));
        v.page(-100);
        QCOMPARE(v.range(), (TimeRange{1000, 1000 + 10'000'000}));
    }
    void zoomKeepsTheAnchorAndTheBounds()
    {
        ViewState v;
        v.setBounds({0, 100'000'000});
        v.setRange({20'000'000, 40'000'000});
        v.zoom(0.5, 30'000'000);
        QCOMPARE(v.range(), (TimeRange{25'000'000, 35'000'000}));
        v.zoom(0.5, 25'000'000); // anchor at the left edge stays there
        QCOMPARE(v.range(), (TimeRange{25'000'000, 30'000'000}));
        v.zoom(1000, 0);
        QCOMPARE(v.range(), (TimeRange{0, 100'000'000}));
        v.setSpan(1); // never below the minimum span
        QCOMPARE(v.span(), ViewState::kMinimumSpan);
    }
    void recordingWideGapsAreWhereNoChannelHasData()
    {
        lv::core::RecordingInfo info;
        info.start = 0;
        info.end = 100;
        lv::core::ChannelInfo a, b;
        a.start = b.start = 0;
        a.end = b.end = 100;
        a.gaps = {{10, 20}, {50, 60}};
        b.gaps = {{10, 20}, {70, 80}};
        info.channels = {a, b};
        const GapBands bands = computeGapBands(info);
        QCOMPARE(bands.recording, (std::vector<TimeRange>{{10, 20}}));
        QCOMPARE(bands.channels[0], (std::vector<TimeRange>{{50, 60}}));
        QCOMPARE(bands.channels[1], (std::vector<TimeRange>{{70, 80}}));
        QCOMPARE(subtractRanges({{0, 100}}, {{10, 20}, {30, 40}}),
                 (std::vector<TimeRange>{{0, 10}, {20, 30}, {40, 100}}));
        QCOMPARE(clipRanges({{0, 10}, {20, 30}}, {5, 25}), (std::vector<TimeRange>{{5, 10}, {20, 25}}));
    }
};

LONGVIEW_GUILESS_TEST(UnitsTest)
#include "UnitsTest.moc"
