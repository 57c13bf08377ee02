// Channels per screen: the window of rows over the shown channels, and scrolling it in the main window by the
// menu, the keys, the scroll bar and the wheel over the labels; labels stay in the UI's font.
#include "ChannelRows.h"
#include "MainWindow.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <numeric>

using lv::widgets::ChannelRows;
using lv::widgets::MainWindow;

namespace {

std::vector<std::size_t> range(std::size_t first, std::size_t count)
{
    std::vector<std::size_t> v(count);
    std::iota(v.begin(), v.end(), first);
    return v;
}

std::vector<std::size_t> frameChannels(const lv::widgets::TracePlot* plot)
{
    std::vector<std::size_t> channels;
    for (const lv::widgets::ChannelTrace& t : plot->frame()->traces) channels.push_back(t.channel);
    return channels;
}

// A wheel turn of `notches` (positive: towards the user, down the list) at `pos` in the plot's QCustomPlot.
void wheel(lv::widgets::TracePlot* plot, QPoint pos, int notches)
{
    QWidget* target = plot->childAt(pos);
    QVERIFY(target);
    const QPoint local = target->mapFrom(plot, pos);
    QWheelEvent event(local, target->mapToGlobal(local), {}, {0, -120 * notches}, Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

} // namespace

class ChannelRowsTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_session;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-channelrows-test");
        QSettings().clear();
        m_session = lv::test::makeSynth(m_dir.path(), {"--channels", "40", "--hours", "0.05", "--fs", "64"});
        QVERIFY(!m_session.isEmpty());
    }

    void aWindowOfRowsStaysWithinTheShownChannels()
    {
        ChannelRows rows;
        rows.setShown(range(0, 40));
        QCOMPARE(rows.onScreen(), range(0, 40)); // all by default
        QCOMPARE(rows.lastFirst(), 0);
        rows.setRowsPerScreen(8);
        QCOMPARE(rows.onScreen(), range(0, 8));
        QCOMPARE(rows.lastFirst(), 32);
        QVERIFY(rows.scrollTo(5));
        QCOMPARE(rows.onScreen(), range(5, 8));
        QVERIFY(rows.scrollTo(100));
        QCOMPARE(rows.first(), 32);
        QCOMPARE(rows.onScreen(), range(32, 8)); // the last screen ends at the last channel
        QVERIFY(!rows.scrollTo(40));
        rows.setShown(range(10, 12)); // fewer shown: the window moves back to keep a full screen
        QCOMPARE(rows.onScreen(), range(14, 8));
        rows.setShown(range(0, 3));
        QCOMPARE(rows.onScreen(), range(0, 3));
        QCOMPARE(rows.rowsOnScreen(), 3);
        QVERIFY(!rows.scrollTo(-4));
        rows.setShown(range(0, 40));
        rows.setRowsPerScreen(0);
        QCOMPARE(rows.first(), 0);
        QCOMPARE(rows.onScreen(), range(0, 40));
    }

    void theWindowScrollsThroughTheChannels()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1000, 700);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(lv::test::waitSettled(w));
        QScrollBar* bar = w.rowBar();
        QVERIFY(!bar->isVisible()); // all 40 fit the default
        QCOMPARE(w.plot()->channels(), range(0, 40));

        auto* twenty = w.findChild<QAction*>("rowsPerScreen20");
        QVERIFY(twenty);
        twenty->trigger();
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(w.plot()->channels(), range(0, 20));
        QCOMPARE(frameChannels(w.plot()), range(0, 20)); // only what is on screen is read
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->maximum(), 20);
        QCOMPARE(bar->pageStep(), 20);
        QCOMPARE(w.plot()->labelledLanes(), [] {
            std::vector<int> all(20);
            std::iota(all.begin(), all.end(), 0);
            return all;
        }()); // every lane its label at 20 per screen

        const QRect data = w.plot()->dataRect();
        wheel(w.plot(), {data.left() - 20, data.center().y()}, 1); // over the labels: down the channels
        const int lines = QApplication::wheelScrollLines();
        QCOMPARE(w.rows().first(), lines);
        QCOMPARE(bar->value(), lines);
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(frameChannels(w.plot()), range(static_cast<std::size_t>(lines), 20));
        const lv::core::TimeRange before = w.view().range();
        wheel(w.plot(), data.center(), 1); // over the traces the wheel still zooms time
        QVERIFY(w.view().range() != before);
        QCOMPARE(w.rows().first(), lines);

        QTest::keyClick(&w, Qt::Key_PageDown, Qt::ShiftModifier);
        QCOMPARE(w.rows().first(), 20); // the last screen
        bar->setValue(4);
        QCOMPARE(w.plot()->channels(), range(4, 20));
        QTest::keyClick(&w, Qt::Key_PageUp, Qt::ShiftModifier);
        QCOMPARE(w.rows().first(), 0);

        w.setVisibleChannels(range(0, 10)); // fewer than a screen: no bar
        QCOMPARE(w.plot()->channels(), range(0, 10));
        QVERIFY(!bar->isVisible());
        w.setVisibleChannels(range(0, 40));
        w.findChild<QAction*>("rowsPerScreen0")->trigger();
        QCOMPARE(w.plot()->channels(), range(0, 40));
        QVERIFY(!bar->isVisible());
        w.close();
    }

    // All 40 channels in a low window: lanes lower than a line of text get every k-th label, in the UI's font.
    void labelsAreNeverSmallerThanTheUiFont()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1000, 450);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(lv::test::waitSettled(w));
        lv::widgets::TracePlot* plot = w.plot();
        QCOMPARE(plot->labelFont(), plot->font());
        const double laneHeight = plot->dataRect().height() / 40.0;
        const int line = QFontMetrics(plot->font()).height();
        QVERIFY2(laneHeight < line, qPrintable(QString::number(laneHeight)));
        const std::vector<int> lanes = plot->labelledLanes();
        QVERIFY(lanes.size() > 1);
        const int every = lanes[1] - lanes[0];
        QVERIFY(every * laneHeight >= line); // labels never overlap
        QVERIFY((every - 1) * laneHeight < line);
        for (std::size_t i = 0; i < lanes.size(); ++i) QCOMPARE(lanes[i], static_cast<int>(i) * every);
        lv::test::saveShot(w, "channels-all-low.png");
        w.findChild<QAction*>("rowsPerScreen16")->trigger();
        w.resize(1000, 800);
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(plot->dataRect().height() / 16.0 >= line);
        QCOMPARE(plot->labelledLanes().size(), std::size_t{16}); // room for each
        lv::test::saveShot(w, "channels-16.png");
        w.close();
    }

    void channelsPerScreenIsRemembered()
    {
        {
            MainWindow w;
            w.setRowsPerScreen(32);
            w.close();
        }
        MainWindow again;
        QCOMPARE(again.rows().rowsPerScreen(), 32);
        QVERIFY(again.findChild<QAction*>("rowsPerScreen32")->isChecked());
        again.setRowsPerScreen(0);
        again.close();
    }
};

LONGVIEW_WIDGET_TEST(ChannelRowsTest)
#include "ChannelRowsTest.moc"
