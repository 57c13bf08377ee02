// Helpers of the widget tests: reference data, temporary synthetic sessions, waiting for a drawn view.
#pragma once

#include "core/RecordingInfo.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

class QWidget;

#include <QtTest>

// "[start, end)" in QCOMPARE's messages (defined in WidgetTestSupport.cpp).
namespace QTest {
template <>
char* toString(const lv::core::TimeRange& r);
} // namespace QTest

namespace lv::widgets {
class MainWindow;
struct ChannelTrace;
} // namespace lv::widgets

namespace lv::test {

QString testdata(const QString& relative); // ../shared/testdata/<relative> (read only)
// Writes `longview-cli synth OUT.mefd <args>` into `dir`; returns the session path, or empty on failure.
QString makeSynth(const QString& dir, const QStringList& args);
// Runs longview-cli with `args`: empty when it exits 0, else its output ("timeout" after 10 minutes).
QString runCli(const QStringList& args);
// Every file under `dir` by its path relative to `dir`, with its bytes (outputs compared byte for byte).
QMap<QString, QByteArray> filesOf(const QString& dir);
// Opens the path in the window and waits until it is open (false on failure or timeout).
bool openAndWait(widgets::MainWindow& window, const QString& path, const QString& password = {});
// A window as the tests use it: not interactive (no dialogs), shown, the path opened and waited for.
bool showAndOpen(widgets::MainWindow& window, const QString& path);
// Waits until the window's current view is drawn exactly.
bool waitSettled(widgets::MainWindow& window, int timeoutMs = 30000);
// The trace of `channel` (or lane) in the frame the plot shows, or nullptr.
const widgets::ChannelTrace* traceShown(const widgets::MainWindow& window, std::size_t channel);
// Time ranges where every channel has a gap (intersection of their gap lists), computed here independently.
std::vector<core::TimeRange> commonGaps(const core::RecordingInfo& info);
// With LONGVIEW_SHOT_DIR set, saves widget.grab() there as `name` (to look at what a test showed).
void saveShot(QWidget& widget, const QString& name);
std::vector<core::TimeRange> clip(const std::vector<core::TimeRange>& ranges, core::TimeRange window);

} // namespace lv::test
