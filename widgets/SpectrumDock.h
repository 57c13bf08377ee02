// View > Spectrum: the power spectral density of a lane as shown (montage and display filter applied) over the page,
// the last selection or the whole channel, by Welch's method (segment, overlap, window; missing data left out and
// the segments used counted), drawn log or linear, with band powers as numbers. The page follows the view; the
// whole channel is computed in the background with progress and Cancel.
#pragma once

#include "JobTracker.h"

#include "core/Time.h"
#include "spectrum/Welch.h"

#include <QDockWidget>
#include <QThreadPool>
#include <optional>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lv::widgets {

class TraceLoader;

// "delta=0.5-4,theta=4-8" as (name, low, high) Hz; nullopt when a part does not read or low >= high.
std::optional<std::vector<std::tuple<QString, double, double>>> parseBands(const QString& text);

class SpectrumDock : public QDockWidget {
    Q_OBJECT
public:
    enum class Span { Page, Selection, Whole };
    static constexpr const char* kDefaultBands = "delta=0.5-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45";

    explicit SpectrumDock(TraceLoader* loader, QWidget* parent = nullptr);
    ~SpectrumDock() override;

    // The lanes offered (the plot's, in order) and the page and selection shown; a change recomputes (debounced)
    // while the dock is visible.
    void setLanes(const std::vector<std::size_t>& lanes);
    void setPage(core::TimeRange page);
    void setSelection(std::optional<core::TimeRange> selection);
    void setChannel(std::size_t channel);
    void setSpan(Span span);
    void setWelch(double segmentSeconds, int overlapPercent, spectrum::Window window);
    void setLogScale(bool on);
    bool setBands(const QString& text); // false when the text is no list of bands
    void recompute();                   // now (the dock's own timer otherwise)
    void cancel();

    const spectrum::Psd& psd() const { return m_psd; } // the spectrum shown (empty power: none)
    QString statusText() const;
    QTableWidget* bandTable() const { return m_bands; }
    QCustomPlot* plot() const { return m_plot; }

signals:
    void computed(); // a spectrum, or why there is none, is shown

private:
    void showPsd(const spectrum::Psd& psd, const QString& what);
    void fail(const QString& why);
    void fillBands();

    TraceLoader* m_loader;
    QThreadPool m_pool;
    JobTracker m_jobs;
    std::vector<std::size_t> m_lanes; // offered, with their names
    QStringList m_names;
    core::TimeRange m_page{};
    std::optional<core::TimeRange> m_selection;
    spectrum::Psd m_psd;
    QString m_unit;
    QString m_what; // the spectrum shown: lane, filter and span in words
    QComboBox* m_channel;
    QComboBox* m_span;
    QDoubleSpinBox* m_segment;
    QSpinBox* m_overlap;
    QComboBox* m_window;
    QCheckBox* m_log;
    QLineEdit* m_bandText;
    QCustomPlot* m_plot;
    QTableWidget* m_bands;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTimer* m_debounce;
    QTimer* m_poll;
};

} // namespace lv::widgets
