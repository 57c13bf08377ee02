// The job's thread runs below the UI thread; progress is polled ten times a second, never pushed per block.
#include "BackgroundJob.h"

#include "ThreadPriority.h"

#include <QMetaObject>
#include <QProgressDialog>
#include <QTimer>

namespace lv::widgets {

BackgroundJob::BackgroundJob(QObject* parent)
    : QObject(parent)
    , m_cancel(std::make_shared<core::CancelToken>())
    , m_fraction(std::make_shared<std::atomic<double>>(0.0))
    , m_poll(new QTimer(this))
{
    m_pool.setMaxThreadCount(1);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (m_progress) m_progress->setValue(static_cast<int>(m_fraction->load() * 1000));
    });
}

BackgroundJob::~BackgroundJob()
{
    m_cancel->cancel();
    m_pool.waitForDone();
}

bool BackgroundJob::start(const QString& label, QWidget* dialogParent, Work work)
{
    if (m_running) return false;
    m_running = true;
    m_cancel = std::make_shared<core::CancelToken>();
    m_fraction->store(0.0);
    if (dialogParent) {
        m_progress = new QProgressDialog(label, tr("Cancel"), 0, 1000, dialogParent);
        m_progress->setAttribute(Qt::WA_DeleteOnClose);
        m_progress->setMinimumDuration(300);
        connect(m_progress, &QProgressDialog::canceled, this, [cancel = m_cancel] { cancel->cancel(); });
    }
    m_poll->start();
    m_pool.start([this, work = std::move(work), cancel = m_cancel, fraction = m_fraction] {
        lowerThisThreadPriority();
        core::ReadControl control;
        control.cancel = cancel.get();
        control.progress = [fraction](std::uint64_t done, std::uint64_t total) {
            if (total) fraction->store(static_cast<double>(done) / static_cast<double>(total));
        };
        const Outcome outcome = work(control);
        QMetaObject::invokeMethod(
            this,
            [this, outcome] {
                m_running = false;
                m_poll->stop();
                if (m_progress) m_progress->close();
                m_progress = nullptr;
                emit finished(outcome.ok, outcome.message);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void BackgroundJob::cancel()
{
    if (m_running) m_cancel->cancel();
}

} // namespace lv::widgets
