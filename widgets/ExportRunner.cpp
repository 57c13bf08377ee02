// The export is a BackgroundJob: one low-priority thread, progress polled, Cancel.
#include "ExportRunner.h"

#include "BackgroundJob.h"

#include "common/ErrorText.h"
#include "convert/CsvExport.h"
#include "convert/MefExport.h"
#include "view/ViewSession.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace lv::widgets {

ExportRunner::ExportRunner(QWidget* parent) : QObject(parent), m_parent(parent), m_job(new BackgroundJob(this))
{
    connect(m_job, &BackgroundJob::finished, this, &ExportRunner::finished);
}

bool ExportRunner::isRunning() const { return m_job->isRunning(); }

void ExportRunner::start(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels,
                         core::TimeRange page)
{
    if (isRunning() || !session) return;
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
    connect(
        this, &ExportRunner::finished, this,
        [this](bool ok, const QString& message) {
            if (ok)
                QMessageBox::information(m_parent, tr("Export/Convert"), message);
            else
                QMessageBox::warning(m_parent, tr("Export/Convert"), message);
        },
        Qt::SingleShotConnection);
    run(std::move(session), std::move(channels), range, path, m_parent);
}

void ExportRunner::run(std::shared_ptr<view::ViewSession> session, std::vector<std::size_t> channels,
                       core::TimeRange range, const QString& target, QWidget* progressParent)
{
    m_job->start(tr("Writing %1").arg(target), progressParent,
                 [session, channels, range, target](core::ReadControl& control) -> BackgroundJob::Outcome {
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
                     if (!status)
                         return {false, QString::fromStdString(app::errorText(status.error(), app::Audience::Gui))};
                     return {true, tr("Wrote %1").arg(target)};
                 });
}

} // namespace lv::widgets
