// A recording's channel view: polarity inverted from the Session dock (the lane drawn mirrored, its label saying
// "inv"), and the shown channels in their order, the inversions and each channel's own amplitude factor
// remembered for that recording and restored when it is opened again.
#include "MainWindow.h"
#include "SessionBrowser.h"
#include "TracePlot.h"
#include "WidgetTestSupport.h"

#include <QFile>
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
        QTreeWidgetItem* root = again.browser()->tree()->topLevelItem(0);
        QCOMPARE(root->child(0)->text(0), QString("ch004")); // the dock in the same order
        QCOMPARE(root->child(2)->text(0), QString("ch001"));
        QCOMPARE(root->child(3)->checkState(0), Qt::Unchecked); // ch003, hidden, last
        QCOMPARE(again.browser()->checkedChannels(), (std::vector<std::size_t>{3, 1, 0}));
        again.close();
    }
};

QTEST_MAIN(ChannelViewTest)
#include "ChannelViewTest.moc"
