// QCustomPlot set up for many lanes: axes, a wall-clock ticker, layers for bands, traces (an image rendered on a
// worker thread) and markers; lane mapping here (DC removed per page, amplitude per channel and for all).
#include "TracePlot.h"

#include "PlotOverlay.h"
#include "TimeTicker.h"
#include "TraceRenderer.h"

#include <QScreen>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace lv::widgets {

TracePlot::TracePlot(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_rect(m_plot->axisRect())
    , m_ticker(new TimeTicker)
    , m_theme(Theme::light())
    , m_timeMode(TimeMode::Utc)
    , m_renders(this, &m_renderPool)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setNotAntialiasedElements(QCP::aeAll);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->addLayer("bands", m_plot->layer("grid"), QCustomPlot::limAbove);
    m_under = new PlotOverlay(m_plot, m_rect, PlotOverlay::Part::Under);
    m_under->setLayer("bands");
    m_traces = new TraceLayer(m_plot, m_rect);
    m_traces->setLayer("main");
    m_renderPool.setMaxThreadCount(1);
    m_over = new PlotOverlay(m_plot, m_rect, PlotOverlay::Part::Over);
    m_over->setLayer("overlay");
    // Every change replots the whole plot: one paint buffer (one clear and one blend per replot) instead of a
    // second, buffered one for the overlay.
    m_plot->layer("overlay")->setMode(QCPLayer::lmLogical);
    m_plot->xAxis->setTicker(m_ticker);
    m_plot->xAxis->setTickLabelRotation(0);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 3);
    m_plot->yAxis->setTickLabels(false); // drawn by m_labels, which sets the left margin
    m_labels = new LaneLabels(m_plot, m_rect);
    m_labels->setLayer("axes");
    m_rect->setAutoMargins(QCP::msBottom | QCP::msRight);
    m_rect->setMargins(QMargins(0, PlotOverlay::kLabelRows * PlotOverlay::labelRowHeight(font()) + 12, 0, 0));
    m_plot->setSelectionRectMode(QCP::srmCustom);
    connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this, [this](const QRect& r, QMouseEvent*) {
        if (r.width() < 5 || !m_info) return;
        emit rangeSelected(toTime(m_plot->xAxis->pixelToCoord(r.left())),
                           toTime(m_plot->xAxis->pixelToCoord(r.right())));
    });
    connect(m_plot, &QCustomPlot::mouseWheel, this, &TracePlot::onWheel);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TracePlot::onMouseMove);
    connect(m_plot, &QCustomPlot::mousePress, this, &TracePlot::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TracePlot::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &TracePlot::onDoubleClick);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_exporting) return; // laid out at the export's size for a moment
        if (m_traces->image().isNull() || m_traces->image().size() != dataPixels()) scheduleRender();
        if (m_rect->height() != m_labelledHeight) updateAxes(); // a lower plot may label fewer lanes
        emitColumnsIfChanged();
    });
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (!m_drawPending) return;
        m_drawPending = false;
        emit frameDrawn(m_pendingDrawn, m_pendingExact);
    });
    setTheme(m_theme);
}

TracePlot::~TracePlot()
{
    m_renders.stop();
    m_renderPool.waitForDone();
}

QString TracePlot::note() const { return m_over->note(); }

void TracePlot::replotNow() { m_plot->replot(QCustomPlot::rpImmediateRefresh); }

QString TracePlot::libraryVersion() { return QStringLiteral(QCUSTOMPLOT_VERSION_STR); }

double TracePlot::toX(core::Uutc t) const { return m_info ? static_cast<double>(t - m_info->start) / 1e6 : 0.0; }

core::Uutc TracePlot::toTime(double x) const
{
    return (m_info ? m_info->start : 0) + static_cast<core::Uutc>(std::llround(x * 1e6));
}

std::size_t TracePlot::dataColumns() const
{
    const int w = m_rect->width() > 10 ? m_rect->width() : std::max(width() - 140, 100);
    return static_cast<std::size_t>(std::lround(w * devicePixelRatioF()));
}

void TracePlot::setRecording(const core::RecordingInfo* info, const GapBands* bands)
{
    m_info = info;
    m_user.clear();
    m_drag.reset();
    m_types.clear();
    m_inverted.clear();
    m_offsets.clear();
    m_bitViews.clear();
    m_filtered.clear();
    m_colours.clear();
    if (info)
        for (const core::ChannelInfo& c : info->channels) m_types.push_back(core::guessChannelType(c));
    m_bands = bands;
    m_frame.reset();
    m_scales.forgetRecording();
    m_cursors.clear();
    m_over->setCursors({});
    m_mouse.reset(); // no value of the previous recording stays in the status bar
    m_channels.clear();
    m_range = info ? core::TimeRange{info->start, info->end} : core::TimeRange{0, 1};
    if (info) m_ticker->setOrigin(info->start);
    const std::size_t notes = info ? info->annotations.size() : 0;
    m_over->setNote(!info || !info->channels.empty() ? QString()
                    : notes == 1                     ? tr("no signals: 1 annotation")
                                                     : tr("no signals: %1 annotations").arg(notes));
    m_renders.drop();
    m_traces->clear();
    updateLanes();
    updateAxes();
    updateBands();
    updateMarkers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    updateReadout();
}

void TracePlot::setView(core::TimeRange range, const std::vector<std::size_t>& channels)
{
    m_range = range;
    if (channels != m_channels) {
        m_channels = channels;
        updateLanes();
        scheduleRender();
    }
    updateAxes();
    updateBands();
    updateMarkers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    updateReadout();
}

void TracePlot::showFrame(FramePtr frame)
{
    m_frame = std::move(frame);
    m_scales.fit(*m_frame, [this](std::size_t c) { return kindOf(c); });
    scheduleRender(); // replots when the image is ready
    updateAxes();     // amplitude labels follow a first auto-scale
    updateBands();
    updateReadout(); // the values under the mouse are this frame's now
}

void TracePlot::setTheme(const Theme& theme)
{
    m_theme = theme;
    m_plot->setBackground(theme.plotBackground);
    m_rect->setBackground(Qt::NoBrush); // the plot's background shows through: one fill per replot less
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(theme.axis));
        axis->setTickPen(QPen(theme.axis));
        axis->setSubTickPen(QPen(theme.axis));
        axis->setTickLabelColor(theme.text);
        axis->setLabelColor(theme.text);
        axis->grid()->setPen(QPen(theme.grid, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    m_under->setTheme(theme);
    m_over->setTheme(theme);
    updateAxes(); // the lane labels' colour
    scheduleRender();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::setTimeMode(TimeMode mode)
{
    m_timeMode = mode;
    m_ticker->setMode(mode);
    updateAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::amplitudeChanged()
{
    scheduleRender();
    updateAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit scaleChanged();
}

void TracePlot::setSensitivity(const Sensitivity& s)
{
    m_scales.setSensitivity(s);
    if (m_frame) m_scales.fit(*m_frame, [this](std::size_t c) { return kindOf(c); });
    amplitudeChanged();
}

void TracePlot::setUnitsPerDivision(double units)
{
    setSensitivity(units > 0 && std::isfinite(units) ? Sensitivity{units, Sensitivity::Per::Division, {}}
                                                     : Sensitivity{});
}

double TracePlot::unitsPerDivision(std::size_t channel) const
{
    return m_scales.unitsPerDivision(channel, kindOf(channel), divisionMillimetres());
}

void TracePlot::setGain(double gain)
{
    m_scales.setGain(gain);
    amplitudeChanged();
}

void TracePlot::scaleChannel(std::size_t channel, double factor)
{
    m_scales.scaleChannel(channel, factor);
    amplitudeChanged();
}

void TracePlot::autoScale() { setSensitivity(Sensitivity{}); }

void TracePlot::setClipToLanes(bool clip)
{
    m_clipToLanes = clip;
    scheduleRender();
}

void TracePlot::setPixelsPerMillimetre(double pixels)
{
    m_pixelsPerMm = pixels > 0 && std::isfinite(pixels) ? pixels : 0.0;
    amplitudeChanged();
}

double TracePlot::pixelsPerMillimetre() const
{
    if (m_pixelsPerMm > 0) return m_pixelsPerMm;
    const QScreen* s = screen();
    const double dpi = s ? s->physicalDotsPerInchY() : 0.0;
    return dpi > 0 ? dpi / 25.4 : 96.0 / 25.4;
}

double TracePlot::divisionMillimetres() const
{
    const int rectHeight = m_rect->height() > 10 ? m_rect->height() : std::max(height() - 80, 100);
    return rectHeight / static_cast<double>(std::max<std::size_t>(m_channels.size(), 1)) / pixelsPerMillimetre();
}

double TracePlot::millimetresPerSecond() const
{
    const double seconds = static_cast<double>(m_range.duration()) / 1e6;
    const double width = static_cast<double>(dataColumns()) / devicePixelRatioF();
    return seconds > 0 ? width / pixelsPerMillimetre() / seconds : 0.0;
}

void TracePlot::clearCursors()
{
    m_cursors.clear();
    m_over->setCursors({});
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::updateLanes()
{
    m_under->setLaneCount(static_cast<int>(std::max<std::size_t>(m_channels.size(), 1)));
    m_over->setLaneCount(static_cast<int>(std::max<std::size_t>(m_channels.size(), 1)));
}

std::vector<int> TracePlot::labelledLanes() const
{
    std::vector<int> lanes;
    for (const LaneLabels::Label& l : m_labels->labels()) lanes.push_back(l.lane);
    return lanes;
}

QFont TracePlot::labelFont() const { return m_labels->font(); }

QString TracePlot::laneLabel(std::size_t lane) const
{
    if (!m_info || lane >= m_channels.size()) return {};
    const std::size_t c = m_channels[lane];
    QString label = QString::fromStdString(m_info->channels.at(c).name) + (isInverted(c) ? " inv" : "");
    if (bitView(c) != BitView::Value)
        label += bitView(c) == BitView::Trigger ? " trigger 0-15" : " status 16-23";
    else if (const QString filter = filterLabel(c); !filter.isEmpty())
        label += " " + filter;
    if (const double perDivision = unitsPerDivision(c); perDivision > 0) {
        const Sensitivity* fixed = m_scales.fixedFor(c, kindOf(c));
        const bool perMm = fixed && fixed->per == Sensitivity::Per::Millimetre;
        const double v = perMm ? perDivision / divisionMillimetres() : perDivision;
        label += QString("  %1 %2/%3").arg(amplitudeText(v), unitOf(c), perMm ? "mm" : "div");
    } else if (!unitOf(c).isEmpty()) {
        label += " (" + unitOf(c) + ")";
    }
    return label;
}

void TracePlot::emitColumnsIfChanged()
{
    if (dataColumns() == m_lastColumns) return;
    m_lastColumns = dataColumns();
    emit columnsChanged();
}

void TracePlot::updateAxes()
{
    const double lanes = static_cast<double>(std::max<std::size_t>(m_channels.size(), 1));
    m_plot->xAxis->setRange(toX(m_range.start), toX(m_range.end));
    m_ticker->setTickCount(
        std::max(3, static_cast<int>(dataColumns() / devicePixelRatioF()) / 140)); // labels ~140 px apart
    m_plot->xAxis->setLabel(m_info ? TimeTicker::dateLabel(m_info->start, toX(m_range.start), m_timeMode) : "");
    m_plot->yAxis->setRange(0.0, lanes);
    auto ticker = m_plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    const int rectHeight = m_rect->height() > 10 ? m_rect->height() : std::max(height() - 80, 100);
    m_labelledHeight = m_rect->height();
    updateScaleBars();
    const double laneHeight = rectHeight / lanes;
    // Labels in the UI's font, never smaller: where lanes are lower than a line, every so many lanes is labelled
    // (View > Channels per Screen gives each its label).
    const QFont f = font();
    const int every = std::max(1, static_cast<int>(std::ceil(QFontMetrics(f).height() / std::max(laneHeight, 1.0))));
    std::vector<LaneLabels::Label> labels;
    for (std::size_t k = 0; k < m_channels.size(); k += static_cast<std::size_t>(every)) {
        ticker->addTick(lanes - static_cast<double>(k) - 0.5, QString()); // the tick mark; its label is ours
        labels.push_back({static_cast<int>(k), laneLabel(k)});
    }
    m_labels->setLabels(std::move(labels), static_cast<int>(lanes), f, m_theme.text);
    // Room for any scale a label may show (4 digits), so that the first frame's scales do not move the traces.
    const QFontMetrics fm(f);
    int room = m_labels->width();
    for (std::size_t c : m_channels)
        if (m_info)
            room = std::max(room, fm.horizontalAdvance(QString::fromStdString(m_info->channels.at(c).name) + " " +
                                                       filterLabel(c) + " inv  8888 " + unitOf(c) + "/div"));
    const QMargins margins = m_rect->margins();
    const int left = room + LaneLabels::kGap + 4;
    if (margins.left() == left) return;
    m_rect->setMargins(QMargins(left, margins.top(), margins.right(), margins.bottom()));
    // Lay out now: the next frame request must ask for the columns the traces will have.
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        m_plot->plotLayout()->update(phase);
    emitColumnsIfChanged();
}

void TracePlot::updateBands()
{
    std::vector<OverlayBand> bands;
    if (m_info && m_bands) {
        for (const core::TimeRange& g : clipRanges(m_bands->recording, m_range))
            bands.push_back({-1, toX(g.start), toX(g.end)});
        for (std::size_t k = 0; k < m_channels.size(); ++k) {
            std::vector<core::TimeRange> own = clipRanges(m_bands->channels.at(m_channels[k]), m_range);
            if (m_frame)
                for (const ChannelTrace& t : m_frame->traces)
                    if (t.channel == m_channels[k]) own.insert(own.end(), t.nanRuns.begin(), t.nanRuns.end());
            for (const core::TimeRange& r : clipRanges(unionRanges(std::move(own)), m_range))
                bands.push_back({static_cast<int>(k), toX(r.start), toX(r.end)});
            if (m_frame)
                for (const ChannelTrace& t : m_frame->traces)
                    if (t.channel == m_channels[k])
                        for (const core::TimeRange& r : clipRanges(t.damagedRuns, m_range))
                            bands.push_back({static_cast<int>(k), toX(r.start), toX(r.end), true});
        }
    }
    m_over->setBands(bands);
    m_under->setBands(std::move(bands));
}

void TracePlot::setUserAnnotations(std::vector<core::Annotation> user)
{
    m_user = std::move(user);
    if (m_drag) { // the list changed under the mouse: let go
        m_drag.reset();
        m_plot->setSelectionRectMode(QCP::srmCustom);
    }
    updateMarkers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TracePlot::updateMarkers()
{
    std::vector<OverlayMarker> markers;
    const auto add = [&](const core::Annotation& a, bool user) {
        if (a.time >= m_range.end || a.time + std::max<std::int64_t>(a.durationUs, 0) < m_range.start) return;
        int lane = -1;
        if (a.channel) {
            const int c = m_info->channelIndex(*a.channel);
            const auto it = std::find(m_channels.begin(), m_channels.end(), static_cast<std::size_t>(c));
            if (c < 0 || it == m_channels.end()) return;
            lane = static_cast<int>(it - m_channels.begin());
        }
        QString label = QString::fromStdString(a.text.empty() ? a.type : a.text);
        markers.push_back({toX(a.time), static_cast<double>(a.durationUs) / 1e6, label, lane, user});
    };
    if (m_info) {
        for (const core::Annotation& a : m_info->annotations) add(a, false);
        for (const core::Annotation& a : m_user) add(a, true);
    }
    m_over->setMarkers(markers);
    m_under->setMarkers(std::move(markers));
}

QSize TracePlot::dataPixels() const
{
    const double dpr = devicePixelRatioF();
    const int h = m_rect->height() > 10 ? m_rect->height() : std::max(height() - 80, 100);
    return {static_cast<int>(dataColumns()), static_cast<int>(std::lround(h * dpr))};
}

void TracePlot::scheduleRender()
{
    if (!m_frame || m_channels.empty()) {
        m_renders.drop(); // a render still running is for a picture no longer wanted
        m_traces->clear();
        if (m_frame) { // no channel to draw (none shown, or a recording without signals): drawn as it is
            m_pendingDrawn = m_frame->id;
            m_pendingExact = m_frame->exact;
            m_drawPending = true;
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return;
    }
    RenderSpec spec;
    spec.devicePixelRatio = devicePixelRatioF();
    spec.pixels = dataPixels();
    spec.x0 = m_plot->xAxis->range().lower;
    spec.x1 = m_plot->xAxis->range().upper;
    spec.lanes = static_cast<int>(m_channels.size());
    spec.color = m_theme.trace;
    spec.clipToLanes = m_clipToLanes;
    for (const ChannelTrace& t : m_frame->traces) {
        const auto it = std::find(m_channels.begin(), m_channels.end(), t.channel);
        if (it == m_channels.end()) continue;
        const double perDivision = unitsPerDivision(t.channel);
        const double scale = perDivision > 0 ? 1.0 / perDivision : ChannelScales::kLaneFill; // lanes per unit
        spec.mapping.push_back({t.channel, static_cast<int>(it - m_channels.begin()),
                                laneCenter(t.channel, t.low, t.high), isInverted(t.channel) ? -scale : scale,
                                colourOf(t.channel)});
    }
    m_renders.start(0, [this, frame = m_frame, spec](const Job& job) mutable {
        if (!job.isCurrent()) return; // a newer render is queued
        spec.id = job.id();
        QImage image = renderTraces(*frame, spec);
        job.post([this, frame, spec, image = std::move(image)]() mutable {
            m_traces->setImage(std::move(image), spec.x0, spec.x1);
            const QCPRange axis = m_plot->xAxis->range();
            if (spec.x0 == axis.lower && spec.x1 == axis.upper && spec.pixels == dataPixels()) {
                m_pendingDrawn = frame->id;
                m_pendingExact = frame->exact;
                m_drawPending = true;
            }
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        });
    });
}

std::vector<core::TimeRange> TracePlot::drawnGapBands() const
{
    std::vector<core::TimeRange> out;
    for (const OverlayBand& b : m_under->bands())
        if (b.lane < 0) out.push_back({toTime(b.x0), toTime(b.x1)});
    return out;
}

std::vector<DrawnBand> TracePlot::drawnNanBands() const
{
    std::vector<DrawnBand> out;
    for (const OverlayBand& b : m_under->bands())
        if (b.lane >= 0) out.push_back({m_channels.at(static_cast<std::size_t>(b.lane)), {toTime(b.x0), toTime(b.x1)}});
    return out;
}

std::vector<core::Uutc> TracePlot::drawnAnnotations() const
{
    std::vector<core::Uutc> out;
    for (const OverlayMarker& m : m_over->markers()) out.push_back(toTime(m.x));
    return out;
}

int TracePlot::labelledAnnotations() const { return m_over->labelledMarkers(); }

QRect TracePlot::dataRect() const { return m_rect->rect().translated(m_plot->pos()); }

double TracePlot::pixelOf(core::Uutc t) const { return m_plot->xAxis->coordToPixel(toX(t)) + m_plot->pos().x(); }

bool TracePlot::hasTraceImage() const { return !m_traces->image().isNull(); }

QImage TracePlot::traceImage() const { return m_traces->image(); }

core::TimeRange TracePlot::drawnRange() const
{
    return {toTime(m_plot->xAxis->range().lower), toTime(m_plot->xAxis->range().upper)};
}

int TracePlot::laneAt(double pixelY) const
{
    if (m_channels.empty()) return -1;
    const double y = m_plot->yAxis->pixelToCoord(pixelY);
    const int k = static_cast<int>(static_cast<double>(m_channels.size()) - std::floor(y) - 1);
    return k >= 0 && k < static_cast<int>(m_channels.size()) ? k : -1;
}

double TracePlot::valueAt(std::size_t channel, double x) const
{
    // Outside the frame's range (a page turned, its frame not here yet) nothing is known: never a neighbour's value.
    if (!m_frame || x < toX(m_frame->range.start) || x > toX(m_frame->range.end)) return std::nan("");
    for (const ChannelTrace& t : m_frame->traces) {
        if (t.channel != channel || t.x.empty()) continue;
        const auto it = std::lower_bound(t.x.begin(), t.x.end(), x);
        std::size_t i = static_cast<std::size_t>(std::min<std::ptrdiff_t>(it - t.x.begin(), t.x.size() - 1));
        if (i > 0 && std::abs(t.x[i - 1] - x) < std::abs(t.x[i] - x)) --i;
        return t.y[i];
    }
    return std::nan("");
}

} // namespace lv::widgets
