// One long job at a time (export, convert, merge) on a low-priority thread: progress polled from an atomic into an
// optional progress dialog with Cancel, the outcome posted back to the UI thread.
#pragma once

#include "JobTracker.h"

#include "core/Recording.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <functional>

class QProgressDialog;
class QTimer;
class QWidget;

namespace lv::widgets {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    struct Outcome {
        bool ok = false;
        QString message;
    };
    // Runs on the job's thread; reports progress and sees Cancel through `control`.
    using Work = std::function<Outcome(core::ReadControl& control)>;

    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override; // cancels a running job and waits for it

    // Starts `work` unless a job runs (false then). With a `dialogParent`, a progress dialog saying `label`, with
    // Cancel, shows after 300 ms; `finished` follows on this object's thread.
    bool start(const QString& label, QWidget* dialogParent, Work work);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void finished(bool ok, const QString& message);

private:
    QThreadPool m_pool;
    JobTracker m_jobs; // after the pool: stops before the pool goes
    QProgressDialog* m_progress = nullptr;
    QTimer* m_poll;
    bool m_running = false;
};

} // namespace lv::widgets
