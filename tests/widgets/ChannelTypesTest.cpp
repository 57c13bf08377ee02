// Channel types in the viewer: guessed from a reference file's labels, shown in the Session dock, colouring each
// lane's trace; a type chosen from the dock's menu recolours the lane and is remembered for that recording.
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QSettings>
#include <QTest>
#include <QTreeWidget>
#include <map>

using lv::core::ChannelType;
using lv::widgets::MainWindow;

namespace {

// The colours of the drawn pixels in one lane of the trace image, with how many pixels each.
std::map<QRgb, int> laneColours(const QImage& image, int lane, int lanes)
{
    std::map<QRgb, int> colours;
    const int top = image.height() * lane / lanes, bottom = image.height() * (lane + 1) / lanes;
    for (int y = top; y < bottom; ++y)
        for (int x = 0; x < image.width(); ++x)
            if (const QRgb p = image.pixel(x, y); qAlpha(p) == 255) ++colours[p & 0xffffff];
    return colours;
}

QRgb rgbOf(const QColor& c) { return c.rgb() & 0xffffff; }

int indexOf(const lv::core::RecordingInfo& info, const std::string& name) { return info.channelIndex(name); }

// The Session dock's row of a channel (the rows follow the order the channels are shown in).
QTreeWidgetItem* rowOf(lv::widgets::SessionBrowser* browser, const QString& name)
{
    QTreeWidgetItem* root = browser->tree()->topLevelItem(0);
    for (int i = 0; i < root->childCount(); ++i)
        if (root->child(i)->text(0) == name) return root->child(i);
    return nullptr;
}

} // namespace

class ChannelTypesTest : public QObject {
    Q_OBJECT
    const QString m_file = lv::test::testdata("edf/test_edf_stim_channel.edf");

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-channeltypes-test");
        QSettings().clear();
    }

    void typesColourTheLanesAndAreRemembered()
    {
        {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1200, 900);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_file));
            const lv::core::RecordingInfo& info = *w.loader()->info();
            const int eog = indexOf(info, "EOG VEOG_I"), ecg = indexOf(info, "ECG ECG1"),
                      fp1 = indexOf(info, "EEG Fp1");
            QVERIFY(eog >= 0 && ecg >= 0 && fp1 >= 0);
            QTreeWidgetItem* root = w.browser()->tree()->topLevelItem(0);
            QCOMPARE(root->child(eog)->text(6), QString("EOG"));
            QCOMPARE(root->child(ecg)->text(6), QString("ECG"));
            QCOMPARE(root->child(indexOf(info, "DIG DTRIG"))->text(6), QString("Trigger"));
            w.setVisibleChannels(
                {static_cast<std::size_t>(fp1), static_cast<std::size_t>(eog), static_cast<std::size_t>(ecg)});
            QVERIFY(lv::test::waitSettled(w));
            const lv::widgets::Theme theme = lv::widgets::Theme::light();
            QTRY_VERIFY(laneColours(w.plot()->traceImage(), 2, 3).count(rgbOf(theme.typeColor(ChannelType::Ecg))));
            const QImage image = w.plot()->traceImage();
            QCOMPARE(laneColours(image, 0, 3).size(), std::size_t{1}); // one colour a lane
            QVERIFY(laneColours(image, 0, 3).count(rgbOf(theme.typeColor(ChannelType::Eeg))));
            QVERIFY(laneColours(image, 1, 3).count(rgbOf(theme.typeColor(ChannelType::Eog))));
            QCOMPARE(laneColours(image, 2, 3).size(), std::size_t{1});
            lv::test::saveShot(w, "channel-types.png");

            emit w.browser()->channelTypeChosen({static_cast<std::size_t>(ecg)}, ChannelType::Emg); // the menu's
            QCOMPARE(root->child(ecg)->text(6), QString("EMG"));
            QTRY_VERIFY(laneColours(w.plot()->traceImage(), 2, 3).count(rgbOf(theme.typeColor(ChannelType::Emg))));
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        again.show();
        QVERIFY(lv::test::openAndWait(again, m_file));
        const lv::core::RecordingInfo& info = *again.loader()->info();
        QCOMPARE(again.plot()->channelType(static_cast<std::size_t>(indexOf(info, "ECG ECG1"))), ChannelType::Emg);
        QCOMPARE(again.plot()->channelType(static_cast<std::size_t>(indexOf(info, "ECG ECG2"))), ChannelType::Ecg);
        QCOMPARE(rowOf(again.browser(), "ECG ECG1")->text(6), QString("EMG"));
        again.close();
    }
};

LONGVIEW_WIDGET_TEST(ChannelTypesTest)
#include "ChannelTypesTest.moc"
