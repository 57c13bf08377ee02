// Session dock > Draw Samples As: an irregular channel drawn as points while View > Irregular Channels says steps,
// back to the menu's choice, remembered for the recording; a grid channel chosen with it is left as it is.
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QTest>

using lv::widgets::MainWindow;

namespace {

// Whether the channel's trace in the frame shown is drawn as points; false when it has no trace.
bool drawnAsPoints(const MainWindow& w, std::size_t channel)
{
    const lv::widgets::ChannelTrace* t = lv::test::traceShown(w, channel);
    return t && t->points;
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
            w.resize(1400, 900);
            QVERIFY(lv::test::showAndOpen(w, m_file));
            const lv::core::RecordingInfo& info = *w.loader()->info();
            irregular = static_cast<std::size_t>(info.channelIndex("WriteTextToWriteWindow"));
            grid = static_cast<std::size_t>(info.channelIndex("noise"));
            QVERIFY(info.channels.at(irregular).irregular && !info.channels.at(grid).irregular);
            QVERIFY(!w.loader()->irregularDrawing().points); // the View menu's default: steps
            w.setVisibleChannels({grid, irregular});
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(lv::test::traceShown(w, irregular) && !lv::test::traceShown(w, irregular)->x.empty());
            QVERIFY(lv::test::traceShown(w, grid) && !lv::test::traceShown(w, grid)->x.empty());
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
        QVERIFY(lv::test::showAndOpen(again, m_file));
        const lv::widgets::IrregularDrawing remembered = again.loader()->irregularDrawing();
        again.close();
        QVERIFY(remembered.pointsFor(irregular)); // remembered for this recording
        QVERIFY(!remembered.points);
    }
};

LONGVIEW_WIDGET_TEST(IrregularChoiceTest)
#include "IrregularChoiceTest.moc"
