// File > Merge...: pick recordings (buttons or drop; reordered by drag), the mode (concatenate or stack) and the
// overlap policy, see the merged time line (the engine's dry run, planned in the background), and write the merge
// as one engine job (the same as longview-cli merge) with progress and Cancel.
#pragma once

#include "JobTracker.h"

#include "convert/MergeTimeline.h"

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTimer;

namespace lv::widgets {

class BackgroundJob;
class MergePreview;

class MergeDialog : public QDialog {
    Q_OBJECT
public:
    explicit MergeDialog(QWidget* parent = nullptr);
    ~MergeDialog() override; // cancels a running merge and waits for it; a plan on its way is dropped, not waited for

    // Files or folders (a .mefd folder is one recording) appended to the list; duplicates are skipped.
    void addInputs(const QStringList& paths);
    QStringList inputs() const;
    void moveInput(int from, int to); // as a drag in the list does
    // The output path; its extension (.mefd, .edf, .bdf, .csv) selects the format, else the format chosen adds one.
    void setOutput(const QString& path);
    QString output() const;
    void setMode(convert::MergeMode mode);
    void setOverlapPolicy(convert::OverlapPolicy policy); // concatenation only
    convert::MergeOptions options() const;                // what the combos say (stack: OverlapPolicy::Error)
    void setInteractive(bool on) { m_interactive = on; }  // false: no message boxes or progress dialog (tests)

    MergePreview* preview() const { return m_preview; }
    bool isPlanning() const { return m_planning; }
    bool canMerge() const; // the Merge button: inputs, an output, a plan without error, nothing running
    QString statusText() const;

    // Writes the merge in the background; false (with a message in the status line) when it cannot start.
    bool startMerge();
    void cancel();
    bool isRunning() const;

signals:
    void mergeFinished(bool ok, const QString& message);
    void planShown(); // the preview shows the plan of the current inputs and options (or why there is none)

private:
    void addFiles();
    void addFolder();
    void removeSelected();
    void browseOutput();
    void formatChanged();
    void modeChanged();
    void replan(); // the inputs, their order, the mode or the policy changed: plan again in the background
    void plan();   // the dry run of what the dialog says now, on the plan lane
    void showPlan(const core::Result<convert::MergeTimeline>& plan);
    void onFinished(bool ok, const QString& message);
    void updateButtons();

    QListWidget* m_list;
    QPushButton* m_remove;
    QComboBox* m_mode;
    QComboBox* m_overlap;
    MergePreview* m_preview;
    QLineEdit* m_output;
    QComboBox* m_format;
    QLineEdit* m_password;
    QLabel* m_status;
    QPushButton* m_mergeButton;
    BackgroundJob* m_job;
    JobTracker m_plans; // dry runs, on the background pool (a plan cannot be cancelled: closing never waits for one)
    QTimer* m_replanTimer;
    bool m_planning = false;
    bool m_planOk = false;
    bool m_interactive = true;
};

} // namespace lv::widgets
