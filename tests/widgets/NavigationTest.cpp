// Where next/previous go (annotations, gaps) and the page past a pause: exact times at the edges.
#include "Navigation.h"
#include "WidgetTestMain.h"

#include <QTest>

using lv::core::TimeRange;
using lv::widgets::nextTime;
using lv::widgets::skipGap;

class NavigationTest : public QObject {
    Q_OBJECT

private slots:
    void nextAndPreviousAreStrictlyAfterAndBefore()
    {
        const std::vector<lv::core::Uutc> times{10, 20, 20, 30};
        QCOMPARE(nextTime(times, 10, 1).value(), 20);
        QCOMPARE(nextTime(times, 15, 1).value(), 20);
        QCOMPARE(nextTime(times, 20, 1).value(), 30);
        QVERIFY(!nextTime(times, 30, 1));
        QCOMPARE(nextTime(times, 30, -1).value(), 20);
        QCOMPARE(nextTime(times, 20, -1).value(), 10);
        QVERIFY(!nextTime(times, 10, -1));
        QVERIFY(!nextTime({}, 0, 1));
        QVERIFY(!nextTime({}, 0, -1));
    }

    // Only a page wholly inside one gap moves: forward to start where the gap ends, back to end where it starts.
    void aPageInsideAGapMovesPastIt()
    {
        const std::vector<TimeRange> gaps{{100, 200}, {300, 1000}};
        QCOMPARE(skipGap({100, 150}, gaps, 1), (TimeRange{200, 250}));
        QCOMPARE(skipGap({150, 200}, gaps, -1), (TimeRange{50, 100}));
        QCOMPARE(skipGap({400, 500}, gaps, 1), (TimeRange{1000, 1100}));
        QCOMPARE(skipGap({400, 500}, gaps, -1), (TimeRange{200, 300}));
        QCOMPARE(skipGap({300, 1000}, gaps, 1), (TimeRange{1000, 1700})); // the whole gap is still inside it
    }

    void aPageWithSomeDataStays()
    {
        const std::vector<TimeRange> gaps{{100, 200}, {300, 1000}};
        for (const TimeRange page : {TimeRange{50, 150}, TimeRange{150, 201}, TimeRange{99, 199}, TimeRange{0, 50},
                                     TimeRange{250, 300}, TimeRange{999, 1049}, TimeRange{1000, 1100}})
            for (int direction : {1, -1}) QCOMPARE(skipGap(page, gaps, direction), page);
        QCOMPARE(skipGap({100, 150}, {}, 1), (TimeRange{100, 150}));
    }
};

LONGVIEW_WIDGET_TEST(NavigationTest)
#include "NavigationTest.moc"
