// Traces into a transparent ARGB image (safe on any thread) with TraceRaster, in column stripes side by side.
#include "TraceRenderer.h"

#include "ThreadPriority.h"
#include "TraceRaster.h"

#include <QPainter>
#include <QPolygonF>
#include <QThread>
#include <algorithm>
#include <cmath>

namespace lv::widgets {

namespace {

int penWidth(const RenderSpec& spec) { return static_cast<int>(std::max(1.0, std::round(spec.devicePixelRatio))); }

QRgb colorOf(const LaneMapping& m, const RenderSpec& spec)
{
    return qPremultiply((m.color.isValid() ? m.color : spec.color).rgba());
}

// Calls begin(mapping, trace) before each mapped trace, point(x, y) in device pixels for its points that can reach
// device columns [first, end) (all for end < 0), and endRun() after it.
template <typename Begin, typename Point, typename EndRun>
void forEachPoint(const TraceFrame& frame, const RenderSpec& spec, QSize pixels, Begin&& begin, Point&& point,
                  EndRun&& endRun, int first = 0, int end = -1)
{
    const double width = pixels.width(), laneHeight = static_cast<double>(pixels.height()) / std::max(spec.lanes, 1);
    const double perSecond = width / std::max(spec.x1 - spec.x0, 1e-12);
    const double from = spec.x0 + (first - 8) / perSecond, to = spec.x0 + (end + 8) / perSecond; // pens and joins
    for (const ChannelTrace& t : frame.traces) {
        const auto m = std::find_if(spec.mapping.begin(), spec.mapping.end(),
                                    [&](const LaneMapping& l) { return l.channel == t.channel; });
        if (m == spec.mapping.end()) continue;
        begin(*m, t);
        const double middle = laneHeight * (m->lane + 0.5), k = m->scale * laneHeight;
        const double top = spec.clipToLanes ? laneHeight * m->lane : -1e6;
        const double bottom = spec.clipToLanes ? std::max(top, laneHeight * (m->lane + 1) - penWidth(spec)) : 1e6;
        std::size_t i = 0, n = t.x.size(); // the points inside the window, and one more on either side
        if (end >= 0) {
            i = static_cast<std::size_t>(
                std::max<std::ptrdiff_t>(0, std::lower_bound(t.x.begin(), t.x.end(), from) - t.x.begin() - 1));
            n = std::min(t.x.size(),
                         static_cast<std::size_t>(std::upper_bound(t.x.begin(), t.x.end(), to) - t.x.begin() + 1));
        }
        for (; i < n; ++i) { // a NaN value ends the run: gaps and NaN runs stay open
            const double y = std::isnan(t.y[i]) ? t.y[i] : std::clamp(middle - (t.y[i] - m->center) * k, top, bottom);
            point((t.x[i] - spec.x0) * perSecond, y);
        }
        endRun();
    }
}

// A points trace: a plus of three by three pixels (times the pen) at every point, and a line from a point to the next
// one of the same run (a column's minimum and maximum). `line(x0, y0, x1, y1)` draws one.
template <typename Line>
struct PointMarks {
    Line line;
    double reach = 1.0;
    bool hasLast = false;
    double lastX = 0.0, lastY = 0.0;

    void point(double x, double y)
    {
        if (std::isnan(y)) {
            hasLast = false;
            return;
        }
        if (hasLast) line(lastX, lastY, x, y);
        line(x - reach, y, x + reach, y);
        line(x, y - reach, x, y + reach);
        hasLast = true;
        lastX = x;
        lastY = y;
    }
};

QImage transparentImage(const RenderSpec& spec)
{
    QImage image(spec.pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    return image;
}

} // namespace

QImage renderTraces(const TraceFrame& frame, const RenderSpec& spec)
{
    QImage image = transparentImage(spec);
    const RasterTarget target = RasterTarget::of(image);
    // Vertical stripes of columns drawn side by side: disjoint pixels, the same picture as one pass. Points are
    // shifted by half a pixel: QPainter's aliased pixel (i, j) is centred on (i, j), the raster's covers [i, i+1).
    const int stripes = std::clamp(QThread::idealThreadCount(), 1, 8);
    std::vector<std::pair<int, int>> windows;
    for (int s = 0; s < stripes; ++s)
        windows.emplace_back(target.width * s / stripes, target.width * (s + 1) / stripes);
    forEachInBackground(windows, [&](const std::pair<int, int>& w) {
        TraceRaster raster(target, qPremultiply(spec.color.rgba()), penWidth(spec), w.first, w.second);
        bool points = false;
        const auto line = [&](double x0, double y0, double x1, double y1) {
            raster.endRun();
            raster.lineTo(x0 + 0.5, y0 + 0.5);
            raster.lineTo(x1 + 0.5, y1 + 0.5);
            raster.endRun();
        };
        PointMarks<decltype(line)> marks{line, static_cast<double>(penWidth(spec))};
        forEachPoint(
            frame, spec, image.size(),
            [&](const LaneMapping& m, const ChannelTrace& t) {
                raster.setColor(colorOf(m, spec));
                points = t.points;
                marks.hasLast = false;
            },
            [&](double x, double y) {
                if (points) return marks.point(x, y);
                raster.lineTo(x + 0.5, y + 0.5);
            },
            [&] { raster.endRun(); }, w.first, w.second);
    });
    image.setDevicePixelRatio(spec.devicePixelRatio);
    return image;
}

QImage renderTracesWithQPainter(const TraceFrame& frame, const RenderSpec& spec)
{
    QImage image = transparentImage(spec);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, false);
    QPen pen(spec.color);
    pen.setWidth(penWidth(spec));
    pen.setCosmetic(true);
    painter.setPen(pen);
    QPolygonF run;
    bool points = false;
    const auto line = [&](double x0, double y0, double x1, double y1) {
        painter.drawLine(QPointF(x0, y0), QPointF(x1, y1));
    };
    PointMarks<decltype(line)> marks{line, static_cast<double>(penWidth(spec))};
    const auto flush = [&] {
        if (run.size() == 1) painter.drawPoint(run.front());
        if (run.size() > 1) painter.drawPolyline(run);
        run.clear();
    };
    forEachPoint(
        frame, spec, image.size(),
        [&](const LaneMapping& m, const ChannelTrace& t) {
            pen.setColor(QColor::fromRgba(qUnpremultiply(colorOf(m, spec))));
            painter.setPen(pen);
            points = t.points;
            marks.hasLast = false;
        },
        [&](double x, double y) {
            if (points) return marks.point(x, y);
            if (std::isnan(y)) return flush();
            run.push_back(QPointF(x, y));
        },
        flush);
    painter.end();
    image.setDevicePixelRatio(spec.devicePixelRatio);
    return image;
}

} // namespace lv::widgets
