// MainWindow as a desktop application: files handed to it (command line, a later launch, the desktop), its place on
// the screens, the system's light or dark theme, and Help > About.
#include "MainWindow.h"

#include "AboutDialog.h"
#include "FileFilters.h"
#include "SystemTheme.h"
#include "WindowPlacement.h"

#include <QSettings>

namespace lv::widgets {

void MainWindow::openPaths(const QStringList& paths)
{
    const QStringList recordings = recordingPaths(paths); // the recordings among them (by name), else all
    if (recordings.isEmpty()) return;
    if (recordings.size() == 1) return openPath(recordings.front());
    mergeRecordings(recordings); // several recordings: put them together
}

void MainWindow::bringToFront()
{
    if (isMinimized()) setWindowState(windowState() & ~Qt::WindowMinimized);
    show();
    raise();
    activateWindow();
}

void MainWindow::restorePlacement()
{
    QSettings settings;
    const WindowPlacement placement = WindowPlacement::fromMap({{"screen", settings.value("window/screen")},
                                                                {"rect", settings.value("window/rect")},
                                                                {"maximized", settings.value("window/maximized")}});
    if (placement.rect.isValid()) return widgets::restorePlacement(*this, placement);
    // Remembered by an older version: Qt's own record, fitted to the screen.
    if (restoreGeometry(settings.value("window/geometry").toByteArray())) fitToScreen();
}

void MainWindow::savePlacement()
{
    const QVariantMap placement = placementOf(*this).toMap();
    for (auto it = placement.cbegin(); it != placement.cend(); ++it) remember("window/" + it.key(), it.value());
}

// The choice ("system", "light" or "dark") as a theme: the system's scheme for "system".
void MainWindow::followTheme()
{
    applyTheme(Theme::named(m_themeChoice == "system" ? SystemTheme::instance()->scheme() : m_themeChoice));
}

AboutDialog* MainWindow::showAbout()
{
    if (auto* open = findChild<AboutDialog*>()) { // one at a time
        open->raise();
        open->activateWindow();
        return open;
    }
    auto* dialog = new AboutDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

} // namespace lv::widgets
