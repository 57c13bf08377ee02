// Session dock > Draw Samples As: an irregular channel drawn as points while View > Irregular Channels says steps,
// back to the menu's choice, remembered for the recording; a grid channel chosen with it is left as it is.
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestSupport.h"

#include <QTest>

using lv::widgets::MainWindow;

namespace {

// Whether the channel's trace in the frame shown is drawn as points; false when it has no trace.
bool drawnAsPoints(const MainWindow& w, std::size_t channel)
{
    for (const lv::widgets::ChannelTrace& t : w.plot()->frame()->traces)
        if (t.channel == channel) return t.points;
    return false;
}

bool hasTrace(const MainWindow& w, std::size_t channel)
{
    for (const lv::widgets::ChannelTrace& t : w.plot()->frame()->traces)
        if (t.channel == channel) return !t.x.empty();
    return false;
}

} // namespace

class IrregularChoiceTest : public QObject {
    Q_OBJECT
    const QString m_file = lv::test::testdata("mdf4/Vector_SingleDZ_Unsorted.MF4");

private slots:
    void aChannelIsDrawnAsChosenAndTheChoiceIsRemembered()
    {
        std::size_t irregular = 0, grid = 0;
        {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1400, 900);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_file));
            const lv::core::RecordingInfo& info = *w.loader()->info();
            irregular = static_cast<std::size_t>(info.channelIndex("WriteTextToWriteWindow"));
            grid = static_cast<std::size_t>(info.channelIndex("noise"));
            QVERIFY(info.channels.at(irregular).irregular && !info.channels.at(grid).irregular);
            QVERIFY(!w.loader()->irregularDrawing().points); // the View menu's default: steps
            w.setVisibleChannels({grid, irregular});
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(hasTrace(w, irregular) && hasTrace(w, grid));
            QVERIFY(!drawnAsPoints(w, irregular));

            emit w.browser()->irregularDrawingChosen({grid, irregular}, 1);
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(drawnAsPoints(w, irregular));
            QVERIFY(!drawnAsPoints(w, grid));
            QVERIFY(!w.loader()->irregularDrawing().pointsOf.count(grid)); // only irregular channels take it
            lv::test::saveShot(w, "irregular-points.png");

            emit w.browser()->irregularDrawingChosen({irregular}, -1);
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(!drawnAsPoints(w, irregular)); // as the View menu says

            emit w.browser()->irregularDrawingChosen({irregular}, 1);
            QVERIFY(lv::test::waitSettled(w));
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        again.show();
        QVERIFY(lv::test::openAndWait(again, m_file));
        QVERIFY(again.loader()->irregularDrawing().pointsFor(irregular)); // remembered for this recording
        QVERIFY(!again.loader()->irregularDrawing().points);
        again.close();
    }
};

QTEST_MAIN(IrregularChoiceTest)
#include "IrregularChoiceTest.moc"
