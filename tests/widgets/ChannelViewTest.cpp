// A recording's channel view: polarity inverted from the Session dock (the lane drawn mirrored, its label saying
// "inv"), a channel's offset (the lane drawn shifted), a type's own sensitivity (the dialog, remembered), and the
// shown channels in their order, the inversions, offsets and each channel's own amplitude factor remembered for that
// recording and restored when it is opened again.
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TracePlot.h"
#include "TypeSensitivityDialog.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using lv::widgets::MainWindow;

namespace {

// Per pixel column of one lane: the first and last drawn row (-1 where nothing is drawn).
std::vector<std::pair<int, int>> columnSpans(const QImage& image, int lane, int lanes)
{
    const int top = image.height() * lane / lanes, bottom = image.height() * (lane + 1) / lanes;
    std::vector<std::pair<int, int>> spans(static_cast<std::size_t>(image.width()), {-1, -1});
    for (int x = 0; x < image.width(); ++x)
        for (int y = top; y < bottom; ++y)
            if (qAlpha(image.pixel(x, y)) == 255) {
                auto& s = spans[static_cast<std::size_t>(x)];
                if (s.first < 0) s.first = y;
                s.second = y;
            }
    return spans;
}

// The median over columns drawn in both of how many rows `b`'s top edge lies above `a`'s.
int medianRise(const std::vector<std::pair<int, int>>& a, const std::vector<std::pair<int, int>>& b)
{
    std::vector<int> rises;
    for (std::size_t x = 0; x < a.size(); ++x)
        if (a[x].first >= 0 && b[x].first >= 0) rises.push_back(a[x].first - b[x].first);
    if (rises.empty()) return -1000;
    std::nth_element(rises.begin(), rises.begin() + static_cast<std::ptrdiff_t>(rises.size() / 2), rises.end());
    return rises[rises.size() / 2];
}

} // namespace

class ChannelViewTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_session;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-channelview-test");
        QSettings().clear();
        m_session = lv::test::makeSynth(m_dir.path(), {"--channels", "4", "--hours", "0.05", "--fs", "128"});
        QVERIFY(!m_session.isEmpty());
    }

    void invertedLanesAreDrawnMirrored()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        w.setPageLength(2'000'000);
        QVERIFY(lv::test::waitSettled(w));
        QTRY_VERIFY(w.plot()->hasTraceImage());
        const QImage before = w.plot()->traceImage();
        emit w.browser()->invertRequested({1}); // the dock's Invert Polarity on ch002
        QVERIFY(w.plot()->isInverted(1));
        QVERIFY(w.plot()->laneLabel(1).startsWith("ch002 inv  "));
        QVERIFY(!w.plot()->laneLabel(0).contains("inv"));
        QTRY_VERIFY(w.plot()->traceImage() != before);
        const QImage after = w.plot()->traceImage();
        const auto a = columnSpans(before, 1, 4), b = columnSpans(after, 1, 4);
        const int middle2 = before.height() * 3 / 4 - 1; // twice the lane's middle row, for pixel rows
        int mirrored = 0, drawn = 0;
        for (std::size_t x = 0; x < a.size(); ++x) {
            if (a[x].first < 0 || b[x].first < 0) continue;
            ++drawn;
            mirrored += std::abs(b[x].first - (middle2 - a[x].second)) <= 2 &&
                        std::abs(b[x].second - (middle2 - a[x].first)) <= 2;
        }
        QVERIFY2(drawn > 500 && mirrored > drawn * 9 / 10,
                 qPrintable(QString("%1 of %2 columns mirrored").arg(mirrored).arg(drawn)));
        QCOMPARE(columnSpans(after, 0, 4), columnSpans(before, 0, 4)); // the others as they were
        w.setInverted(1, false);
        w.close();
    }

    // An offset draws the trace that much above its lane's centre: a quarter of a division, a quarter lane up.
    void anOffsetShiftsTheTraceInItsLane()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        w.setPageLength(2'000'000);
        QVERIFY(lv::test::waitSettled(w));
        QTRY_VERIFY(w.plot()->hasTraceImage());
        const QImage before = w.plot()->traceImage();
        const double perDivision = w.plot()->unitsPerDivision(2);
        QVERIFY(perDivision > 0);
        w.setChannelOffset(2, perDivision / 4);
        QCOMPARE(w.plot()->channelOffset(2), perDivision / 4);
        QTRY_VERIFY(w.plot()->traceImage() != before);
        const QImage after = w.plot()->traceImage();
        const int quarterLane = before.height() / 16;
        const int rise = medianRise(columnSpans(before, 2, 4), columnSpans(after, 2, 4));
        QVERIFY2(std::abs(rise - quarterLane) <= 1, qPrintable(QString("%1 rows, not %2").arg(rise).arg(quarterLane)));
        QCOMPARE(columnSpans(after, 1, 4), columnSpans(before, 1, 4)); // the others as they were
        w.setInverted(2, true); // still up: the offset is on screen, not in the signal
        QTRY_VERIFY(w.plot()->traceImage() != after);
        const QImage inverted = w.plot()->traceImage();
        w.setChannelOffset(2, 0);
        QTRY_VERIFY(w.plot()->traceImage() != inverted);
        const int invertedRise = medianRise(columnSpans(w.plot()->traceImage(), 2, 4), columnSpans(inverted, 2, 4));
        QVERIFY2(std::abs(invertedRise - quarterLane) <= 1, qPrintable(QString::number(invertedRise)));
        w.setInverted(2, false);
        w.close();
    }

    // A type's own sensitivity: set in the dialog (a text that does not read is refused, with the reason), used for
    // that type's channels only, kept in ratio by the amplitude keys, and remembered for the next window.
    void aTypeHasItsOwnSensitivity()
    {
        {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1200, 800);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_session));
            QVERIFY(w.setAmplitudeText("7 uV/mm"));
            w.setChannelType(1, lv::core::ChannelType::Eog);
            w.setChannelType(0, lv::core::ChannelType::Eeg);
            const double mm = w.plot()->divisionMillimetres();
            QVERIFY(mm > 0);
            lv::widgets::TypeSensitivityDialog* dialog = w.editTypeSensitivities();
            dialog->field(lv::core::ChannelType::Eog)->setText("twenty uV/mm");
            dialog->accept();
            QVERIFY(dialog->isVisible());
            QCOMPARE(dialog->findChild<QLabel*>("error")->text(),
                     QString("EOG: \"twenty uV/mm\" is not a sensitivity (e.g. 20 uV/mm, 200 uV/cm, 100 uV/div)"));
            dialog->field(lv::core::ChannelType::Eog)->setText("200 uV/cm");
            dialog->accept();
            QCOMPARE(w.plot()->unitsPerDivision(1), 20.0 * mm);
            QCOMPARE(w.plot()->unitsPerDivision(0), 7.0 * mm);
            QVERIFY2(w.plot()->laneLabel(1).endsWith("  20 uV/mm"), qPrintable(w.plot()->laneLabel(1)));
            QVERIFY2(w.plot()->laneLabel(0).endsWith("  7 uV/mm"), qPrintable(w.plot()->laneLabel(0)));
            w.plot()->setGain(2.0); // the amplitude keys: both twice as tall, still 20 to 7
            QCOMPARE(w.plot()->unitsPerDivision(1), 10.0 * mm);
            QCOMPARE(w.plot()->unitsPerDivision(0), 3.5 * mm);
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        again.show();
        QVERIFY(lv::test::openAndWait(again, m_session));
        QCOMPARE(again.plot()->typeSensitivities().at(lv::core::ChannelType::Eog).text(), QString("20 uV/mm"));
        QCOMPARE(again.plot()->channelType(1), lv::core::ChannelType::Eog);
        QCOMPARE(again.plot()->unitsPerDivision(1), 20.0 * again.plot()->divisionMillimetres());
        lv::widgets::TypeSensitivityDialog* dialog = again.editTypeSensitivities();
        QCOMPARE(dialog->field(lv::core::ChannelType::Eog)->text(), QString("20 uV/mm"));
        dialog->field(lv::core::ChannelType::Eog)->clear(); // back to the common sensitivity
        dialog->accept();
        QCOMPARE(again.plot()->unitsPerDivision(1), again.plot()->unitsPerDivision(0));
        QVERIFY(again.plot()->typeSensitivities().empty());
        again.close();
    }

    // Scale bars say what a division and a length of the page are; the page exports as PNG and PDF of a chosen
    // size with them.
    void scaleBarsAndThePageAsAPicture()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        w.setPageLength(10'000'000);
        QVERIFY(lv::test::waitSettled(w));
        lv::widgets::TracePlot* plot = w.plot();
        QCOMPARE(plot->scaleBars().seconds, 1.0);
        const double perDivision = plot->unitsPerDivision(0);
        QVERIFY(perDivision > 0);
        QCOMPARE(plot->scaleBars().amplitude,
                 QString("%1 uV").arg(perDivision >= 100 ? QString::number(perDivision, 'f', 0)
                                                         : QString::number(perDivision, 'g', 3)));
        w.setPageLength(3'600'000'000); // the whole 3 min: a round bar near an eighth of it
        QCOMPARE(plot->scaleBars().seconds, 10.0);
        QVERIFY(w.setAmplitudeText("Auto"));
        QVERIFY(plot->scaleBars().amplitude.isEmpty()); // each channel its own scale: no common bar
        QVERIFY(w.setAmplitudeText("7 uV/mm"));
        w.setPageLength(10'000'000);
        QVERIFY(lv::test::waitSettled(w));
        QSignalSpy exported(&w, &MainWindow::pageExported);
        w.exportPage(m_dir.path() + "/page.png", QSize(1600, 900));
        QTRY_COMPARE(exported.count(), 1);
        QCOMPARE(exported.last().at(1).toString(), QString());
        const QImage png(m_dir.path() + "/page.png");
        QCOMPARE(png.size(), QSize(1600, 900));
        int dark = 0; // traces, labels and bars drawn, not a blank page
        for (int y = 0; y < png.height(); y += 3)
            for (int x = 0; x < png.width(); x += 3) dark += qGray(png.pixel(x, y)) < 128;
        QVERIFY2(dark > 2000, qPrintable(QString::number(dark)));
        lv::test::saveShot(w, "page-on-screen.png");
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR"))
            QVERIFY(png.save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/page-exported.png"));
        w.exportPage(m_dir.path() + "/page.pdf", QSize(1600, 900));
        QTRY_COMPARE(exported.count(), 2);
        QFile pdf(m_dir.path() + "/page.pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(pdf.size() > 10000);
        w.exportPage(m_dir.path() + "/no/such/folder/page.png", QSize(800, 600));
        QTRY_COMPARE(exported.count(), 3);
        QCOMPARE(exported.last().at(1).toString(), m_dir.path() + "/no/such/folder/page.png: cannot be written");
        w.close();
    }

    void theChannelViewIsRestoredOnReopening()
    {
        {
            MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(lv::test::openAndWait(w, m_session));
            w.setVisibleChannels({3, 1, 0}); // ch003 hidden, ch004 first
            w.setInverted(3, true);
            w.plot()->scaleChannel(0, 2.0);
            w.setChannelOffset(1, 12.5);
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        again.show();
        QVERIFY(lv::test::openAndWait(again, m_session));
        QCOMPARE(again.visibleChannels(), (std::vector<std::size_t>{3, 1, 0}));
        QVERIFY(lv::test::waitSettled(again));
        QCOMPARE(again.plot()->channels(), (std::vector<std::size_t>{3, 1, 0}));
        QVERIFY(again.plot()->isInverted(3));
        QVERIFY(!again.plot()->isInverted(1));
        QCOMPARE(again.plot()->channelFactors().at(0), 2.0);
        QCOMPARE(again.plot()->channelOffset(1), 12.5);
        QCOMPARE(again.plot()->channelOffset(0), 0.0);
        QTreeWidgetItem* root = again.browser()->tree()->topLevelItem(0);
        QCOMPARE(root->child(0)->text(0), QString("ch004")); // the dock in the same order
        QCOMPARE(root->child(2)->text(0), QString("ch001"));
        QCOMPARE(root->child(3)->checkState(0), Qt::Unchecked); // ch003, hidden, last
        QCOMPARE(again.browser()->checkedChannels(), (std::vector<std::size_t>{3, 1, 0}));
        again.close();
    }
};

LONGVIEW_WIDGET_TEST(ChannelViewTest)
#include "ChannelViewTest.moc"
