// The spectrogram strip under the plot (a compressed spectral array): one channel's or montage lane's power over the
// whole recording as a colour map on the overview's time axis (0 Hz at the bottom), columns without a whole segment
// (gaps) left blank. Computed in the background on a recording opened for it (progress, Cancel), kept beside the
// snapshots (keyed by the recording, the lane and the settings) so a second look is instant; a click centres the view
// there.
#pragma once

#include "JobTracker.h"
#include "MontageLanes.h"
#include "Theme.h"

#include "core/RecordingInfo.h"
#include "spectrum/Spectrogram.h"

#include <QImage>
#include <QThreadPool>
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;

namespace lv::widgets {

// What the strip shows: a recording (opened again by the job, as a conversion does) and the lane in it.
struct SpectrogramSource {
    QString path;
    QString password;
    std::string snapshotDirectory;               // where the recording's snapshot is, or ""
    std::string cacheDirectory;                  // where spectrograms are kept (the snapshots'); "": not kept
    std::shared_ptr<const MontageLanes> montage; // when the lane is a derivation
    core::RecordingInfo info;                    // shown channels (the recording's, then the montage's lanes)
};

// Colour of a power between the strip's low and high (log10) as a dark-blue to yellow-red map.
QRgb spectrogramColour(double fraction);

class SpectrogramStrip : public QWidget {
    Q_OBJECT
public:
    static constexpr double kColumnSeconds = 4; // a CDSA's usual step: 2 s segments, half overlapping
    static constexpr double kSegmentSeconds = 2;

    explicit SpectrogramStrip(QWidget* parent = nullptr);
    ~SpectrogramStrip() override;

    void setSource(std::optional<SpectrogramSource> source); // nullopt: nothing (the recording closed)
    void setLanes(const std::vector<std::size_t>& lanes);    // offered in the channel list, in order
    void setChannel(std::size_t channel);                    // computed or read from the cache at once
    void setMaxFrequency(double hz);                         // the top of the map (0: half the rate)
    void setWindow(core::TimeRange range);
    void setTheme(const Theme& theme);
    void cancel();

    std::optional<std::size_t> channel() const;
    const spectrum::Spectrogram* spectrogram() const { return m_spectrogram.get(); } // nullptr: none yet
    bool fromCache() const { return m_fromCache; }
    QString statusText() const;
    QRect mapRect() const; // where the colour map is painted
    QSize sizeHint() const override;

signals:
    void centerRequested(qint64 uutc);
    void computed(); // a spectrogram, or why there is none, is shown

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void start();
    void render();

    std::optional<SpectrogramSource> m_source;
    std::shared_ptr<const spectrum::Spectrogram> m_spectrogram;
    QImage m_image; // 0 Hz at the bottom, one column per kImageColumns slice of the recording
    bool m_fromCache = false;
    double m_maxHz = 30;
    core::TimeRange m_window{};
    Theme m_theme = Theme::light();
    std::vector<std::size_t> m_lanes;
    QStringList m_names;
    QComboBox* m_channel;
    QComboBox* m_top;
    QLabel* m_status;
    QPushButton* m_cancel;
    QThreadPool m_pool;
    JobTracker m_jobs; // after the pool
};

} // namespace lv::widgets
