// Test helpers: the CLI writes synthetic sessions; waiting spins the event loop until the window reports.
#include "WidgetTestSupport.h"

#include "MainWindow.h"
#include "TracePlot.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>
#include <algorithm>

namespace {

// Every widget test starts from no settings: what a previous run remembered (a recording's channel view, say)
// must not change what this one sees. Tests that name their application clear their own in initTestCase.
void startWithoutSettings() { QSettings().clear(); }

} // namespace

Q_COREAPP_STARTUP_FUNCTION(startWithoutSettings)

namespace QTest {
template <>
char* toString(const lv::core::TimeRange& r)
{
    return qstrdup(QByteArray("[") + QByteArray::number(r.start) + ", " + QByteArray::number(r.end) + ")");
}
} // namespace QTest

namespace lv::test {

QString testdata(const QString& relative) { return QString(LONGVIEW_TESTDATA) + "/" + relative; }

QString makeSynth(const QString& dir, const QStringList& args)
{
    const QString out = dir + "/synth.mefd";
    QProcess p;
    p.start(LONGVIEW_CLI, QStringList{"synth", out} + args);
    if (!p.waitForFinished(600000) || p.exitCode() != 0) {
        qWarning("synth failed: %s", p.readAllStandardError().constData());
        return {};
    }
    return out;
}

void saveShot(QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("LONGVIEW_SHOT_DIR");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    if (!widget.grab().save(dir + "/" + name)) qWarning("cannot save %s", qPrintable(dir + "/" + name));
}

bool openAndWait(widgets::MainWindow& window, const QString& path, const QString& password)
{
    QSignalSpy opened(&window, &widgets::MainWindow::recordingOpened);
    QSignalSpy failed(&window, &widgets::MainWindow::openFailed);
    window.openPath(path, password);
    for (int i = 0; i < 600 && opened.isEmpty() && failed.isEmpty(); ++i) QTest::qWait(50);
    if (!failed.isEmpty()) qWarning("open failed: %s", qPrintable(failed.first().first().toString()));
    return !opened.isEmpty();
}

bool showAndOpen(widgets::MainWindow& window, const QString& path)
{
    window.setInteractive(false);
    window.show();
    return openAndWait(window, path);
}

const widgets::ChannelTrace* traceShown(const widgets::MainWindow& window, std::size_t channel)
{
    if (!window.plot()->frame()) return nullptr;
    for (const widgets::ChannelTrace& t : window.plot()->frame()->traces)
        if (t.channel == channel) return &t;
    return nullptr;
}

bool waitSettled(widgets::MainWindow& window, int timeoutMs)
{
    QTest::qWait(1); // let queued view requests start
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (window.isSettled()) return true;
        QTest::qWait(10);
    }
    return window.isSettled();
}

std::vector<core::TimeRange> commonGaps(const core::RecordingInfo& info)
{
    if (info.channels.empty()) return {};
    std::vector<core::TimeRange> common = info.channels.front().gaps;
    for (std::size_t c = 1; c < info.channels.size(); ++c) {
        std::vector<core::TimeRange> next;
        for (const core::TimeRange& a : common)
            for (const core::TimeRange& b : info.channels[c].gaps) {
                const core::TimeRange r{std::max(a.start, b.start), std::min(a.end, b.end)};
                if (!r.empty()) next.push_back(r);
            }
        common = next;
    }
    return common;
}

std::vector<core::TimeRange> clip(const std::vector<core::TimeRange>& ranges, core::TimeRange window)
{
    std::vector<core::TimeRange> out;
    for (const core::TimeRange& r : ranges) {
        const core::TimeRange c{std::max(r.start, window.start), std::min(r.end, window.end)};
        if (!c.empty()) out.push_back(c);
    }
    return out;
}

QString runCli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(LONGVIEW_CLI, args);
    if (!p.waitForFinished(600000)) return "timeout";
    return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAll());
}

QMap<QString, QByteArray> filesOf(const QString& dir)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) out[QDir(dir).relativeFilePath(path)] = f.readAll();
    }
    return out;
}

} // namespace lv::test
