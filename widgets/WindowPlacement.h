// Where a main window opens again: its remembered rectangle on its remembered screen, kept on that screen's free area.
#pragma once

#include <QRect>
#include <QString>
#include <QVariantMap>

class QScreen;
class QWidget;

namespace lv::widgets {

// `saved` moved (and, when larger, shrunk) into `available`: never partly or wholly off it.
QRect clampToScreen(QRect saved, QRect available);

struct WindowPlacement {
    QString screen; // QScreen::name() of the screen the window was on
    QRect rect;     // the normal (not maximised) geometry, without the frame
    bool maximized = false;

    QVariantMap toMap() const;
    static WindowPlacement fromMap(const QVariantMap& map); // rect invalid: nothing remembered
};

WindowPlacement placementOf(const QWidget& window);
// The screen of that name if it is still connected, else the primary one.
QScreen* screenNamed(const QString& name);
// The window put back where `placement` says, within its screen (unchanged when nothing was remembered).
void restorePlacement(QWidget& window, const WindowPlacement& placement);

} // namespace lv::widgets
