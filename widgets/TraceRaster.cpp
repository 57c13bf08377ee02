// Per-column span rasteriser for traces: segments become column spans, gathered while a run stays in a column.
#include "TraceRaster.h"

#include <algorithm>
#include <cmath>

namespace lv::widgets {

RasterTarget RasterTarget::of(QImage& image)
{
    return {reinterpret_cast<QRgb*>(image.bits()), image.bytesPerLine() / 4, image.width(), image.height()};
}

TraceRaster::TraceRaster(const RasterTarget& target, QRgb premultipliedColor, int penWidth, int firstColumn,
                         int endColumn)
    : m_target(target)
    , m_color(premultipliedColor)
    , m_pen(std::max(1, penWidth))
    , m_first(std::max(0, firstColumn))
    , m_end(std::min(target.width, endColumn < 0 ? target.width : endColumn))
    , m_height(target.height)
{}

void TraceRaster::startRun(double x, double y)
{
    endRun();
    if (!(std::abs(x) < 1e15 && std::abs(y) < 1e15)) return; // NaN (or no usable coordinate): the run stays ended
    m_inRun = true;
    m_column = floorToInt(x);
    m_low = m_high = y;
    m_lastX = x;
    m_lastY = y;
}

void TraceRaster::endRun()
{
    flushColumn();
    m_inRun = false;
}

void TraceRaster::setColor(QRgb premultipliedColor)
{
    endRun(); // what is pending was drawn in the colour it had
    m_color = premultipliedColor;
}

void TraceRaster::segment(double x0, double y0, double x1, double y1)
{
    const auto last = floorToInt(x1);
    if (last == m_column || x1 <= x0) { // within the column (or a step back, drawn as a vertical join)
        addSpan(y0, y1);
        if (last != m_column) {
            flushColumn();
            m_column = last;
            m_low = m_high = y1;
        }
        return;
    }
    const double slope = (y1 - y0) / (x1 - x0);
    // The column being gathered ends at its right edge; whole columns in between; the last starts at its left edge.
    // Columns outside the image are skipped in one step.
    const std::int64_t from = std::max<std::int64_t>(m_column + 1, m_first - (m_pen - 1));
    const std::int64_t to = std::min<std::int64_t>(last, m_end);
    addSpan(y0, y0 + slope * (static_cast<double>(m_column + 1) - x0));
    for (std::int64_t c = from; c < to; ++c) {
        flushColumn();
        m_column = c;
        const double a = y0 + slope * (static_cast<double>(c) - x0);
        m_low = m_high = a;
        addSpan(a, a + slope);
    }
    flushColumn();
    m_column = last;
    const double entry = y0 + slope * (static_cast<double>(last) - x0);
    m_low = std::min(entry, y1);
    m_high = std::max(entry, y1);
}

inline void TraceRaster::addSpan(double y0, double y1)
{
    m_low = std::min(m_low, std::min(y0, y1));
    m_high = std::max(m_high, std::max(y0, y1));
}

void TraceRaster::flushColumn()
{
    // The pen reaches m_pen - 1 columns to the right: columns just left of the window draw into it.
    if (m_column < m_first - (m_pen - 1) || m_column >= m_end || !m_inRun) return;
    // The rows whose centres the line passes in this column (one row where it passes none): a line as thin as
    // Bresenham's, however steep.
    std::int64_t top = floorToInt(m_low + 0.5), bottom = floorToInt(m_high + 0.5) - 1;
    if (bottom < top) top = bottom = floorToInt((m_low + m_high) / 2);
    bottom += m_pen - 1;
    if (bottom < 0 || top >= m_height) return; // |y| <= 1e6 (the renderer clamps)
    const int r0 = static_cast<int>(std::max<std::int64_t>(top, 0));
    const int r1 = static_cast<int>(std::min<std::int64_t>(bottom, m_height - 1));
    const int c0 = std::max(static_cast<int>(m_column), m_first);
    const int n = std::min(static_cast<int>(m_column) + m_pen, m_end) - c0;
    QRgb* pixel = m_target.bits + r0 * m_target.stride + c0;
    if (n == 1) {
        for (int r = r0; r <= r1; ++r, pixel += m_target.stride) *pixel = m_color;
        return;
    }
    for (int r = r0; r <= r1; ++r, pixel += m_target.stride) std::fill(pixel, pixel + n, m_color);
}

} // namespace lv::widgets
