// View > Theme > System (the default) follows the desktop's light or dark scheme, also when it changes while the
// window is open; Light and Dark override it. The desktop's scheme is injected (SystemTheme::setSource); the
// platform's own palette is read past the theme's application palette.
#include "SystemTheme.h"
#include "MainWindow.h"
#include "OverviewStrip.h"
#include "Theme.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QWindow>

using lv::widgets::MainWindow;
using lv::widgets::SystemTheme;
using lv::widgets::Theme;

namespace {

// What the window shows: the application palette's window colour and the overview strip's background.
bool shows(MainWindow& w, const Theme& theme)
{
    const QImage strip = w.overview()->grab().toImage();
    return QApplication::palette().color(QPalette::Window) == theme.palette.color(QPalette::Window) &&
           strip.pixelColor(strip.width() / 2, strip.height() - 2) == theme.plotBackground;
}

} // namespace

class SystemThemeTest : public QObject {
    Q_OBJECT
    QString m_scheme = "light"; // the injected desktop scheme

private slots:
    void init()
    {
        QSettings().clear();
        SystemTheme::instance()->setSource({});
    }

    void aPaletteIsDarkWhenItsWindowIsDarkerThanItsText()
    {
        QCOMPARE(lv::widgets::schemeOfPalette(Theme::dark().palette), QString("dark"));
        QCOMPARE(lv::widgets::schemeOfPalette(Theme::light().palette), QString("light"));
    }

    // The offscreen platform's palette is light; the window's dark application palette does not hide it when the
    // desktop's theme change makes it look again (nothing changed: no notice either).
    void thePlatformPaletteIsReadPastTheAppliedTheme()
    {
        MainWindow w;
        w.setThemeName("dark");
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(QApplication::palette().color(QPalette::Window), Theme::dark().palette.color(QPalette::Window));
        QSignalSpy changed(SystemTheme::instance(), &SystemTheme::changed);
        QEvent themeChange(QEvent::ThemeChange);
        QCoreApplication::sendEvent(w.windowHandle(), &themeChange);
        QTest::qWait(50);
        QCOMPARE(SystemTheme::instance()->scheme(), QString("light"));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(QApplication::palette().color(QPalette::Window), Theme::dark().palette.color(QPalette::Window));
        QCOMPARE(w.themeName(), QString("dark"));
    }

    void systemIsTheDefaultAndFollowsTheDesktop()
    {
        m_scheme = "dark";
        SystemTheme::instance()->setSource([this] { return m_scheme; });
        MainWindow w;
        w.setInteractive(false);
        w.resize(800, 500);
        w.show();
        QCOMPARE(w.themeChoice(), QString("system"));
        auto* system = w.findChild<QAction*>("theme-system");
        QVERIFY(system && system->isChecked());
        QCOMPARE(w.themeName(), QString("dark"));
        QVERIFY(shows(w, Theme::dark()));
        // The desktop turns light while the window is open.
        m_scheme = "light";
        emit SystemTheme::instance()->changed();
        QCOMPARE(w.themeName(), QString("light"));
        QVERIFY(shows(w, Theme::light()));
    }

    void anExplicitThemeOverridesTheDesktop()
    {
        m_scheme = "dark";
        SystemTheme::instance()->setSource([this] { return m_scheme; });
        {
            MainWindow w;
            w.setInteractive(false);
            w.show();
            w.setThemeName("light");
            QCOMPARE(w.themeName(), QString("light"));
            QVERIFY(shows(w, Theme::light()));
            emit SystemTheme::instance()->changed(); // still dark on the desktop: ignored
            QVERIFY(shows(w, Theme::light()));
            QVERIFY(w.findChild<QAction*>("theme-light")->isChecked());
            w.close();
        }
        QCOMPARE(QSettings().value("view/theme").toString(), QString("light"));
        MainWindow again; // remembered: light over the dark desktop
        QCOMPARE(again.themeChoice(), QString("light"));
        QCOMPARE(again.themeName(), QString("light"));
        again.setThemeName("system"); // and back to the desktop's
        QCOMPARE(again.themeName(), QString("dark"));
    }
};

LONGVIEW_WIDGET_TEST(SystemThemeTest)
#include "SystemThemeTest.moc"
