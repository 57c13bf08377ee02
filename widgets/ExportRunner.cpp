// The export runs on one low-priority thread; progress is polled from an atomic, never pushed per block.
#include "ExportRunner.h"

#include "ThreadPriority.h"

#include "common/ErrorText.h"
#include "convert/CsvExport.h"
#include "convert/MefExport.h"
#include "view/ViewSession.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QMetaObject>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>

namespace lv::widgets {

ExportRunner::ExportRunner(QWidget* parent)
    : QObject(parent)
    , m_parent(parent)
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

ExportRunner::~ExportRunner()
{
    m_cancel->cancel();
    m_pool.waitForDone();
}

void ExportRunner::start(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels,
                         core::TimeRange page)
{
    if (m_running || !session) return;
    QString filter;
    const QString target = QFileDialog::getSaveFileName(m_parent, tr("Export/Convert"), QString(),
                                                        tr("CSV table (*.csv);;MEF 3.0 session (*.mefd)"), &filter);
    if (target.isEmpty()) return;
    QMessageBox ask(QMessageBox::Question, tr("Export/Convert"),
                    tr("Export the %1 shown channel(s) over:").arg(channels.size()), QMessageBox::Cancel, m_parent);
    QPushButton* pageButton = ask.addButton(tr("The Page Shown"), QMessageBox::AcceptRole);
    QPushButton* allButton = ask.addButton(tr("The Whole Recording"), QMessageBox::AcceptRole);
    ask.exec();
    if (ask.clickedButton() != pageButton && ask.clickedButton() != allButton) return;
    const core::TimeRange range =
        ask.clickedButton() == pageButton ? page : core::TimeRange{session->info().start, session->info().end};
    QString path = target;
    if (!path.endsWith(".csv") && !path.endsWith(".mefd")) path += filter.contains("csv") ? ".csv" : ".mefd";
    m_progress = new QProgressDialog(tr("Writing %1").arg(path), tr("Cancel"), 0, 1000, m_parent);
    m_progress->setAttribute(Qt::WA_DeleteOnClose);
    m_progress->setMinimumDuration(300);
    connect(m_progress, &QProgressDialog::canceled, this, [cancel = m_cancel] { cancel->cancel(); });
    connect(this, &ExportRunner::finished, m_progress, &QWidget::close, Qt::SingleShotConnection);
    connect(
        this, &ExportRunner::finished, this,
        [this](bool ok, const QString& message) {
            if (ok)
                QMessageBox::information(m_parent, tr("Export/Convert"), message);
            else
                QMessageBox::warning(m_parent, tr("Export/Convert"), message);
        },
        Qt::SingleShotConnection);
    run(std::move(session), std::move(channels), range, path);
}

void ExportRunner::run(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels,
                       core::TimeRange range, const QString& target)
{
    m_running = true;
    m_cancel = std::make_shared<core::CancelToken>();
    m_fraction->store(0.0);
    m_poll->start();
    m_pool.start([this, session, channels, range, target, cancel = m_cancel, fraction = m_fraction] {
        lowerThisThreadPriority();
        core::ReadControl control;
        control.cancel = cancel.get();
        control.progress = [fraction](std::uint64_t done, std::uint64_t total) {
            if (total) fraction->store(static_cast<double>(done) / static_cast<double>(total));
        };
        core::Status status;
        if (target.endsWith(".csv")) {
            convert::CsvOptions options;
            options.channels = channels;
            options.range = range;
            status = convert::exportCsv(session->recording(), options, target.toStdString(), control);
        } else {
            convert::MefExportOptions options;
            options.channels = channels;
            options.range = range;
            status = convert::exportMef(session->recording(), options, target.toStdString(), control);
        }
        const bool ok = status.ok();
        const QString message =
            ok ? tr("Wrote %1").arg(target) : QString::fromStdString(app::errorText(status.error()));
        QMetaObject::invokeMethod(
            this,
            [this, ok, message] {
                m_running = false;
                m_poll->stop();
                m_progress = nullptr;
                emit finished(ok, message);
            },
            Qt::QueuedConnection);
    });
}

} // namespace lv::widgets
