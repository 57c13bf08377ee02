// View > Conversion Queue: recordings dropped on it, Ctrl+dropped on the window or added (files or folders, found
// as `longview-cli batch` finds them) become rows (input, target, status, progress bar, elapsed, output) converted
// side by side by the engine's queue (convert::runJobs: within the memory budget, one cancel token per job) on a
// JobTracker job, with the Convert dialog's format options; Cancel and Retry (the selected rows), Clear; a
// double-click opens a row's output in the viewer (a CSV's folder in the file manager).
#pragma once

#include "JobTracker.h"

#include "convert/Targets.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QThreadPool>
#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

class QComboBox;
class QDialog;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lv::widgets {

class ConversionQueue : public QWidget {
    Q_OBJECT
public:
    enum class Status { Queued, Running, Done, Failed, Cancelled };

    explicit ConversionQueue(QWidget* parent = nullptr);
    ~ConversionQueue() override; // cancels the running jobs and waits for them (the window is closing)

    void setFormat(const QString& extension); // "mefd", "edf", "bdf", "csv"
    void setOutputFolder(const QString& folder);
    void setSideBySide(int jobs);
    // The writers' options of the queue's jobs (gap policy, CSV and MEF options), as the Convert dialog sets them.
    void setTargetOptions(const convert::TargetOptions& options) { m_options = options; }
    const convert::TargetOptions& targetOptions() const { return m_options; }
    // Options...: the Convert dialog's option pages for the queue's format (window-modal, opened, not waited for);
    // OK sets the queue's options (remembered per format, passwords never).
    QDialog* openOptions();
    // Finds the recordings under `paths` in the background (as `batch` does), then adds a row for each.
    void addInputs(const QStringList& paths);
    bool start();            // runs the queued rows; false when nothing is queued or a run is going
    void cancel();           // the selected rows of the run (all of them when none of them is selected)
    void cancelRow(int row); // a running or waiting row alone; the others go on
    void cancelAll();        // every row of the run (closing the window)
    void retry();            // the selected failed and cancelled rows queued again (all of them when none is selected)
    void selectRow(int row);
    void clearFinished();
    bool isRunning() const { return m_running; }
    int unfinishedCount() const; // rows of the current run not ended yet

    int rowCount() const;
    Status status(int row) const;
    QString output(int row) const;
    QString message(int row) const; // the error of a failed row

signals:
    void inputsAdded(int rows);
    void runFinished();
    void openRequested(const QString& path); // a finished row double-clicked (a CSV's folder opens instead)

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Row {
        QString input, output, error;
        Status status = Status::Queued;
        double elapsed = 0;
        int percent = 0;
    };
    void showRow(int row);
    void updateButtons();
    void openOutput(int row);

    QThreadPool m_pool;
    JobTracker m_jobs; // lane 0: the run; lane 1: finding inputs
    QComboBox* m_format;
    QLineEdit* m_folder;
    QSpinBox* m_sideBySide;
    QTableWidget* m_table;
    QPushButton* m_startButton;
    QPushButton* m_cancelButton;
    QPushButton* m_retryButton;
    QPushButton* m_clearButton;
    QLabel* m_status;
    QTimer* m_poll;
    std::vector<Row> m_rows;
    std::vector<int> m_runRows;                                  // rows of the current run, by job index
    std::shared_ptr<std::vector<std::atomic<int>>> m_progress;   // per job of the run, in per mille
    std::shared_ptr<std::vector<core::CancelToken>> m_jobCancel; // per job of the run
    std::vector<double> m_startedAt;                             // per job: seconds of the run's clock, -1: not yet
    QElapsedTimer m_clock;
    convert::TargetOptions m_options;
    bool m_running = false;
};

} // namespace lv::widgets
