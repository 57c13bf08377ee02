// File > Merge...: pick recordings (buttons or drop), an output and its format, and write the merge
// (convert::MergedRecording through the CSV, MEF or EDF/BDF writer) on a background thread with progress and Cancel.
#pragma once

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace lv::widgets {

class BackgroundJob;

class MergeDialog : public QDialog {
    Q_OBJECT
public:
    explicit MergeDialog(QWidget* parent = nullptr);
    ~MergeDialog() override; // cancels a running merge and waits for it

    // Files or folders (a .mefd folder is one recording) appended to the list; duplicates are skipped.
    void addInputs(const QStringList& paths);
    QStringList inputs() const;
    // The output path; its extension (.mefd, .edf, .bdf, .csv) selects the format, else the format chosen adds one.
    void setOutput(const QString& path);
    QString output() const;
    void setInteractive(bool on) { m_interactive = on; } // false: no message boxes or progress dialog (tests)

    // Writes the merge in the background; false (with a message in the status line) when it cannot start.
    bool startMerge();
    void cancel();
    bool isRunning() const;

signals:
    void mergeFinished(bool ok, const QString& message);

private:
    void addFiles();
    void addFolder();
    void removeSelected();
    void browseOutput();
    void formatChanged();
    void onFinished(bool ok, const QString& message);
    void updateButtons();

    QListWidget* m_list;
    QPushButton* m_remove;
    QLineEdit* m_output;
    QComboBox* m_format;
    QLineEdit* m_password;
    QLabel* m_status;
    QPushButton* m_mergeButton;
    BackgroundJob* m_job;
    bool m_interactive = true;
};

} // namespace lv::widgets
