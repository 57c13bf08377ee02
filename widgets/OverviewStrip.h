// The whole recording under the plot: a coverage row per channel (data, recording-wide gap, the channel's own
// gaps and NaN runs), annotation ticks and the current window; click or drag to move the view.
#pragma once

#include "GapBands.h"
#include "Theme.h"

#include "core/RecordingInfo.h"

#include <QImage>
#include <QWidget>

namespace lv::widgets {

class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(QWidget* parent = nullptr);

    void setRecording(const core::RecordingInfo* info, const GapBands* bands);
    void setWindow(core::TimeRange range);
    void setTheme(const Theme& theme);
    QSize sizeHint() const override { return {400, 64}; }

signals:
    void centerRequested(qint64 uutc);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void renderCoverage();
    double xOf(core::Uutc t) const;
    core::Uutc timeAt(double x) const;

    const core::RecordingInfo* m_info = nullptr;
    const GapBands* m_bands = nullptr;
    core::TimeRange m_window;
    Theme m_theme = Theme::light();
    QImage m_coverage; // rendered once per recording, size and theme
};

} // namespace lv::widgets
