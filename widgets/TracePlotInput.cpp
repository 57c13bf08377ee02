// The plot's mouse and wheel input and the status readout of what is under the mouse.
#include "TracePlot.h"

#include "PlotOverlay.h"
#include "TimeTicker.h"

#include <algorithm>
#include <cmath>

namespace lv::widgets {

namespace {

QString formatValue(double v) { return QString::number(v, 'g', 4); }

} // namespace

void TracePlot::onWheel(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_info) return;
    if (event->modifiers() & Qt::ControlModifier) { // amplitude: all channels, or with Shift the one under the mouse
        const double factor = std::pow(1.25, steps);
        const int lane = laneAt(event->position().y());
        if ((event->modifiers() & Qt::ShiftModifier) && lane >= 0) {
            scaleChannel(m_channels[static_cast<std::size_t>(lane)], factor);
        } else {
            setGain(gain() * factor);
        }
        return;
    }
    if (event->position().x() < m_rect->left()) { // over the labels: through the channels, as a list scrolls
        if (const int notches = static_cast<int>(std::lround(-steps))) emit rowScrollRequested(notches);
        return;
    }
    emit zoomRequested(std::pow(0.8, steps), toTime(m_plot->xAxis->pixelToCoord(event->position().x())));
}

void TracePlot::onMouseMove(QMouseEvent* event)
{
    m_mouse = event->position();
    if (m_drag) { // the held marker follows the mouse, inside the recording
        const core::Uutc t =
            std::clamp(toTime(m_plot->xAxis->pixelToCoord(event->position().x())), m_info->start, m_info->end);
        m_user[static_cast<std::size_t>(m_drag->index)].time = t;
        updateMarkers();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    const bool overMarker = m_drag || userMarkerAt(event->position()) >= 0;
    if (overMarker != (m_plot->cursor().shape() == Qt::SizeHorCursor)) {
        if (overMarker)
            m_plot->setCursor(Qt::SizeHorCursor);
        else
            m_plot->unsetCursor();
    }
    updateReadout();
}

int TracePlot::userMarkerAt(QPointF at) const
{
    constexpr double kReach = 4.0; // pixels either side of the marker's line
    if (!m_info || !m_rect->rect().contains(at.toPoint())) return -1;
    int best = -1;
    double bestDistance = kReach + 0.5;
    for (std::size_t i = 0; i < m_user.size(); ++i) {
        const double d = std::abs(m_plot->xAxis->coordToPixel(toX(m_user[i].time)) - at.x());
        if (d < bestDistance) {
            best = static_cast<int>(i);
            bestDistance = d;
        }
    }
    return best;
}

void TracePlot::onMouseRelease(QMouseEvent* event)
{
    if (!m_drag || event->button() != Qt::LeftButton) return;
    const MarkerDrag drag = *m_drag;
    m_drag.reset();
    m_plot->setSelectionRectMode(QCP::srmCustom);
    const core::Uutc to = m_user[static_cast<std::size_t>(drag.index)].time;
    if (to != drag.from) emit annotationMoved(drag.index, to);
}

// What is under the mouse now: the time, the lane's channel and its value, and with two cursors dt (with 1/dt)
// and dv. Called again whenever the view, the frame or the recording changes, so it never shows a value that is
// no longer on screen (nothing once the mouse has left or the recording has changed).
void TracePlot::updateReadout()
{
    if (!m_info || !m_mouse) {
        emit statusText(QString());
        return;
    }
    const double x = m_plot->xAxis->pixelToCoord(m_mouse->x());
    const double step = std::max(m_range.duration() / 1e6 / std::max<double>(dataColumns(), 1.0), 0.001);
    QString text = TimeTicker::format(m_info->start, x, step, m_timeMode);
    const int lane = laneAt(m_mouse->y());
    if (lane >= 0) {
        const std::size_t c = m_channels[static_cast<std::size_t>(lane)];
        const double value = valueAt(c, x);
        text += QString("   %1 = %2 %3")
                    .arg(QString::fromStdString(m_info->channels[c].name), formatValue(value), unitOf(c));
        if (const QString label = labelOf(c, value); !label.isEmpty()) {
            if (text.endsWith(' ')) text.chop(1); // no unit
            text += " (" + label + ")";
        }
        if (m_cursors.size() == 2) {
            const double dt = m_cursors[1] - m_cursors[0];
            const double dv = valueAt(c, m_cursors[1]) - valueAt(c, m_cursors[0]);
            const QString hz = dt > 0 ? QString(" (%1 Hz)").arg(formatValue(1.0 / dt)) : QString();
            text += QString("   cursors: dt = %1 s%2, dv = %3 %4").arg(formatValue(dt), hz, formatValue(dv), unitOf(c));
        }
    }
    emit statusText(text);
}

void TracePlot::setValueLabels(ValueLabels labels)
{
    m_valueLabels = std::move(labels);
    updateReadout();
}

QString TracePlot::labelOf(std::size_t channel, double value) const
{
    const core::ChannelInfo& ch = m_info->channels[channel];
    if (!m_valueLabels || !ch.labelled || !std::isfinite(value) || ch.conversionFactor == 0) return {};
    const double count = std::round((value - ch.offset) / ch.conversionFactor);
    if (count < -2147483647.0 || count > 2147483647.0) return {};
    return m_valueLabels(channel, static_cast<std::int32_t>(count));
}

void TracePlot::leaveEvent(QEvent* event)
{
    m_mouse.reset();
    updateReadout();
    QWidget::leaveEvent(event);
}

void TracePlot::onDoubleClick(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_info || !m_rect->rect().contains(event->position().toPoint())) return;
    const int lane = laneAt(event->position().y());
    const bool onChannel = (event->modifiers() & Qt::ShiftModifier) && lane >= 0;
    emit markRequested(toTime(m_plot->xAxis->pixelToCoord(event->position().x())),
                       onChannel ? static_cast<int>(m_channels[static_cast<std::size_t>(lane)]) : -1);
}

std::optional<core::Uutc> TracePlot::mouseTime() const
{
    if (!m_info || !m_mouse || !m_rect->rect().contains(m_mouse->toPoint())) return std::nullopt;
    return toTime(m_plot->xAxis->pixelToCoord(m_mouse->x()));
}

void TracePlot::onMousePress(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && event->modifiers() == Qt::NoModifier) {
        if (const int i = userMarkerAt(event->position()); i >= 0) { // hold the marker, not a range
            m_drag = MarkerDrag{i, m_user[static_cast<std::size_t>(i)].time};
            m_plot->setSelectionRectMode(QCP::srmNone);
        }
        return;
    }
    if (event->button() != Qt::RightButton || !m_info) return;
    const double x = m_plot->xAxis->pixelToCoord(event->position().x());
    if (m_cursors.size() >= 2) m_cursors.clear();
    m_cursors.push_back(x);
    std::sort(m_cursors.begin(), m_cursors.end());
    m_over->setCursors(m_cursors);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    onMouseMove(event);
}

} // namespace lv::widgets
