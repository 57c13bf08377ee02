// The system's colour scheme (light or dark) for View > Theme > System, and a notice when the desktop changes it.
#pragma once

#include <QObject>
#include <QPalette>
#include <QString>
#include <functional>

class QTimer;

namespace lv::widgets {

// "dark" when the palette's window is darker than its text (or than mid-grey), else "light".
QString schemeOfPalette(const QPalette& palette);

// One per application (on qApp). Qt 6.5+ asks QStyleHints::colorScheme(); Qt 6.4 reads the platform's palette, which
// the application's own palette (the theme's, set by the main window) hides: it is looked at with that palette
// lifted for a moment, when the instance is made and when the desktop sends a theme change.
class SystemTheme : public QObject {
    Q_OBJECT
public:
    static SystemTheme* instance();

    QString scheme() const; // "light" or "dark"
    // Tests: a scheme source instead of the desktop's (empty: the desktop again); changed() follows.
    void setSource(std::function<QString()> source);

signals:
    void changed(); // the system's scheme may have changed: read scheme() again

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit SystemTheme(QObject* parent);
    QString platformScheme() const;

    std::function<QString()> m_source;
    QString m_paletteScheme; // Qt 6.4: the platform palette's, as last read
    QTimer* m_themeTimer;    // one look per burst of theme-change events (they come once per window)
};

} // namespace lv::widgets
