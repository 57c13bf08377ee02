// Plain QPainter on a transparent ARGB image (safe on any thread), cosmetic pen, no antialiasing.
#include "TraceRenderer.h"

#include <QPainter>
#include <QPolygonF>
#include <algorithm>
#include <cmath>

namespace lv::widgets {

QImage renderTraces(const TraceFrame& frame, const RenderSpec& spec)
{
    QImage image(spec.pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, false);
    QPen pen(spec.color);
    pen.setWidthF(std::max(1.0, std::round(spec.devicePixelRatio)));
    pen.setCosmetic(true);
    painter.setPen(pen);
    const double width = image.width(), laneHeight = static_cast<double>(image.height()) / std::max(spec.lanes, 1);
    const double perSecond = width / std::max(spec.x1 - spec.x0, 1e-12);
    QPolygonF run;
    const auto flush = [&] {
        if (run.size() == 1) painter.drawPoint(run.front());
        if (run.size() > 1) painter.drawPolyline(run);
        run.clear();
    };
    for (const ChannelTrace& t : frame.traces) {
        const auto m = std::find_if(spec.mapping.begin(), spec.mapping.end(),
                                    [&](const LaneMapping& l) { return l.channel == t.channel; });
        if (m == spec.mapping.end()) continue;
        const double middle = laneHeight * (m->lane + 0.5), k = m->scale * laneHeight;
        run.reserve(static_cast<qsizetype>(t.x.size()));
        for (std::size_t i = 0; i < t.x.size(); ++i) {
            if (std::isnan(t.y[i])) { // gaps and NaN runs: the line stops here
                flush();
                continue;
            }
            const double y = std::clamp(middle - (t.y[i] - m->center) * k, -1e6, 1e6);
            run.push_back(QPointF((t.x[i] - spec.x0) * perSecond, y));
        }
        flush();
    }
    painter.end();
    image.setDevicePixelRatio(spec.devicePixelRatio);
    return image;
}

} // namespace lv::widgets
