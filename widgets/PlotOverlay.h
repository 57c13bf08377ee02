// What QCustomPlot has no item for at this volume: gap and NaN bands, annotation spans, markers and labels (with a
// density lane when too many to label), and measurement cursors, painted by one layerable per layer.
#pragma once

#include "Theme.h"

#include <qcustomplot.h>
#include <vector>

namespace lv::widgets {

struct OverlayBand {
    int lane = -1; // -1: across every trace (recording-wide gap); else the lane of one channel (NaN run)
    double x0 = 0; // seconds from the recording's start
    double x1 = 0;
    bool damaged = false; // a damaged block (failed its CRC): no data shown there
};

// Scale bars in the data area's lower right corner: one division (a lane's height) labelled with what it means,
// and a round length of time.
struct ScaleBars {
    QString amplitude;  // "70 uV" for one division; empty: no vertical bar (Auto, mixed scales)
    double seconds = 0; // the horizontal bar's length; 0: none
};

struct OverlayMarker {
    double x = 0;
    double duration = 0; // seconds; > 0 is drawn as a span
    QString label;
    int lane = -1;     // -1: the whole recording
    bool user = false; // the user's own (another colour)
};

class PlotOverlay : public QCPLayerable {
public:
    enum class Part { Under, Over }; // under the traces: bands and spans; over: markers, labels, cursors

    PlotOverlay(QCustomPlot* plot, QCPAxisRect* rect, Part part);

    void setTheme(const Theme& theme) { m_theme = theme; }
    void setLaneCount(int lanes) { m_lanes = lanes; }
    void setBands(std::vector<OverlayBand> bands) { m_bands = std::move(bands); }
    void setMarkers(std::vector<OverlayMarker> markers) { m_markers = std::move(markers); }
    void setCursors(std::vector<double> xs) { m_cursors = std::move(xs); }
    void setNote(const QString& note) { m_note = note; } // boxed in the plot's centre, over everything (Over part)
    void setScaleBars(ScaleBars bars) { m_bars = std::move(bars); } // Over part
    const ScaleBars& scaleBars() const { return m_bars; }
    const QString& note() const { return m_note; }
    const std::vector<OverlayBand>& bands() const { return m_bands; }
    const std::vector<OverlayMarker>& markers() const { return m_markers; }
    int labelledMarkers() const { return m_labelled; } // markers drawn with their text at the last paint

    static constexpr int kLabelRows = 2;
    static int labelRowHeight(const QFont& font);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;

private:
    double px(double x) const;
    QRectF laneRect(int lane, double x0, double x1) const;
    void drawUnder(QCPPainter* painter);
    void drawOver(QCPPainter* painter);
    void drawNote(QCPPainter* painter);
    void drawScaleBars(QCPPainter* painter);

    QCPAxisRect* m_rect;
    Part m_part;
    Theme m_theme = Theme::light();
    int m_lanes = 1;
    std::vector<OverlayBand> m_bands;
    std::vector<OverlayMarker> m_markers;
    std::vector<double> m_cursors;
    QString m_note;
    ScaleBars m_bars;
    int m_labelled = 0;
};

// The traces as rendered off the UI thread (TraceRenderer), stretched from the time range they were drawn for to
// the current axis: a view that has moved shows the old picture in its new place until the new one arrives.
class TraceLayer : public QCPLayerable {
public:
    TraceLayer(QCustomPlot* plot, QCPAxisRect* rect);

    void setImage(QImage image, double x0, double x1);
    void clear() { m_image = QImage(); }
    const QImage& image() const { return m_image; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;

private:
    QCPAxisRect* m_rect;
    QImage m_image;
    double m_x0 = 0.0;
    double m_x1 = 1.0;
};

// Channel names and scales left of the lanes, drawn from one image made again only when they change: QCustomPlot
// caches 16 tick labels, so 64 lanes of axis labels laid their text out anew on every replot.
class LaneLabels : public QCPLayerable {
public:
    struct Label {
        int lane = 0; // 0 at the top
        QString text;
    };

    LaneLabels(QCustomPlot* plot, QCPAxisRect* rect);

    void setLabels(std::vector<Label> labels, int lanes, const QFont& font, const QColor& color);
    int width() const; // pixels the widest label needs, left of the axis
    const std::vector<Label>& labels() const { return m_labels; }
    const QFont& font() const { return m_font; }
    static constexpr int kGap = 5; // pixels between a label and the axis line

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;

private:
    QCPAxisRect* m_rect;
    std::vector<Label> m_labels;
    int m_lanes = 1;
    QFont m_font;
    QColor m_color;
    QImage m_image; // the labels of m_rect's height at the painter's pixel ratio; null: to draw again
};

} // namespace lv::widgets
