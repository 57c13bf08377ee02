// The main window's place: a remembered rectangle is kept within its screen's free area (clampToScreen), put back on
// the screen it was on, or on the primary screen when that one is gone; a window made without restorePlacement()
// (the screenshot mode) does not take it.
#include "WindowPlacement.h"
#include "MainWindow.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTest>

using lv::widgets::MainWindow;

namespace {

QString describe(const QRect& r) { return QString("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); }

void remember(const QString& screen, const QRect& rect, bool maximized = false)
{
    QSettings settings;
    settings.setValue("window/screen", screen);
    settings.setValue("window/rect", rect);
    settings.setValue("window/maximized", maximized);
}

} // namespace

class WindowPlacementTest : public QObject {
    Q_OBJECT

private slots:
    void init() { QSettings().clear(); }

    void clampsIntoTheFreeArea_data()
    {
        QTest::addColumn<QRect>("saved");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QRect>("expected");
        const QRect desktop(0, 0, 1920, 1040);
        QTest::newRow("inside: unchanged") << QRect(100, 100, 800, 600) << desktop << QRect(100, 100, 800, 600);
        QTest::newRow("partly off the right edge")
            << QRect(1500, 100, 800, 600) << desktop << QRect(1120, 100, 800, 600);
        QTest::newRow("partly off the bottom") << QRect(100, 900, 800, 600) << desktop << QRect(100, 440, 800, 600);
        QTest::newRow("bigger than the screen") << QRect(-50, -20, 2500, 1400) << desktop << QRect(0, 0, 1920, 1040);
        QTest::newRow("wider only") << QRect(300, 50, 2500, 500) << desktop << QRect(0, 50, 1920, 500);
        QTest::newRow("entirely off right and below")
            << QRect(5000, 3000, 800, 600) << desktop << QRect(1120, 440, 800, 600);
        QTest::newRow("entirely off left and above")
            << QRect(-2000, -1500, 800, 600) << desktop << QRect(0, 0, 800, 600);
        // A second screen right of the first, its panel at the top.
        const QRect second(1920, 30, 1280, 994);
        QTest::newRow("second screen: from the first one's coordinates")
            << QRect(100, 100, 800, 600) << second << QRect(1920, 100, 800, 600);
        QTest::newRow("second screen: under its panel")
            << QRect(2000, 0, 800, 600) << second << QRect(2000, 30, 800, 600);
    }

    void clampsIntoTheFreeArea()
    {
        QFETCH(QRect, saved);
        QFETCH(QRect, available);
        QFETCH(QRect, expected);
        const QRect r = lv::widgets::clampToScreen(saved, available);
        QVERIFY2(r == expected, qPrintable(describe(r) + " instead of " + describe(expected)));
        QVERIFY(available.contains(r));
    }

    // Closed at a place, opened again there (the screen by its name).
    void aWindowOpensWhereItWasClosed()
    {
        const QRect free = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect place(free.left() + 30, free.top() + 40, 500, 380);
        {
            MainWindow w;
            w.setInteractive(false);
            w.setGeometry(place);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.geometry(), place);
            w.close();
        }
        QSettings settings;
        QCOMPARE(settings.value("window/screen").toString(), QGuiApplication::primaryScreen()->name());
        QCOMPARE(settings.value("window/rect").toRect(), place);
        MainWindow again;
        again.setInteractive(false);
        QVERIFY2(again.geometry() != place, "the constructor must leave the place to restorePlacement()");
        again.restorePlacement();
        QVERIFY2(again.geometry() == place, qPrintable(describe(again.geometry())));
    }

    // Remembered on a screen no longer connected, far right of anything here: on the primary screen, all of it.
    void aGoneScreenMeansThePrimaryOne()
    {
        remember("HDMI-that-was-unplugged", QRect(5000, 4000, 600, 400));
        MainWindow w;
        w.setInteractive(false);
        w.restorePlacement();
        const QScreen* primary = QGuiApplication::primaryScreen();
        QCOMPARE(w.screen(), primary);
        QVERIFY2(primary->availableGeometry().contains(w.geometry()), qPrintable(describe(w.geometry())));
        QCOMPARE(w.geometry().size(), QSize(600, 400));
    }

    void aMaximisedWindowOpensMaximised()
    {
        remember(QGuiApplication::primaryScreen()->name(), QRect(10, 10, 400, 300), true);
        MainWindow w;
        w.setInteractive(false);
        w.restorePlacement();
        QVERIFY(w.windowState() & Qt::WindowMaximized);
    }
};

LONGVIEW_WIDGET_TEST(WindowPlacementTest)
#include "WindowPlacementTest.moc"
