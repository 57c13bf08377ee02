// The desktop's light or dark preference: QStyleHints on Qt 6.5+, the platform palette's lightness before that.
#include "SystemTheme.h"

#include <QApplication>
#include <QEvent>
#include <QStyleHints>
#include <QTimer>
#include <utility>

namespace lv::widgets {

namespace {

// The platform theme's palette. The theme's own application palette covers it (QGuiApplication::palette() returns
// that): an empty palette resolves to the platform's, read, and the own one is put back (its resolve mask kept).
QPalette platformPalette()
{
    const QPalette own = QApplication::palette();
    QApplication::setPalette(QPalette());
    const QPalette platform = QApplication::palette();
    QApplication::setPalette(own);
    return platform;
}

} // namespace

QString schemeOfPalette(const QPalette& palette)
{
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    const QColor text = palette.color(QPalette::Active, QPalette::WindowText);
    return window.lightness() < text.lightness() ? QStringLiteral("dark") : QStringLiteral("light");
}

SystemTheme* SystemTheme::instance()
{
    static SystemTheme* const theme = new SystemTheme(qApp);
    return theme;
}

SystemTheme::SystemTheme(QObject* parent)
    : QObject(parent)
    , m_paletteScheme(schemeOfPalette(platformPalette()))
    , m_themeTimer(new QTimer(this))
{
    m_themeTimer->setSingleShot(true);
    m_themeTimer->setInterval(0);
    connect(m_themeTimer, &QTimer::timeout, this, [this] {
        const QString scheme = schemeOfPalette(platformPalette());
        if (scheme == std::exchange(m_paletteScheme, scheme)) return;
        if (!m_source) emit changed();
    });
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, this, [this] {
        if (!m_source) emit changed();
    });
#endif
    qApp->installEventFilter(this);
}

// Each top-level window gets a ThemeChange when the desktop's theme changes (the palette changes of the
// application's own palette are not looked at: setting it sends them too).
bool SystemTheme::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ThemeChange) m_themeTimer->start();
    return QObject::eventFilter(watched, event);
}

QString SystemTheme::scheme() const { return m_source ? m_source() : platformScheme(); }

QString SystemTheme::platformScheme() const
{
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    switch (QGuiApplication::styleHints()->colorScheme()) {
    case Qt::ColorScheme::Dark:
        return QStringLiteral("dark");
    case Qt::ColorScheme::Light:
        return QStringLiteral("light");
    case Qt::ColorScheme::Unknown:
        break;
    }
#endif
    return m_paletteScheme;
}

void SystemTheme::setSource(std::function<QString()> source)
{
    m_source = std::move(source);
    emit changed();
}

} // namespace lv::widgets
