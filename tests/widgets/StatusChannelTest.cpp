// BioSemi's Status channel: a BDF's "Status" is drawn as its trigger code (bits 0-15) by default, as the status bits
// (16-23) or as stored when chosen from the Session dock, and the choice is remembered for the recording. The codes
// are checked against MNE's reading of the same file (its Status channel, masked to 16 bits, holds 0 and 128) and
// the stored counts (0x980000 and 0x980080: CMS in range, MK2 and speed bit 2 set).
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QSettings>
#include <QTest>
#include <cmath>
#include <set>

using lv::widgets::BitView;
using lv::widgets::MainWindow;

namespace {

// The distinct values of the channel's trace in the frame shown (NaN breaks left out).
std::set<double> valuesShown(const MainWindow& w, std::size_t channel)
{
    std::set<double> values;
    for (const lv::widgets::ChannelTrace& t : w.plot()->frame()->traces)
        if (t.channel == channel)
            for (double y : t.y)
                if (!std::isnan(y)) values.insert(y);
    return values;
}

std::size_t laneOf(const MainWindow& w, std::size_t channel)
{
    const auto& lanes = w.plot()->channels();
    return static_cast<std::size_t>(std::find(lanes.begin(), lanes.end(), channel) - lanes.begin());
}

} // namespace

class StatusChannelTest : public QObject {
    Q_OBJECT
    const QString m_file = lv::test::testdata("edf/test.bdf");

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-statuschannel-test");
        QSettings().clear();
    }

    void statusShowsItsTriggerCodeAndTheStatusBits()
    {
        std::size_t status = 0;
        {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1400, 900);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_file));
            const int index = w.loader()->info()->channelIndex("Status");
            QVERIFY(index >= 0);
            status = static_cast<std::size_t>(index);
            w.setVisibleChannels({0, status});
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY2(w.plot()->laneLabel(laneOf(w, status)).startsWith("Status trigger 0-15"),
                     qPrintable(w.plot()->laneLabel(laneOf(w, status))));
            QCOMPARE(w.plot()->channelType(status), lv::core::ChannelType::Trigger);
            QCOMPARE(valuesShown(w, status), (std::set<double>{0.0, 128.0}));
            QVERIFY(valuesShown(w, 0).size() > 100); // other channels as they are

            emit w.browser()->bitViewChosen({status}, BitView::Status);
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(w.plot()->laneLabel(laneOf(w, status)).startsWith("Status status 16-23"));
            QCOMPARE(valuesShown(w, status), (std::set<double>{152.0})); // 0x98

            emit w.browser()->bitViewChosen({status}, BitView::Value);
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(!w.plot()->laneLabel(laneOf(w, status)).contains("trigger"));
            QCOMPARE(valuesShown(w, status), (std::set<double>{-6815744.0, -6815616.0}));

            emit w.browser()->bitViewChosen({status}, BitView::Status);
            QVERIFY(lv::test::waitSettled(w));
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        again.show();
        QVERIFY(lv::test::openAndWait(again, m_file));
        QCOMPARE(again.plot()->bitView(status), BitView::Status); // remembered for this recording
        QCOMPARE(again.loader()->bitViews().at(status), BitView::Status);
        again.close();
    }

    // The whole second at a width of far fewer columns than samples: min and max of the codes per column, so
    // every trigger pulse still reaches 128.
    void narrowColumnsKeepEveryPulse()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(500, 600);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_file));
        const auto status = static_cast<std::size_t>(w.loader()->info()->channelIndex("Status"));
        emit w.browser()->bitViewChosen({status}, BitView::Trigger);
        w.setVisibleChannels({status});
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(w.plot()->frame()->traces.front().y.size() < 2048); // columns, not samples
        QCOMPARE(valuesShown(w, status), (std::set<double>{0.0, 128.0}));
        w.close();
    }
};

LONGVIEW_WIDGET_TEST(StatusChannelTest)
#include "StatusChannelTest.moc"
