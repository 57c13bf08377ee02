// Coverage is painted from the gap lists (known at open, no decoding), so the strip appears at once.
#include "OverviewStrip.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

namespace lv::widgets {

namespace {
constexpr int kTickRow = 6; // annotation ticks above the coverage rows
}

OverviewStrip::OverviewStrip(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(40);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole recording: data, gaps (grey) and NaN runs (orange) per channel. Click or drag to move."));
}

void OverviewStrip::setRecording(const core::RecordingInfo* info, const GapBands* bands)
{
    m_info = info;
    m_bands = bands;
    renderCoverage();
    update();
}

void OverviewStrip::setWindow(core::TimeRange range)
{
    m_window = range;
    update();
}

void OverviewStrip::setTheme(const Theme& theme)
{
    m_theme = theme;
    renderCoverage();
    update();
}

double OverviewStrip::xOf(core::Uutc t) const
{
    if (!m_info || m_info->end <= m_info->start) return 0;
    return static_cast<double>(t - m_info->start) / static_cast<double>(m_info->end - m_info->start) * width();
}

core::Uutc OverviewStrip::timeAt(double x) const
{
    if (!m_info) return 0;
    const double f = std::clamp(x / std::max(width(), 1), 0.0, 1.0);
    return m_info->start + static_cast<core::Uutc>(f * static_cast<double>(m_info->end - m_info->start));
}

void OverviewStrip::renderCoverage()
{
    m_coverage = QImage(std::max(width(), 1), std::max(height() - kTickRow, 1), QImage::Format_ARGB32_Premultiplied);
    m_coverage.fill(m_theme.plotBackground);
    if (!m_info || !m_bands || m_info->channels.empty()) return;
    QPainter p(&m_coverage);
    const double rowH = static_cast<double>(m_coverage.height()) / static_cast<double>(m_info->channels.size());
    const auto band = [&](core::TimeRange r, double top, double h, const QColor& c) {
        const double x0 = xOf(r.start), x1 = std::max(xOf(r.end), x0 + 1.0);
        p.fillRect(QRectF(x0, top, x1 - x0, h), c);
    };
    for (std::size_t c = 0; c < m_info->channels.size(); ++c) {
        const core::ChannelInfo& ch = m_info->channels[c];
        const double top = rowH * static_cast<double>(c);
        band({ch.start, ch.end}, top, std::max(rowH - (rowH > 3 ? 1 : 0), 1.0), m_theme.coverage);
        for (const core::TimeRange& r : m_bands->channels[c]) band(r, top, std::max(rowH, 1.0), m_theme.nanBand);
    }
    QColor gap = m_theme.gapBand;
    gap.setAlpha(255);
    for (const core::TimeRange& r : m_bands->recording) band(r, 0, m_coverage.height(), gap);
}

void OverviewStrip::resizeEvent(QResizeEvent*) { renderCoverage(); }

void OverviewStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), m_theme.plotBackground);
    p.drawImage(0, kTickRow, m_coverage);
    if (!m_info) return;
    p.setPen(m_theme.annotation);
    for (const core::Annotation& a : m_info->annotations) {
        const double x = xOf(a.time);
        p.drawLine(QPointF(x, 0), QPointF(x, kTickRow - 1));
    }
    const double x0 = xOf(m_window.start), x1 = std::max(xOf(m_window.end), x0 + 2.0);
    QColor fill = m_theme.window;
    fill.setAlpha(50);
    p.fillRect(QRectF(x0, 0, x1 - x0, height()), fill);
    p.setPen(QPen(m_theme.window, 2));
    p.drawRect(QRectF(x0, 1, x1 - x0, height() - 2));
}

void OverviewStrip::mousePressEvent(QMouseEvent* event)
{
    if (m_info && event->button() == Qt::LeftButton) emit centerRequested(timeAt(event->position().x()));
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (m_info && (event->buttons() & Qt::LeftButton)) emit centerRequested(timeAt(event->position().x()));
}

} // namespace lv::widgets
