// The overview's coverage picture: rows per channel, runs in their state's colour at exact pixel edges.
#include "CoverageMap.h"
#include "Theme.h"
#include "WidgetTestMain.h"

#include <QTest>

namespace {

using lv::widgets::Coverage;

lv::widgets::CoverageMap twoChannels()
{
    lv::widgets::CoverageMap map;
    map.range = {0, 10'000'000};
    map.columns = 10;
    map.channels = {{Coverage::Data, Coverage::Data, Coverage::Gap, Coverage::Gap, Coverage::Data, Coverage::Data,
                     Coverage::Data, Coverage::Data, Coverage::Data, Coverage::Unchecked},
                    std::vector<Coverage>(10, Coverage::Data)};
    map.channels[1][5] = Coverage::NaN;
    return map;
}

} // namespace

class CoverageMapTest : public QObject {
    Q_OBJECT

private slots:
    void runsAreDrawnAtTheirColumnsInTheirStatesColours()
    {
        const lv::widgets::Theme theme = lv::widgets::Theme::named("light");
        const QImage image = lv::widgets::renderCoverage(twoChannels(), QSize(200, 40), theme);
        QCOMPARE(image.size(), QSize(200, 40));
        const QRgb background = theme.plotBackground.rgb();
        const QRgb gap = theme.gapBand.rgb();
        const QRgb nan = theme.nanBand.rgb();
        // Rows of 20 px, the last pixel row of each left as background; columns of 20 px.
        QCOMPARE(image.pixel(39, 5), image.pixel(0, 5)); // data
        QCOMPARE(image.pixel(40, 5), gap);               // gap from x = 40
        QCOMPARE(image.pixel(79, 5), gap);
        QCOMPARE(image.pixel(80, 5), image.pixel(0, 5));
        QVERIFY(image.pixel(0, 5) != background);
        QVERIFY(image.pixel(190, 5) != image.pixel(0, 5)); // unchecked: paler
        QCOMPARE(image.pixel(5, 19), background);          // the row's gap line
        QCOMPARE(image.pixel(5, 20), image.pixel(0, 5));   // channel 2 from y = 20
        QCOMPARE(image.pixel(99, 25), image.pixel(0, 5));
        QCOMPARE(image.pixel(100, 25), nan); // its NaN column [100, 120)
        QCOMPARE(image.pixel(119, 25), nan);
        QCOMPARE(image.pixel(120, 25), image.pixel(0, 5));
    }
};

LONGVIEW_WIDGET_TEST(CoverageMapTest)
#include "CoverageMapTest.moc"
