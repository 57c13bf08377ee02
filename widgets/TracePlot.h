// The stacked multi-channel plot: one lane per visible channel on a wall-clock time axis, drawn with QCustomPlot
// from TraceFrames only (traces rendered off the UI thread); gap and NaN bands, annotation markers, cursors; wheel,
// rubber-band and cursor input.
#pragma once

#include "ChannelScales.h"
#include "GapBands.h"
#include "JobTracker.h"
#include "PlotOverlay.h"
#include "Theme.h"
#include "TimeMode.h"
#include "TraceFrame.h"

#include "core/RecordingInfo.h"

#include <QImage>
#include <QSharedPointer>
#include <QThreadPool>
#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

class QCustomPlot;
class QCPAxisRect;
class QMouseEvent;
class QWheelEvent;

namespace lv::widgets {

class LaneLabels;
class PlotOverlay;
class TraceLayer;
class TimeTicker;

struct DrawnBand {
    std::size_t channel = 0; // the channel whose lane holds the band
    core::TimeRange range;
};

class TracePlot : public QWidget {
    Q_OBJECT
public:
    explicit TracePlot(QWidget* parent = nullptr);
    ~TracePlot() override;

    void setRecording(const core::RecordingInfo* info, const GapBands* bands); // nullptr: nothing to show
    void setView(core::TimeRange range, const std::vector<std::size_t>& channels);
    void showFrame(FramePtr frame);
    void setTheme(const Theme& theme);
    void setTimeMode(TimeMode mode);
    void setUserAnnotations(std::vector<core::Annotation> user); // drawn with the recording's, in their own colour
    // The text a labelled channel's count stands for (core::Recording::valueLabel), shown by the readout after the
    // value ("state = 2 (running)"); empty: none.
    using ValueLabels = std::function<QString(std::size_t channel, std::int32_t count)>;
    void setValueLabels(ValueLabels labels);
    // Each channel's type (guessed from its name and unit when the recording is set) colours its trace.
    void setChannelType(std::size_t channel, core::ChannelType type);
    core::ChannelType channelType(std::size_t channel) const;
    // Colours of their own (a montage's derivations), over their type's; a trace's colour is colourOf.
    void setChannelColours(std::map<std::size_t, QColor> colours);
    QColor colourOf(std::size_t channel) const;
    // Amplitude. A division is the vertical spacing between two stacked traces (one lane). The sensitivity is common
    // to the channels of a unit ("7 uV/mm" by default, true on screen from its physical size), or Auto (each channel
    // fitted to the page shown, refitted as the page changes); see ChannelScales. Per-channel factors
    // (Ctrl+Shift+wheel) apply on top of either.
    void setSensitivity(const Sensitivity& s);
    const Sensitivity& sensitivity() const { return m_scales.sensitivity(); }
    void setUnitsPerDivision(double units);             // every channel, in its own unit; 0: Auto
    double unitsPerDivision(std::size_t channel) const; // what a division means now for this channel; 0: not known yet
    void setGain(double gain);                          // all channels; with a fixed sensitivity, divides it
    double gain() const { return m_scales.gain(); }
    void scaleChannel(std::size_t channel, double factor); // one channel's amplitude times `factor`
    const std::map<std::size_t, double>& channelFactors() const { return m_scales.channelFactors(); }
    // Polarity: an inverted channel is drawn upside down (its label says "inv").
    void setInverted(std::size_t channel, bool inverted);
    bool isInverted(std::size_t channel) const { return m_inverted.count(channel) > 0; }
    const std::set<std::size_t>& invertedChannels() const { return m_inverted; }
    // A type's own sensitivity over the common one (Auto: none); see ChannelScales::setTypeSensitivity.
    void setTypeSensitivity(core::ChannelType type, const Sensitivity& s);
    // A channel's own sensitivity (a montage derivation's) over all others; see ChannelScales::setChannelSensitivity.
    void setChannelSensitivity(std::size_t channel, const Sensitivity& s);
    const std::map<core::ChannelType, Sensitivity>& typeSensitivities() const { return m_scales.typeSensitivities(); }
    // Offset: the trace drawn this much (in the channel's unit) above its lane's centre (0: centred).
    void setChannelOffset(std::size_t channel, double offset);
    double channelOffset(std::size_t channel) const;
    const std::map<std::size_t, double>& channelOffsets() const { return m_offsets; }
    // Channels drawn as bits (computed by the loader's frames); their labels say "trigger 0-15" or "status 16-23".
    void setBitViews(std::map<std::size_t, BitView> views);
    // Channels drawn filtered, and the filter in a label's words ("HP 0.5 LP 70 N50"), shown after their names.
    void setFilterLabel(std::set<std::size_t> channels, const QString& label);
    void setFilterLabels(std::map<std::size_t, QString> labels); // each channel's own (a derivation's filter)
    QString filterLabel(std::size_t channel) const;              // "" when drawn unfiltered
    // The channels shown become `info`'s (the recording's, then a montage's lanes from `first` on, of these
    // `types`), with `bands`; what was set for lanes from `first` on (polarity, offsets, factors, filters) is
    // dropped, the recording's channels keep theirs. Both pointers stay valid until the next call or setRecording.
    void setDisplayChannels(const core::RecordingInfo* info, const GapBands* bands, std::size_t first,
                            const std::vector<core::ChannelType>& types);
    BitView bitView(std::size_t channel) const;
    void autoScale(); // Auto, fitted to the data shown now
    // Traces clipped to their lanes (the default: an artefact or an overview never paints over the neighbours), or
    // free to overlap them.
    void setClipToLanes(bool clip);
    bool clipsToLanes() const { return m_clipToLanes; }
    // Screen calibration: logical pixels per millimetre (0: from the screen's reported physical size).
    void setPixelsPerMillimetre(double pixels);
    double pixelsPerMillimetre() const;
    double divisionMillimetres() const;  // a lane's height on screen
    double millimetresPerSecond() const; // the timebase: the data area's width over the page's length
    void clearCursors();
    std::optional<core::Uutc> mouseTime() const; // the time under the mouse while it is over the traces

    // Device pixels across the data area: envelope columns for one point pair per pixel.
    std::size_t dataColumns() const;
    FramePtr frame() const { return m_frame; }
    core::TimeRange viewRange() const { return m_range; }
    const std::vector<std::size_t>& channels() const { return m_channels; }

    // What is drawn, read back from the plot (tests, status bar).
    core::TimeRange drawnRange() const; // the time axis, in uUTC
    std::vector<core::TimeRange> drawnGapBands() const;
    std::vector<DrawnBand> drawnNanBands() const;
    std::vector<core::Uutc> drawnAnnotations() const;
    int labelledAnnotations() const;
    QRect dataRect() const;             // the traces' area, in this widget's coordinates
    double pixelOf(core::Uutc t) const; // x in this widget's coordinates
    bool hasTraceImage() const;
    QImage traceImage() const; // the rendered traces (device pixels, transparent elsewhere)
    QString laneLabel(std::size_t lane) const;
    std::vector<int> labelledLanes() const; // the lanes whose label is drawn (every lane when there is room)
    QFont labelFont() const;
    QString note() const;        // written across an empty plot ("no signals: 154 annotations"), or empty
    ScaleBars scaleBars() const; // drawn in the data area's corner: one division's value and a length of time
    // The page as a picture of `size` (logical pixels): PNG or PDF by the extension, written on a worker thread;
    // done(error) follows on this thread (empty: written).
    void exportPage(const QString& path, QSize size, std::function<void(QString error)> done);

    void replotNow();                // a synchronous replot (benchmarks)
    static QString libraryVersion(); // QCustomPlot's

signals:
    void zoomRequested(double factor, qint64 anchorUutc);
    void rowScrollRequested(int notches); // the wheel over the lane labels: > 0 down the channels
    // A double-click on the traces: mark this time (on the lane's channel with Shift held, else channel -1).
    void markRequested(qint64 uutc, int channel);
    void rangeSelected(qint64 startUutc, qint64 endUutc);
    // A marker of the user's own annotation dragged along the time axis (`index` into setUserAnnotations' list):
    // its onset is to move to `uutc`.
    void annotationMoved(int index, qint64 uutc);
    void statusText(const QString& text);
    void columnsChanged();
    void scaleChanged(); // the amplitude per division changed (fixed value, gain or a channel's factor)
    void frameDrawn(quint64 id, bool exact); // after the plot with this frame was painted

private:
    double toX(core::Uutc t) const;
    core::Uutc toTime(double x) const;
    int laneAt(double pixelY) const;
    void updateLanes();
    void scheduleRender(); // the frame's traces into an image on the render thread
    QSize dataPixels() const;
    void updateAxes();
    void emitColumnsIfChanged();
    void updateBands();
    void updateMarkers();
    void onWheel(QWheelEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);
    void onDoubleClick(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    int userMarkerAt(QPointF at) const; // the user's annotation whose onset is within a few pixels, or -1
    void updateReadout();
    void updateScaleBars();
    void leaveEvent(QEvent* event) override;
    double valueAt(std::size_t channel, double x) const;      // physical value nearest x in the frame, or NaN
    QString labelOf(std::size_t channel, double value) const; // a labelled channel's text for the value, or empty
    QString unitOf(std::size_t channel) const;
    ChannelScales::Kind kindOf(std::size_t channel) const;
    double laneCenter(std::size_t channel, double low, double high) const; // the value drawn at the lane's centre
    void amplitudeChanged();                                               // re-render, relabel, replot, tell

    QCustomPlot* m_plot;
    QCPAxisRect* m_rect;
    PlotOverlay* m_under;
    PlotOverlay* m_over;
    LaneLabels* m_labels;
    TraceLayer* m_traces;
    QSharedPointer<TimeTicker> m_ticker;
    Theme m_theme;
    const core::RecordingInfo* m_info = nullptr;
    ValueLabels m_valueLabels;
    const GapBands* m_bands = nullptr;
    std::vector<core::Annotation> m_user;
    std::vector<core::ChannelType> m_types; // per channel of m_info
    std::set<std::size_t> m_inverted;
    std::map<std::size_t, double> m_offsets;
    std::map<std::size_t, BitView> m_bitViews;
    std::map<std::size_t, QString> m_filtered; // channels drawn filtered: their filter in a label's words
    std::map<std::size_t, QColor> m_colours;   // channels of a colour of their own
    core::TimeRange m_range;
    std::vector<std::size_t> m_channels;
    FramePtr m_frame;
    ChannelScales m_scales;
    double m_pixelsPerMm = 0.0; // 0: the screen's
    bool m_clipToLanes = true;
    std::vector<double> m_cursors;  // x of measurement cursors (at most two)
    std::optional<QPointF> m_mouse; // over the plot, in the plot's coordinates
    struct MarkerDrag {
        int index = -1;
        core::Uutc from = 0;
    };
    std::optional<MarkerDrag> m_drag; // a user's marker held by the mouse
    std::size_t m_lastColumns = 0;
    int m_labelledHeight = 0; // the data area's height the lane labels were laid out for
    bool m_exporting = false; // exportPage is painting the plot at another size
    TimeMode m_timeMode;
    quint64 m_pendingDrawn = 0;
    bool m_pendingExact = false;
    bool m_drawPending = false;
    QThreadPool m_renderPool; // one thread: renders in order, stale ones skipped
    JobTracker m_renders;     // after the pool: stops before the pool goes
};

} // namespace lv::widgets
