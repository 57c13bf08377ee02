// A JobTracker runs the job below the UI thread; progress is polled ten times a second, never pushed per block.
#include "BackgroundJob.h"

#include <QMetaObject>
#include <QProgressDialog>
#include <QTimer>

namespace lv::widgets {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent), m_jobs(this, &m_pool), m_poll(new QTimer(this))
{
    m_pool.setMaxThreadCount(1);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_progress) m_progress->setValue(static_cast<int>(m_jobs.progress() * 1000));
    });
}

BackgroundJob::~BackgroundJob()
{
    m_jobs.stop(); // the running job sees its token set; its outcome is dropped
    m_pool.waitForDone();
}

bool BackgroundJob::start(const QString& label, QWidget* dialogParent, Work work)
{
    if (m_running) return false;
    m_running = true;
    const Job job = m_jobs.run(
        0,
        [work = std::move(work)](const Job& job) {
            core::ReadControl control;
            control.cancel = &job.cancelToken();
            control.progress = [job](std::uint64_t done, std::uint64_t total) {
                if (total) job.setProgress(static_cast<double>(done) / static_cast<double>(total));
            };
            return work(control);
        },
        [this](const Outcome& outcome) {
            m_running = false;
            m_poll->stop();
            if (m_progress) m_progress->close();
            m_progress = nullptr;
            emit finished(outcome.ok, outcome.message);
        });
    if (dialogParent) {
        m_progress = new QProgressDialog(label, tr("Cancel"), 0, 1000, dialogParent);
        m_progress->setAttribute(Qt::WA_DeleteOnClose);
        m_progress->setMinimumDuration(300);
        connect(m_progress, &QProgressDialog::canceled, this, [this, id = job.id()] {
            if (m_jobs.currentId() == id) m_jobs.cancel();
        });
    }
    m_poll->start();
    return true;
}

void BackgroundJob::cancel()
{
    if (m_running) m_jobs.cancel();
}

} // namespace lv::widgets
