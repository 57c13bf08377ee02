// Screen calibration: the ruler line's drawn length, the measured length turned into pixels per millimetre, and
// the main window using and remembering it per screen.
#include "CalibrationDialog.h"
#include "MainWindow.h"
#include "ScreenCalibration.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QTest>
#include <cmath>

using lv::widgets::CalibrationDialog;
using lv::widgets::MainWindow;

namespace {

QPushButton* button(QDialog& d, QDialogButtonBox::ButtonRole role)
{
    for (QAbstractButton* b : d.findChild<QDialogButtonBox*>()->buttons())
        if (d.findChild<QDialogButtonBox*>()->buttonRole(b) == role) return qobject_cast<QPushButton*>(b);
    return nullptr;
}

// The columns of the ruler's end ticks (the dark pixels 10 rows above the line).
std::vector<int> tickColumns(QWidget& ruler)
{
    const QImage image = ruler.grab().toImage();
    const double dpr = image.devicePixelRatio();
    const int y = static_cast<int>((ruler.height() / 2 - 10) * dpr);
    std::vector<int> columns;
    for (int x = 0; x < image.width(); ++x)
        if (qGray(image.pixel(x, y)) < 128) columns.push_back(x);
    return columns;
}

} // namespace

class CalibrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-calibration-test");
        QSettings().clear();
    }

    void theMeasuredLengthGivesThePixelsPerMillimetre()
    {
        using lv::widgets::calibratedPixelsPerMillimetre;
        QCOMPARE(calibratedPixelsPerMillimetre(378, 100).value(), 3.78);
        QCOMPARE(calibratedPixelsPerMillimetre(378, 50).value(), 7.56);
        QVERIFY(!calibratedPixelsPerMillimetre(378, 9.9)); // a typo: no screen shows 100 mm as 9.9 mm
        QVERIFY(!calibratedPixelsPerMillimetre(378, 1000.1));
        QVERIFY(!calibratedPixelsPerMillimetre(378, std::nan("")));
        QVERIFY(!calibratedPixelsPerMillimetre(0, 100));
        QVERIFY(!calibratedPixelsPerMillimetre(-5, 100));
    }

    void theKeyNamesTheScreen()
    {
        const QString key = lv::widgets::calibrationKey(QGuiApplication::primaryScreen());
        QVERIFY(key.startsWith("view/calibration/"));
        QVERIFY(key.size() > QString("view/calibration/").size());
        QVERIFY(!key.mid(QString("view/calibration/").size()).contains('/'));
        QCOMPARE(lv::widgets::calibrationKey(nullptr), QString("view/calibration/default"));
    }

    // The ticks are the line's length apart on screen: 100 mm at the given scale, 50 mm when 100 would not fit.
    void theRulerLineIsDrawnAtItsLength()
    {
        CalibrationDialog d(4.0, 2000);
        QCOMPARE(d.nominalMillimetres(), 100.0);
        QCOMPARE(d.linePixels(), 400);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        auto* ruler = d.findChild<QWidget*>("rulerLine");
        QVERIFY(ruler);
        const std::vector<int> ticks = tickColumns(*ruler);
        QCOMPARE(ticks.size(), std::size_t{2});
        QCOMPARE((ticks[1] - ticks[0]) / ruler->devicePixelRatioF(), 400.0);

        CalibrationDialog narrow(4.0, 450);
        QCOMPARE(narrow.nominalMillimetres(), 50.0);
        QCOMPARE(narrow.linePixels(), 200);
    }

    void okTakesTheMeasureAndTheScreenButtonGoesBack()
    {
        CalibrationDialog d(4.0, 2000);
        d.setMeasuredMillimetres(80);
        button(d, QDialogButtonBox::AcceptRole)->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.pixelsPerMillimetre(), 5.0);

        CalibrationDialog back(5.0, 2000);
        button(back, QDialogButtonBox::ResetRole)->click();
        QCOMPARE(back.result(), int(QDialog::Accepted));
        QCOMPARE(back.pixelsPerMillimetre(), 0.0);
    }

    // Calibrated, the plot draws at the measured scale, the timebase's page follows, and the next window (the
    // setting written at close) starts calibrated; the screen's button brings back the size the screen reports.
    void theWindowUsesAndRemembersIt()
    {
        double reported = 0, calibrated = 0;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            reported = w.plot()->pixelsPerMillimetre();
            CalibrationDialog* d = w.calibrateScreen();
            QVERIFY(d && d->isVisible());
            d->setMeasuredMillimetres(125);
            button(*d, QDialogButtonBox::AcceptRole)->click();
            calibrated = d->linePixels() / 125.0;
            QCOMPARE(w.plot()->pixelsPerMillimetre(), calibrated);
            QVERIFY(std::abs(calibrated - reported * 0.8) < 0.01); // the line was drawn 100 mm at the reported size

            w.openPath(lv::test::testdata("mef3/legacy/multi_segment.mefd"));
            QVERIFY(QTest::qWaitFor([&] { return w.isSettled(); }, 20000));
            w.setTimebase(30);
            const double widthMm = w.plot()->dataColumns() / w.plot()->devicePixelRatioF() / calibrated;
            QCOMPARE(w.view().range().duration(), static_cast<lv::core::Uutc>(std::llround(widthMm / 30 * 1e6)));
        }
        {
            MainWindow w;
            QCOMPARE(w.plot()->pixelsPerMillimetre(), calibrated);
            CalibrationDialog* d = w.calibrateScreen();
            button(*d, QDialogButtonBox::ResetRole)->click();
            QCOMPARE(w.plot()->pixelsPerMillimetre(), reported);
        }
        MainWindow w;
        QCOMPARE(w.plot()->pixelsPerMillimetre(), reported);
    }
};

LONGVIEW_WIDGET_TEST(CalibrationTest)
#include "CalibrationTest.moc"
