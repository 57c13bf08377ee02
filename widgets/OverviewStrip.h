// The whole recording under the plot: a coverage row per channel (data, data not yet checked for NaN, gaps, NaN
// runs) computed on a worker thread from the min/max pyramid and stored block extrema, annotation ticks and the
// current window; click or drag to move the view.
#pragma once

#include "CoverageMap.h"
#include "GapBands.h"
#include "JobTracker.h"
#include "Theme.h"

#include "core/RecordingInfo.h"

#include <QImage>
#include <QThreadPool>
#include <QWidget>
#include <memory>

class QTimer;

namespace lv::widgets {

class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(QWidget* parent = nullptr);
    ~OverviewStrip() override;

    // nullptr: nothing to show. The session is kept by the coverage jobs while they run.
    void setRecording(std::shared_ptr<view::ViewSession> session, const GapBands* bands);
    void setWindow(core::TimeRange range);
    void setTheme(const Theme& theme);
    void refresh();                  // computes the coverage again (the pyramid has learnt more)
    QSize sizeHint() const override; // rows of about 3 pixels per channel, 40 to 90 pixels in all

    const CoverageMap& coverage() const { return m_map; } // what the painted image shows
    QRect coverageRect() const;                           // where it is painted, in this widget's coordinates

signals:
    void centerRequested(qint64 uutc);
    void coverageReady(); // a new coverage image is painted

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    double xOf(core::Uutc t) const;
    core::Uutc timeAt(double x) const;
    void releaseSession();
    void showCoverage(CoverageMap& map, QImage& image); // a job's result, on the UI thread

    std::shared_ptr<view::ViewSession> m_session;
    std::shared_ptr<const GapBands> m_bands; // a copy the jobs share
    const core::RecordingInfo* m_info = nullptr;
    core::TimeRange m_window;
    Theme m_theme = Theme::light();
    CoverageMap m_map;
    QImage m_coverage; // rendered on the worker for the map's size and theme; the UI thread only paints it
    QTimer* m_refreshTimer;
    int m_refreshDelay = 500; // ms; doubles while blocks stay unchecked, up to kMaxRefreshDelay
    QThreadPool m_pool;       // one thread: coverage jobs in order, stale ones skipped
    JobTracker m_jobs;        // after the pool: stops before the pool goes
};

} // namespace lv::widgets
