// Rows of bars on one time axis: an input's span as data, the overlaps in red; the result as where any merged channel
// has data (its span minus its gaps), grey elsewhere, red where inputs overlap.
#include "MergePreview.h"

#include "GapBands.h"

#include "core/TimeFormat.h"

#include <QFileInfo>
#include <QPainter>
#include <QPalette>
#include <algorithm>

namespace lv::widgets {

namespace {

constexpr int kMargin = 8;
constexpr int kAxisHeight = 34; // tick labels under the rows
constexpr int kCaptionHeight = 18;

// "30 s", "2.5 min", "3 h": a gap's or an overlap's length, in the result row.
QString lengthText(core::Uutc us)
{
    const double s = static_cast<double>(us) / 1e6;
    if (s < 120) return QString("%1 s").arg(s, 0, 'g', 3);
    if (s < 7200) return QString("%1 min").arg(s / 60, 0, 'g', 3);
    return QString("%1 h").arg(s / 3600, 0, 'g', 3);
}

QString shortTime(core::Uutc t)
{
    const QString iso = QString::fromStdString(core::formatIso(t)); // 2025-01-01T00:00:00.000000+00:00
    return iso.left(10) + " " + iso.mid(11, 8) + " UTC";
}

} // namespace

double MergePreview::Layout::xOf(core::Uutc t) const
{
    const double d = static_cast<double>(std::max<core::Uutc>(span.duration(), 1));
    return axis.left() + static_cast<double>(t - span.start) / d * axis.width();
}

MergePreview::Layout MergePreview::layout(const convert::MergeTimeline& t, QSize size)
{
    Layout l;
    l.span = t.span;
    const int rows = static_cast<int>(t.inputs.size()) + 1;
    l.axis =
        QRectF(kLabelWidth, kMargin, std::max(size.width() - kLabelWidth - kMargin, 10), rows * (kRowHeight + kRowGap));
    const auto bar = [&](const QRectF& row, core::TimeRange r, Kind kind) {
        const double x0 = l.xOf(std::max(r.start, t.span.start)), x1 = l.xOf(std::min(r.end, t.span.end));
        return Bar{QRectF(x0, row.top(), std::max(x1 - x0, 1.0), row.height()), kind, r};
    };
    // Overlaps per input (from every channel), and the result's data and overlaps.
    std::vector<std::vector<core::TimeRange>> inputOverlaps(t.inputs.size());
    std::vector<core::TimeRange> data, overlaps;
    for (const auto& ch : t.channels) {
        for (const core::TimeRange& r : subtractRanges({ch.span}, unionRanges(ch.gaps))) data.push_back(r);
        for (const auto& o : ch.overlaps) {
            overlaps.push_back(o.range);
            for (std::size_t i : {o.earlier, o.later})
                if (i < inputOverlaps.size()) inputOverlaps[i].push_back(o.range);
        }
    }
    for (std::size_t i = 0; i < t.inputs.size(); ++i) {
        Row row;
        row.label = QString("%1  %2").arg(i + 1).arg(QFileInfo(QString::fromStdString(t.inputs[i].path)).fileName());
        row.rect = QRectF(l.axis.left(), l.axis.top() + static_cast<double>(i) * (kRowHeight + kRowGap), l.axis.width(),
                          kRowHeight);
        if (!t.inputs[i].span.empty()) row.bars.push_back(bar(row.rect, t.inputs[i].span, Kind::Data));
        for (const core::TimeRange& r : unionRanges(std::move(inputOverlaps[i])))
            row.bars.push_back(bar(row.rect, r, Kind::Overlap));
        l.rows.push_back(std::move(row));
    }
    Row result;
    result.label = QObject::tr("Result");
    result.rect = QRectF(l.axis.left(), l.axis.top() + static_cast<double>(rows - 1) * (kRowHeight + kRowGap),
                         l.axis.width(), kRowHeight);
    data = unionRanges(std::move(data));
    for (const core::TimeRange& r : data) result.bars.push_back(bar(result.rect, r, Kind::Data));
    for (const core::TimeRange& r : subtractRanges({t.span}, data))
        result.bars.push_back(bar(result.rect, r, Kind::Gap));
    for (const core::TimeRange& r : unionRanges(std::move(overlaps)))
        result.bars.push_back(bar(result.rect, r, Kind::Overlap));
    l.rows.push_back(std::move(result));
    QStringList names;
    for (const auto& ch : t.channels) names << QString::fromStdString(ch.name);
    l.channels = (names.size() == 1 ? QObject::tr("1 channel: %1") : QObject::tr("%1 channels: %2").arg(names.size()))
                     .arg(names.join(", "));
    l.startLabel = shortTime(t.span.start);
    l.endLabel = shortTime(t.span.end);
    return l;
}

QColor MergePreview::colorOf(Kind kind)
{
    switch (kind) {
    case Kind::Gap:
        return QColor(185, 185, 185);
    case Kind::Overlap:
        return QColor(215, 40, 40);
    default:
        return QColor(60, 120, 190);
    }
}

MergePreview::MergePreview(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setToolTip(tr("The merged time line, computed from the inputs' descriptions (nothing is read): one row per input, "
                  "the result underneath; grey: gaps, red: inputs overlapping in time."));
}

void MergePreview::setTimeline(const convert::MergeTimeline& timeline)
{
    m_timeline = timeline;
    m_message.clear();
    updateGeometry();
    update();
}

void MergePreview::setMessage(const QString& message)
{
    m_timeline.reset();
    m_message = message;
    updateGeometry();
    update();
}

MergePreview::Layout MergePreview::currentLayout() const { return m_timeline ? layout(*m_timeline, size()) : Layout{}; }

QSize MergePreview::sizeHint() const
{
    const int rows = m_timeline ? static_cast<int>(m_timeline->inputs.size()) + 1 : 2;
    return {560, kMargin + rows * (kRowHeight + kRowGap) + kAxisHeight + kCaptionHeight + kMargin};
}

QSize MergePreview::minimumSizeHint() const { return {300, sizeHint().height()}; }

void MergePreview::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.setPen(palette().color(QPalette::Text));
    if (!m_timeline) {
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap,
                   m_message);
        return;
    }
    const Layout l = currentLayout();
    const QFontMetrics fm(font());
    for (const Row& row : l.rows) {
        p.setPen(palette().color(QPalette::Text));
        const QRectF label(kMargin, row.rect.top(), kLabelWidth - 2 * kMargin, row.rect.height());
        p.drawText(label, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(row.label, Qt::ElideMiddle, label.width()));
        p.fillRect(row.rect, palette().color(QPalette::AlternateBase));
        for (const Bar& b : row.bars) p.fillRect(b.rect, colorOf(b.kind));
        if (&row != &l.rows.back()) continue;
        for (const Bar& b : row.bars) { // the result's gaps and overlaps say how long they are, where that fits
            const QString text = lengthText(b.range.duration());
            if (b.kind == Kind::Data || fm.horizontalAdvance(text) + 6 > b.rect.width()) continue;
            p.setPen(b.kind == Kind::Overlap ? Qt::white : Qt::black);
            p.drawText(b.rect, Qt::AlignCenter, text);
        }
    }
    // The axis: a line under the rows, the start and end times at its ends.
    const double y = l.axis.bottom();
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(QPointF(l.axis.left(), y), QPointF(l.axis.right(), y));
    for (const double x : {l.axis.left(), l.axis.right()}) p.drawLine(QPointF(x, y), QPointF(x, y + 4));
    const QRectF labels(l.axis.left(), y + 6, l.axis.width(), fm.height());
    p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, l.startLabel);
    p.drawText(labels, Qt::AlignRight | Qt::AlignTop, l.endLabel);
    const QRectF caption(kMargin, y + 6 + fm.height() + 4, width() - 2 * kMargin, fm.height());
    p.drawText(caption, Qt::AlignLeft | Qt::AlignTop, fm.elidedText(l.channels, Qt::ElideRight, caption.width()));
}

} // namespace lv::widgets
