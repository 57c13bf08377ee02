// File > Export/Convert...: target format (the engine's registry), output, channels (checked, renamed), time range,
// gap policy, per-format options, de-identification, an estimate, then one convert::ConvertJob run on a JobTracker
// job with progress and Cancel, and a summary: the same output as `longview-cli convert` with those options.
#pragma once

#include "JobTracker.h"

#include "convert/ConvertJob.h"
#include "core/RecordingInfo.h"
#include "montage/Montage.h"

#include <QDialog>
#include <QThreadPool>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace lv::widgets {

class ConvertChannelTable;
class FormatOptions;

// What the viewer has open when the dialog starts.
struct ConvertSource {
    QString path;     // the recording as opened (the job opens it again, as the CLI does)
    QString password; // of an encrypted session (kept for this session only)
    core::RecordingInfo info;
    std::vector<std::size_t> visible;         // channels shown
    core::TimeRange view{};                   // the page shown
    std::optional<core::TimeRange> selection; // the last range dragged on the plot
    QString montage = {};                     // the viewer's (MainWindow::setMontage's words), "" as recorded
    std::vector<montage::Montage> saved = {}; // the user's saved montages ("saved:NAME")
};

class ConvertDialog : public QDialog {
    Q_OBJECT
public:
    enum class RangeMode { Whole, View, Selection, Typed };

    explicit ConvertDialog(ConvertSource source, QWidget* parent = nullptr);
    ~ConvertDialog() override; // remembers the settings; drops a running job (its token set) and waits for it

    void setFormat(const QString& extension); // "mefd", "edf", "bdf", "csv"
    QString format() const;
    void setOutput(const QString& path);
    QString output() const;
    void setRangeMode(RangeMode mode);
    void setTypedRange(const QString& start, const QString& end);
    // What is written: the channels as recorded (""), or a montage's derivations (MainWindow::setMontage's words;
    // the channel table is then not used: every derivation is written). The viewer's montage to begin with.
    void setMontage(const QString& choice);
    QString montageChoice() const;
    ConvertChannelTable* channels() const { return m_channels; }
    void setInteractive(bool on) { m_interactive = on; } // false: no message boxes (tests)

    // The job the current settings describe, or the reason they are not valid (e.g. identical passwords).
    core::Result<convert::ConvertJob> buildJob() const;
    // Starts the job; false (the reason in the status line) when the settings are not valid or one runs.
    bool startConvert();
    void cancel();
    bool isRunning() const { return m_running; }
    QString statusText() const;
    QString resolutionText() const; // the EDF/BDF resolution note, once computed
    QString estimateText() const;

    // Close while a job runs: the job is cancelled and the dialog hides, closing for good when the job has ended
    // (the UI thread never waits for it).
    void reject() override;

signals:
    void convertFinished(bool ok, const QString& message);
    void resolutionReady();

private:
    QWidget* makeTargetBox();
    QWidget* makeRangeBox();
    QWidget* makeOptionsBox();
    QWidget* makeDeidentifyBox();
    void formatChanged();
    void browseOutput();
    void updateRange();
    void updateEstimate();
    void updateDeidentifyList();
    void scheduleResolution();
    void computeResolution();
    void onFinished(const convert::JobResult& result, const QString& output);
    void loadSettings();
    void saveSettings() const;
    std::optional<core::TimeRange> chosenRange(QString* problem = nullptr) const;

    ConvertSource m_source;
    QThreadPool m_pool;
    JobTracker m_jobs; // lane 0: the conversion, lane 1: the resolution check
    QComboBox* m_format;
    QComboBox* m_montage;
    QLineEdit* m_output;
    ConvertChannelTable* m_channels;
    QComboBox* m_range;
    QLineEdit* m_start;
    QLineEdit* m_end;
    QLabel* m_rangeLabel;
    FormatOptions* m_options;
    QLabel* m_resolution;
    QCheckBox* m_anonymize;
    QLineEdit* m_subjectId;
    QCheckBox* m_shiftDates;
    QLineEdit* m_shiftDays;
    QCheckBox* m_dropText;
    QLabel* m_deidentifyList;
    QLabel* m_estimate;
    QProgressBar* m_progress;
    QLabel* m_status;
    QPushButton* m_convertButton;
    QPushButton* m_cancelButton;
    QTimer* m_poll;
    QTimer* m_resolutionTimer;
    QString m_lastFormat;
    QString m_defaultOutput; // the name the dialog chose (replaced on a format change until the user edits it)
    bool m_running = false;
    bool m_interactive = true;
    bool m_closeWhenDone = false;
};

} // namespace lv::widgets
