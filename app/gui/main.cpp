// longview: the viewer GUI. Reads the command line, hands its files to a running window or shows its own; with
// --screenshot it waits until the exact view and the overview strip are drawn, saves the window as PNG and exits
// (works with QT_QPA_PLATFORM=offscreen).
#include "MainWindow.h"
#include "OverviewStrip.h"
#include "SingleInstance.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "common/MemoryTuning.h"

#include "core/Version.h"
#include "filter/FilterSpec.h"
#include "formats/RecordingOpener.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QPixmap>
#include <QSettings>
#include <QTimer>
#include <chrono>
#include <cstdio>
#include <memory>
#ifdef _WIN32
#include <windows.h>
#endif

namespace {

enum ExitCode { kOk = 0, kTimeout = 1, kUsage = 2, kBadInput = 3, kOutputFailed = 4 };

// A Windows GUI program has no console of its own: started from one (--version, --screenshot, a usage error), it
// writes to that one.
void attachParentConsole()
{
#ifdef _WIN32
    if (::AttachConsole(ATTACH_PARENT_PROCESS)) {
        (void)std::freopen("CONOUT$", "w", stdout);
        (void)std::freopen("CONOUT$", "w", stderr);
    }
#endif
}

int usage(const QString& message)
{
    std::fprintf(stderr, "longview: %s\n", qPrintable(message));
    return kUsage;
}

} // namespace

int main(int argc, char** argv)
{
    lv::app::limitAllocatorArenas();
    attachParentConsole();
    // Fractional scale factors (150 %) as the desktop sets them, not rounded to 1 or 2.
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Longview");
    QApplication::setApplicationName("longview");
    QApplication::setApplicationVersion(lv::core::kVersion);
    QGuiApplication::setDesktopFileName("org.longview.Longview"); // Wayland: the icon and name of the .desktop
    // X11 takes the window icon from the icon theme (installed by the package); Windows from the .exe's IDI_ICON1,
    // macOS from the bundle.
    if (QIcon::hasThemeIcon("org.longview.Longview"))
        QApplication::setWindowIcon(QIcon::fromTheme("org.longview.Longview"));

    QCommandLineParser parser;
    QStringList formats; // the engine's registry: "EDF / EDF+ (*.edf)", ...
    for (const lv::formats::ReadableFormat& f : lv::formats::readableFormats()) {
        QStringList patterns;
        for (const std::string& p : f.patterns) patterns << QString::fromStdString(p);
        formats << QString("%1 (%2%3)")
                       .arg(QString::fromStdString(f.name), patterns.join(' '), f.folder ? ", a folder" : "");
    }
    parser.setApplicationDescription("Viewer for long multi-channel recordings.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("PATH",
                                 "Recordings: " + formats.join(", ") +
                                     ". One opens; several are offered for merging. A window already "
                                     "running takes them (unless File > Allow Several Windows is on).",
                                 "[PATH...]");
    const QCommandLineOption password("password", "Level-1 or level-2 password of an encrypted session.", "P");
    const QCommandLineOption start("start", "First time shown: integer uUTC, ISO 8601, or +SECONDS.", "T");
    const QCommandLineOption span("span", "Seconds shown per page.", "SECONDS");
    const QCommandLineOption channels("channels", "Comma-separated channel names to show (default: all).", "a,b");
    const QCommandLineOption rows("rows", "Channels per screen, scrolled through (0: all; default: as last chosen).",
                                  "N");
    const QCommandLineOption theme("theme", "system (the desktop's light or dark; the default), light or dark.",
                                   "THEME");
    const QCommandLineOption screenshot("screenshot", "Save the window once the view is drawn, then exit.", "FILE.png");
    const QCommandLineOption size("size", "Window size (for --screenshot 1600x900 unless given).", "WxH", "1600x900");
    const QCommandLineOption timeout("timeout", "Seconds --screenshot waits for the view (default 120).", "S", "120");
    const QCommandLineOption displayFilter(
        "filter", "Display filter of the EEG, EOG, EMG and ECG channels, as \"hp=0.5,lp=70,notch=50\" (\"\": none).",
        "SPEC");
    const QCommandLineOption montage(
        "montage", "Montage shown: referential, double-banana, transverse, average, or a saved montage's name.",
        "NAME");
    parser.addOptions(
        {password, start, span, channels, rows, theme, screenshot, size, timeout, displayFilter, montage});
    if (!parser.parse(QApplication::arguments())) return usage(parser.errorText());
    if (parser.isSet("help")) parser.showHelp(kOk);
    if (parser.isSet("version")) parser.showVersion();

    const QStringList paths = parser.positionalArguments();
    if (parser.isSet(theme) && !QStringList({"system", "light", "dark"}).contains(parser.value(theme)))
        return usage("--theme must be system, light or dark");
    double spanSeconds = 0;
    if (parser.isSet(span)) {
        bool ok = false;
        spanSeconds = parser.value(span).toDouble(&ok);
        if (!ok || spanSeconds <= 0) return usage("--span must be a positive number of seconds");
    }
    int rowsPerScreen = -1;
    if (parser.isSet(rows)) {
        bool ok = false;
        rowsPerScreen = parser.value(rows).toInt(&ok);
        if (!ok || rowsPerScreen < 0) return usage("--rows must be 0 (all) or a number of channels");
    }
    const bool shooting = parser.isSet(screenshot);
    if (shooting && paths.size() != 1) return usage("--screenshot needs exactly one PATH");
    QSize windowSize; // --screenshot's, or one asked for: the remembered place is not used then
    if (shooting || parser.isSet(size)) {
        const QStringList wh = parser.value(size).split('x');
        windowSize = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
        if (windowSize.width() < 200 || windowSize.height() < 150) return usage("--size must be WxH, at least 200x150");
    }

    // One window per user: the files go to the one running, if any. Screenshots and benchmark runs stand alone, and
    // a password stays with its own window.
    const bool measuring = qEnvironmentVariableIsSet("LONGVIEW_REPORT_FIRST_PAINT");
    lv::widgets::SingleInstance instance;
    if (!shooting && !measuring && !parser.isSet(password) && !QSettings().value("app/severalWindows").toBool()) {
        if (instance.handOver(paths)) return kOk;
        if (!instance.listen())
            std::fprintf(stderr, "longview: a running window did not take the files; opening another\n");
    }

    lv::widgets::MainWindow window;
    if (parser.isSet(theme)) window.setThemeName(parser.value(theme));
    const QString montageName = parser.value(montage);
    const bool builtinMontage =
        QStringList({"referential", "double-banana", "transverse", "average"}).contains(montageName);
    window.setInitialView({parser.value(start), spanSeconds, parser.value(channels),
                           montageName.isEmpty() || builtinMontage ? montageName : "saved:" + montageName});
    if (rowsPerScreen >= 0) window.setRowsPerScreen(rowsPerScreen);
    if (parser.isSet(displayFilter) && !window.setDisplayFilter(parser.value(displayFilter)))
        return usage("--filter: " +
                     QString::fromStdString(
                         lv::filter::parseFilterSpec(parser.value(displayFilter).toStdString()).error().message));
    if (windowSize.isValid())
        window.resize(windowSize);
    else
        window.restorePlacement();
    if (shooting) {
        window.setInteractive(false);
        // One picture: no background work, and of the files as they are now (a stale snapshot is not used).
        window.loader()->setBuildPyramid(false);
        window.loader()->setDeferSnapshotChecks(false);
        const QString file = parser.value(screenshot);
        const auto save = [&window, file, done = std::make_shared<bool>(false)] {
            // once the exact view and the overview at this width are drawn
            const lv::widgets::OverviewStrip* strip = window.overview();
            if (*done || !window.isSettled() || !strip->coverage().pyramidLoaded ||
                strip->coverage().columns != static_cast<std::size_t>(strip->coverageRect().width()))
                return;
            *done = true;
            if (const lv::widgets::FramePtr frame = window.plot()->frame(); frame && !frame->error.empty())
                std::fprintf(stderr, "longview: the view is drawn without some of its data: %s\n",
                             frame->error.c_str());
            const bool saved = window.grab().save(file, "PNG");
            if (!saved) std::fprintf(stderr, "longview: cannot write %s\n", qPrintable(file));
            QApplication::exit(saved ? kOk : kOutputFailed);
        };
        QObject::connect(&window, &lv::widgets::MainWindow::viewSettled, &app, save);
        QObject::connect(window.overview(), &lv::widgets::OverviewStrip::coverageReady, &app, save);
        QObject::connect(&window, &lv::widgets::MainWindow::openFailed, &app, [](const QString& message) {
            std::fprintf(stderr, "longview: %s\n", qPrintable(message));
            QApplication::exit(kBadInput);
        });
        QTimer::singleShot(static_cast<int>(parser.value(timeout).toDouble() * 1000), &app, [] {
            std::fprintf(stderr, "longview: timed out waiting for the view to be drawn\n");
            QApplication::exit(kTimeout);
        });
    }
    if (qEnvironmentVariableIsSet("LONGVIEW_REPORT_FIRST_PAINT")) // benchmarks: launch to first picture, then exit
        QObject::connect(window.plot(), &lv::widgets::TracePlot::frameDrawn, &app, [] {
            const auto now = std::chrono::steady_clock::now().time_since_epoch();
            std::printf("first-paint %lld\n",
                        static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
            std::fflush(stdout);
            QApplication::exit(kOk);
        });
    QObject::connect(&instance, &lv::widgets::SingleInstance::pathsReceived, &window,
                     [&window](const QStringList& handed) {
                         window.bringToFront();
                         window.openPaths(handed);
                     });
    lv::widgets::FileOpenEvents desktopFiles; // macOS: Finder's Open and drops on the Dock icon
    if (!shooting)
        QObject::connect(&desktopFiles, &lv::widgets::FileOpenEvents::pathsReceived, &window,
                         [&window](const QStringList& opened) {
                             window.bringToFront();
                             window.openPaths(opened);
                         });
    window.show();
    if (paths.size() == 1)
        window.openPath(paths.first(), parser.value(password));
    else if (paths.size() > 1)
        window.openPaths(paths);
    return QApplication::exec();
}
