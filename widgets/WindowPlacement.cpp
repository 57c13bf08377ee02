// Remembering and restoring the main window's place: the screen by name, the rectangle clamped into its free area.
#include "WindowPlacement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace lv::widgets {

QRect clampToScreen(QRect saved, QRect available)
{
    if (!available.isValid()) return saved;
    QRect r(saved.topLeft(), saved.size().boundedTo(available.size()));
    r.moveLeft(std::clamp(r.left(), available.left(), available.left() + available.width() - r.width()));
    r.moveTop(std::clamp(r.top(), available.top(), available.top() + available.height() - r.height()));
    return r;
}

QVariantMap WindowPlacement::toMap() const { return {{"screen", screen}, {"rect", rect}, {"maximized", maximized}}; }

WindowPlacement WindowPlacement::fromMap(const QVariantMap& map)
{
    return {map.value("screen").toString(), map.value("rect").toRect(), map.value("maximized").toBool()};
}

WindowPlacement placementOf(const QWidget& window)
{
    const QScreen* s = window.screen();
    return {s ? s->name() : QString(), window.normalGeometry(), window.isMaximized()};
}

QScreen* screenNamed(const QString& name)
{
    for (QScreen* s : QGuiApplication::screens())
        if (!name.isEmpty() && s->name() == name) return s;
    return QGuiApplication::primaryScreen();
}

void restorePlacement(QWidget& window, const WindowPlacement& placement)
{
    if (!placement.rect.isValid() || placement.rect.isEmpty()) return;
    QScreen* s = screenNamed(placement.screen);
    if (!s) return;
    window.setScreen(s);
    window.setGeometry(clampToScreen(placement.rect, s->availableGeometry()));
    if (placement.maximized) window.setWindowState(window.windowState() | Qt::WindowMaximized);
}

} // namespace lv::widgets
