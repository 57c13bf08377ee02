// Coverage jobs tracked by a JobTracker on one worker thread (stale results dropped); while blocks are unchecked for
// NaN the coverage is computed again, less and less often, until the pyramid knows them all.
#include "OverviewStrip.h"

#include "view/ViewSession.h"

#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <algorithm>

namespace lv::widgets {

namespace {
constexpr int kTickRow = 6;              // annotation ticks above the coverage rows
constexpr int kMaxRefreshDelay = 16'000; // ms between coverage updates while the pyramid fills
} // namespace

OverviewStrip::OverviewStrip(QWidget* parent) : QWidget(parent), m_refreshTimer(new QTimer(this)), m_jobs(this, &m_pool)
{
    setMinimumHeight(40);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole recording, one row per channel: data (green; pale where not yet checked for NaN "
                  "samples), gaps (grey) and NaN runs (orange). Click or drag to move."));
    m_pool.setMaxThreadCount(1);
    m_refreshTimer->setSingleShot(true);
    connect(m_refreshTimer, &QTimer::timeout, this, &OverviewStrip::refresh);
}

OverviewStrip::~OverviewStrip()
{
    m_jobs.stop();
    releaseSession();
    m_pool.waitForDone(); // no job result may arrive after this
}

void OverviewStrip::releaseSession()
{
    // The last holder of a session runs its destructor (joins decoders, saves the pyramid): never the UI thread.
    if (m_session) m_pool.start([s = std::move(m_session)]() mutable { s.reset(); });
    m_session.reset();
}

void OverviewStrip::setRecording(std::shared_ptr<view::ViewSession> session, const GapBands* bands)
{
    releaseSession();
    m_session = std::move(session);
    m_bands = m_session && bands ? std::make_shared<const GapBands>(*bands) : nullptr;
    m_info = m_session ? &m_session->info() : nullptr;
    m_map = {};
    m_refreshDelay = 500;
    m_refreshTimer->stop();
    updateGeometry(); // the height follows the number of channels
    refresh();
}

void OverviewStrip::setWindow(core::TimeRange range)
{
    m_window = range;
    update();
}

void OverviewStrip::setTheme(const Theme& theme)
{
    m_theme = theme;
    refresh();
}

QSize OverviewStrip::sizeHint() const
{
    const int channels = m_info ? static_cast<int>(m_info->channels.size()) : 0;
    return {400, std::clamp(kTickRow + 3 * channels, 40, 90)};
}

QRect OverviewStrip::coverageRect() const { return {0, kTickRow, width(), std::max(height() - kTickRow, 1)}; }

void OverviewStrip::refresh()
{
    if (!m_session || !m_bands) {
        m_jobs.drop();
        m_coverage = QImage();
        update();
        return;
    }
    const QSize size = coverageRect().size();
    m_jobs.start(0, [this, session = m_session, bands = m_bands, size, theme = m_theme](const Job& job) {
        for (bool again = true; again && job.isCurrent();) { // stale: a newer request is queued
            // A pyramid still being read: a first picture now, the full one once it is read (waited for here).
            const bool loaded = session->pyramidLoaded();
            CoverageMap map =
                computeCoverage(*session, *bands, static_cast<std::size_t>(size.width()), job.cancelToken());
            if (job.cancelToken().cancelled()) return;
            map.id = job.id();
            map.pyramidLoaded = loaded;
            again = !loaded && !map.complete();
            QImage image = renderCoverage(map, size, theme);
            job.post([this, map = std::move(map), image = std::move(image)]() mutable { showCoverage(map, image); });
            if (again) session->waitForPyramid();
        }
    });
}

void OverviewStrip::showCoverage(CoverageMap& map, QImage& image)
{
    m_map = std::move(map);
    m_coverage = std::move(image);
    if (m_map.pyramidLoaded && !m_map.complete()) { // the pyramid is filling: look again later
        m_refreshTimer->start(m_refreshDelay);
        m_refreshDelay = std::min(m_refreshDelay * 2, kMaxRefreshDelay);
    }
    update();
    emit coverageReady();
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

void OverviewStrip::resizeEvent(QResizeEvent*)
{
    if (m_coverage.size() != coverageRect().size()) refresh();
}

void OverviewStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), m_theme.plotBackground);
    if (!m_info) return;
    if (!m_coverage.isNull()) p.drawImage(coverageRect(), m_coverage); // stretched while a resize is computed
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
