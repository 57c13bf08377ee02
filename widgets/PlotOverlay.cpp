// Bands at least one pixel wide so no gap disappears when zoomed out; labels placed left to right in two rows
// above the traces, a marker whose label fits nowhere goes to the density lane as a tick; lane labels cached.
#include "PlotOverlay.h"

#include <algorithm>

namespace lv::widgets {

PlotOverlay::PlotOverlay(QCustomPlot* plot, QCPAxisRect* rect, Part part)
    : QCPLayerable(plot)
    , m_rect(rect)
    , m_part(part)
{}

int PlotOverlay::labelRowHeight(const QFont& font) { return QFontMetrics(font).height() + 2; }

void PlotOverlay::applyDefaultAntialiasingHint(QCPPainter* painter) const { painter->setAntialiasing(false); }

double PlotOverlay::px(double x) const { return m_rect->axis(QCPAxis::atBottom)->coordToPixel(x); }

QRectF PlotOverlay::laneRect(int lane, double x0, double x1) const
{
    const QRect r = m_rect->rect();
    double left = std::max<double>(px(x0), r.left()), right = std::min<double>(px(x1), r.right() + 1);
    if (right - left < 1.0) right = left + 1.0; // never thinner than a pixel
    if (lane < 0) return QRectF(QPointF(left, r.top()), QPointF(right, r.bottom() + 1));
    const double h = static_cast<double>(r.height()) / std::max(m_lanes, 1);
    return QRectF(left, r.top() + h * lane, right - left, h);
}

void PlotOverlay::draw(QCPPainter* painter)
{
    if (m_part == Part::Under)
        drawUnder(painter);
    else
        drawOver(painter);
}

void PlotOverlay::drawUnder(QCPPainter* painter)
{
    const QRect area = m_rect->rect();
    painter->save();
    painter->setClipRect(area);
    painter->setPen(Qt::NoPen);
    for (const OverlayMarker& m : m_markers)
        if (m.duration > 0) painter->fillRect(laneRect(m.lane, m.x, m.x + m.duration), m_theme.span);
    for (const OverlayBand& b : m_bands) {
        const QRectF r = laneRect(b.lane, b.x0, b.x1);
        if (r.right() < area.left() || r.left() > area.right() || b.lane >= 0) continue; // NaN runs: drawn over
        painter->fillRect(r, m_theme.gapBand);
        {
            painter->setPen(QPen(m_theme.gapBand.darker(130), 1, Qt::DashLine));
            painter->drawLine(r.topLeft(), r.bottomLeft());
            painter->drawLine(r.topRight(), r.bottomRight());
            painter->setPen(Qt::NoPen);
            const QString text = QObject::tr("no data");
            const QFontMetrics fm(painter->font());
            if (r.width() > fm.horizontalAdvance(text) + 6) {
                painter->setPen(m_theme.text);
                painter->drawText(r, Qt::AlignCenter, text);
                painter->setPen(Qt::NoPen);
            } else if (r.width() > fm.height() + 2) { // narrow band: the label runs upwards
                painter->save();
                painter->setPen(m_theme.text);
                painter->translate(r.center());
                painter->rotate(-90);
                painter->drawText(QRectF(-r.height() / 2, -r.width() / 2, r.height(), r.width()), Qt::AlignCenter,
                                  text);
                painter->restore();
            }
        }
    }
    painter->restore();
}

void PlotOverlay::drawNote(QCPPainter* painter)
{
    const QFontMetrics fm(painter->font());
    const QRect area = m_rect->rect();
    QRect box = fm.boundingRect(m_note).adjusted(-12, -8, 12, 8);
    box.moveCenter(area.center());
    painter->setPen(QPen(m_theme.axis, 1));
    painter->setBrush(m_theme.plotBackground);
    painter->drawRect(box);
    painter->setPen(m_theme.text);
    painter->drawText(box, Qt::AlignCenter, m_note);
}

void PlotOverlay::drawOver(QCPPainter* painter)
{
    const QRect area = m_rect->rect();
    const QFontMetrics fm(painter->font());
    const int rowH = labelRowHeight(painter->font());
    const int densityTop = area.top() - kLabelRows * rowH - 6;
    std::vector<double> rowEnd(kLabelRows, -1e9);
    m_labelled = 0;
    painter->save();
    for (const OverlayMarker& m : m_markers) {
        const double x = px(m.x);
        if (x < area.left() - 1 || x > area.right() + 1) continue;
        const QColor colour = m.user ? m_theme.userAnnotation : m_theme.annotation;
        painter->setPen(QPen(colour, 1, Qt::DashLine));
        const QRectF lane = laneRect(m.lane, m.x, m.x);
        painter->drawLine(QPointF(x, lane.top()), QPointF(x, lane.bottom()));
        const QString text = fm.elidedText(m.label, Qt::ElideRight, 220);
        const int w = fm.horizontalAdvance(text) + 6;
        const bool leftward = x + w > area.right() + 40; // near the right edge the label ends at the marker
        const double left = leftward ? x - w : x;
        int row = 0;
        while (row < kLabelRows && rowEnd[static_cast<std::size_t>(row)] > left) ++row;
        if (row < kLabelRows) {
            const QRectF box(left, area.top() - (row + 1) * rowH - 1, w, rowH - 1);
            painter->fillRect(box, m_theme.plotBackground);
            painter->setPen(colour);
            painter->drawRect(box);
            painter->drawText(box.adjusted(3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
            rowEnd[static_cast<std::size_t>(row)] = left + w + 4;
            ++m_labelled;
        } else { // too dense to label: a tick in the density lane above the labels
            painter->setPen(QPen(colour, 2));
            painter->drawLine(QPointF(x, densityTop), QPointF(x, densityTop + 5));
        }
    }
    painter->setClipRect(area);
    for (const OverlayBand& b : m_bands) { // a channel's NaN runs over its trace, at least 3 px wide
        if (b.lane < 0) continue;
        QRectF r = laneRect(b.lane, b.x0, b.x1);
        if (r.width() < 3) r.adjust(-(3 - r.width()) / 2, 0, (3 - r.width()) / 2, 0);
        painter->fillRect(r, b.damaged ? m_theme.damageBand : m_theme.nanBand);
        if (b.damaged && r.width() > QFontMetrics(painter->font()).horizontalAdvance(QObject::tr("damaged")) + 6) {
            painter->setPen(m_theme.text);
            painter->drawText(r, Qt::AlignCenter, QObject::tr("damaged"));
            painter->setPen(Qt::NoPen);
        }
    }
    for (std::size_t i = 0; i < m_cursors.size(); ++i) {
        painter->setPen(QPen(m_theme.cursor, 1, i == 0 ? Qt::SolidLine : Qt::DashDotLine));
        const double x = px(m_cursors[i]);
        painter->drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
    if (!m_note.isEmpty()) drawNote(painter);
    drawScaleBars(painter);
    painter->restore();
}

void PlotOverlay::drawScaleBars(QCPPainter* painter)
{
    const QRect area = m_rect->rect();
    const double laneHeight = static_cast<double>(area.height()) / std::max(m_lanes, 1);
    const double width =
        m_bars.seconds > 0 ? px(m_rect->axis(QCPAxis::atBottom)->range().lower + m_bars.seconds) - area.left() : 0.0;
    if (m_bars.amplitude.isEmpty() && width <= 0) return;
    const QFontMetrics fm(painter->font());
    const QPointF corner(area.right() - 12 - fm.horizontalAdvance(m_bars.amplitude), area.bottom() - fm.height() - 6);
    painter->setClipping(false);
    QColor backing = m_theme.plotBackground; // the values stay readable over the traces
    backing.setAlpha(225);
    const auto label = [&](const QRectF& box, int align, const QString& text) {
        const QRectF tight = fm.boundingRect(box.toAlignedRect(), align, text).adjusted(-3, -1, 3, 1);
        painter->fillRect(tight, backing);
        painter->drawText(box, align, text);
    };
    painter->setPen(QPen(m_theme.text, 2));
    if (width > 0) { // the time bar ends at the corner, its length under it
        painter->drawLine(QPointF(corner.x() - width, corner.y()), corner);
        label(QRectF(corner.x() - width, corner.y() + 2, width, fm.height()), Qt::AlignCenter,
              QString("%1 s").arg(m_bars.seconds));
    }
    if (!m_bars.amplitude.isEmpty() && laneHeight >= 8) { // one division up from the corner, its value beside it
        painter->drawLine(corner, QPointF(corner.x(), corner.y() - laneHeight));
        label(QRectF(corner.x() + 4, corner.y() - laneHeight, area.right() - corner.x(), laneHeight),
              Qt::AlignLeft | Qt::AlignVCenter, m_bars.amplitude);
    }
}

TraceLayer::TraceLayer(QCustomPlot* plot, QCPAxisRect* rect) : QCPLayerable(plot), m_rect(rect) {}

void TraceLayer::setImage(QImage image, double x0, double x1)
{
    m_image = std::move(image);
    m_x0 = x0;
    m_x1 = x1;
}

void TraceLayer::applyDefaultAntialiasingHint(QCPPainter* painter) const { painter->setAntialiasing(false); }

void TraceLayer::draw(QCPPainter* painter)
{
    if (m_image.isNull()) return;
    const QRect r = m_rect->rect();
    const QCPAxis* axis = m_rect->axis(QCPAxis::atBottom);
    const double left = axis->coordToPixel(m_x0), right = axis->coordToPixel(m_x1);
    painter->save();
    painter->setClipRect(r);
    painter->drawImage(QRectF(left, r.top(), right - left, r.height()), m_image);
    painter->restore();
}

LaneLabels::LaneLabels(QCustomPlot* plot, QCPAxisRect* rect) : QCPLayerable(plot), m_rect(rect) {}

void LaneLabels::setLabels(std::vector<Label> labels, int lanes, const QFont& font, const QColor& color)
{
    const bool same = lanes == m_lanes && font == m_font && color == m_color && labels.size() == m_labels.size() &&
                      std::equal(labels.begin(), labels.end(), m_labels.begin(),
                                 [](const Label& a, const Label& b) { return a.lane == b.lane && a.text == b.text; });
    if (same) return;
    m_labels = std::move(labels);
    m_lanes = std::max(lanes, 1);
    m_font = font;
    m_color = color;
    m_image = QImage();
}

int LaneLabels::width() const
{
    const QFontMetrics fm(m_font);
    int w = 0;
    for (const Label& l : m_labels) w = std::max(w, fm.horizontalAdvance(l.text));
    return w;
}

void LaneLabels::applyDefaultAntialiasingHint(QCPPainter* painter) const { painter->setAntialiasing(false); }

void LaneLabels::draw(QCPPainter* painter)
{
    const QRect r = m_rect->rect();
    const int w = width();
    if (w <= 0 || r.height() <= 0) return;
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    if (m_image.isNull() || m_image.devicePixelRatio() != dpr ||
        m_image.deviceIndependentSize().toSize() != QSize(w, r.height())) {
        m_image = QImage(QSize(w, r.height()) * dpr, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(dpr);
        m_image.fill(Qt::transparent);
        QPainter p(&m_image);
        p.setFont(m_font);
        p.setPen(m_color);
        const double laneHeight = static_cast<double>(r.height()) / m_lanes;
        const int textHeight = QFontMetrics(m_font).height();
        for (const Label& l : m_labels) {
            const double middle = laneHeight * (l.lane + 0.5);
            p.drawText(QRectF(0, middle - textHeight / 2.0, w, textHeight), Qt::AlignRight | Qt::AlignVCenter, l.text);
        }
    }
    painter->drawImage(QPointF(r.left() - kGap - w, r.top()), m_image);
}

} // namespace lv::widgets
