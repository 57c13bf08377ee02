// The Convert dialog's background work: the conversion (lane 0), the EDF/BDF resolution check (lane 1), the
// estimate, the de-identification choices and what they remove, and the summary of what was written.
#include "ConvertChannelTable.h"
#include "ConvertDialog.h"
#include "FormatOptions.h"

#include "common/ErrorText.h"
#include "convert/EdfResolution.h"
#include "convert/OutputEstimate.h"
#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace lv::widgets {

namespace {

QString bytesText(std::uint64_t bytes)
{
    const double b = static_cast<double>(bytes);
    if (b >= 1e9) return QObject::tr("%1 GB").arg(b / 1e9, 0, 'f', 1);
    if (b >= 1e6) return QObject::tr("%1 MB").arg(b / 1e6, 0, 'f', 1);
    if (b >= 1e3) return QObject::tr("%1 kB").arg(b / 1e3, 0, 'f', 0);
    return QObject::tr("%1 bytes").arg(bytes);
}

QString secondsText(double seconds)
{
    if (seconds < 1) return QObject::tr("under 1 s");
    if (seconds < 90) return QObject::tr("about %1 s").arg(seconds, 0, 'f', 0);
    return QObject::tr("about %1 min").arg(seconds / 60, 0, 'f', 1);
}

// "cancelled; nothing was written", or the error as the GUI words it.
QString failureText(const core::Error& error)
{
    return QString::fromStdString(app::jobFailureText(error, app::Audience::Gui));
}

} // namespace

QString ConvertDialog::statusText() const { return m_status->text(); }
QString ConvertDialog::resolutionText() const { return m_resolution->text(); }
QString ConvertDialog::estimateText() const { return m_estimate->text(); }

void ConvertDialog::updateEstimate()
{
    const auto range = chosenRange();
    if (!range) return m_estimate->clear();
    const convert::Selection selection{m_channels->checkedChannels(), *range};
    const auto threads = static_cast<std::size_t>(QThread::idealThreadCount());
    const convert::OutputEstimate e =
        convert::estimateOutput(format().toStdString(), m_source.info, selection, threads);
    m_estimate->setText(tr("Estimate: %1 samples, about %2, %3 on %4 threads (measured rates, bench/README.md; "
                           "MEF and CSV sizes depend on the data).")
                            .arg(e.samples)
                            .arg(bytesText(e.bytes), secondsText(e.seconds))
                            .arg(threads));
}

QWidget* ConvertDialog::makeDeidentifyBox()
{
    auto* box = new QGroupBox(tr("De-identification"));
    m_anonymize = new QCheckBox(tr("Anonymize"));
    m_anonymize->setObjectName("anonymize");
    m_subjectId = new QLineEdit;
    m_subjectId->setObjectName("subjectId");
    m_subjectId->setPlaceholderText(tr("subject ID (empty: a random sub-xxxxxxxx)"));
    m_shiftDates = new QCheckBox(tr("Shift dates by"));
    m_shiftDates->setObjectName("shiftDates");
    m_shiftDays = new QLineEdit;
    m_shiftDays->setObjectName("shiftDays");
    m_shiftDays->setPlaceholderText(tr("days, e.g. -400 (empty: 365-3650 back at random)"));
    m_shiftDays->setValidator(new QIntValidator(-static_cast<int>(convert::kMaxShiftDays),
                                                static_cast<int>(convert::kMaxShiftDays), m_shiftDays));
    m_dropText = new QCheckBox(tr("Drop annotation texts"));
    m_dropText->setObjectName("dropText");
    m_deidentifyList = new QLabel;
    m_deidentifyList->setObjectName("deidentifyList");
    m_deidentifyList->setWordWrap(true);
    auto* shiftRow = new QHBoxLayout;
    shiftRow->addWidget(m_shiftDates);
    shiftRow->addWidget(m_shiftDays, 1);
    auto* layout = new QVBoxLayout(box);
    auto* anonRow = new QHBoxLayout;
    anonRow->addWidget(m_anonymize);
    anonRow->addWidget(m_subjectId, 1);
    layout->addLayout(anonRow);
    layout->addLayout(shiftRow);
    layout->addWidget(m_dropText);
    layout->addWidget(m_deidentifyList);
    for (QCheckBox* c : {m_anonymize, m_shiftDates, m_dropText})
        connect(c, &QCheckBox::toggled, this, &ConvertDialog::updateDeidentifyList);
    connect(m_subjectId, &QLineEdit::textChanged, this, &ConvertDialog::updateDeidentifyList);
    connect(m_shiftDays, &QLineEdit::textChanged, this, &ConvertDialog::updateDeidentifyList);
    return box;
}

void ConvertDialog::updateDeidentifyList()
{
    QStringList gone;
    const QString id = m_subjectId->text().trimmed();
    if (m_anonymize->isChecked())
        gone << tr("the subject's name, sex and birth date; the site, descriptions and source paths (the subject "
                   "ID becomes %1)")
                    .arg(id.isEmpty() ? tr("a random sub-xxxxxxxx") : id);
    else if (!id.isEmpty())
        gone << tr("the subject ID (becomes %1)").arg(id);
    if (m_shiftDates->isChecked())
        gone << (m_shiftDays->text().trimmed().isEmpty()
                     ? tr("the true dates (moved 365-3650 days back, at random)")
                     : tr("the true dates (moved %1 days)").arg(m_shiftDays->text().trimmed()));
    if (m_dropText->isChecked()) gone << tr("annotation texts (types and times kept)");
    m_deidentifyList->setText(gone.isEmpty() ? tr("Nothing is removed.") : tr("Removes: ") + gone.join("; ") + ".");
}

void ConvertDialog::scheduleResolution()
{
    const QString ext = format();
    if (ext != "edf" && ext != "bdf") return m_jobs.drop(1);
    m_resolution->setText(tr("Checking the resolution EDF+ keeps..."));
    m_resolutionTimer->start();
}

void ConvertDialog::computeResolution()
{
    const auto range = chosenRange();
    const std::vector<std::size_t> channels = m_channels->checkedChannels();
    if (!range || channels.empty()) return m_resolution->clear();
    convert::EdfExportOptions options;
    options.channels = channels;
    options.range = *range;
    options.gaps = m_options->gaps();
    options.fillValue = m_options->fillValue();
    const formats::OpenRequest open{m_source.path.toStdString(), m_source.password.toStdString(), {}, false};
    m_jobs.run(
        1,
        [open, options](const Job& job) -> core::Result<std::vector<convert::EdfResolution>> {
            auto recording = formats::openRecording(open);
            if (!recording) return recording.error();
            core::ReadControl control;
            control.cancel = &job.cancelToken();
            return convert::edfResolution(**recording, options, control);
        },
        [this](const core::Result<std::vector<convert::EdfResolution>>& result) {
            if (!result) {
                m_resolution->setText(failureText(result.error()));
                return emit resolutionReady();
            }
            QStringList lost;
            for (const convert::EdfResolution& r : *result)
                if (r.edfLoses())
                    lost << tr("%1: steps of %2 %3 against the source's %4 %3 (%5 times coarser)")
                                .arg(QString::fromStdString(r.channel))
                                .arg(r.edfStep, 0, 'g', 4)
                                .arg(QString::fromStdString(r.unit))
                                .arg(r.sourceStep, 0, 'g', 4)
                                .arg(r.edfCoarser(), 0, 'f', 1);
            const bool bdfKeeps = std::none_of(result->begin(), result->end(),
                                               [](const convert::EdfResolution& r) { return r.bdfLoses(); });
            if (lost.isEmpty())
                m_resolution->setText(tr("EDF+ (16-bit) keeps every channel at the source's resolution."));
            else if (format() == "bdf")
                m_resolution->setText(tr("EDF+ would lose resolution on %1 channel(s); BDF+ %2.")
                                          .arg(lost.size())
                                          .arg(bdfKeeps ? tr("keeps it") : tr("loses some too")));
            else
                m_resolution->setText(tr("EDF+ (16-bit) loses resolution on %1 channel(s): %2.%3")
                                          .arg(lost.size())
                                          .arg(lost.mid(0, 3).join("; ") + (lost.size() > 3 ? "; ..." : ""))
                                          .arg(bdfKeeps ? tr(" <a href=\"bdf\">Write BDF+ (24-bit)</a> to keep it.")
                                                        : tr(" BDF+ (24-bit) loses less.")));
            emit resolutionReady();
        });
}

bool ConvertDialog::startConvert()
{
    if (m_running) return false;
    auto job = buildJob();
    if (!job) {
        m_status->setText(QString::fromStdString(job.error().message));
        return false;
    }
    saveSettings();
    QSettings().setValue("convert/folder", QFileInfo(output()).absolutePath());
    m_running = true;
    m_convertButton->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_status->setText(tr("Converting to %1...").arg(output()));
    const auto threads = static_cast<std::size_t>(QThread::idealThreadCount());
    m_jobs.run(
        0,
        [job = std::move(*job), threads](const Job& j) {
            decode::ThreadPool pool(threads);
            convert::JobEvents events;
            events.progress = [j](const convert::JobProgress& p) { j.setProgress(p.fraction); };
            return convert::runConvertJob(job, {&pool, &j.cancelToken(), nullptr}, events);
        },
        [this, target = output()](const convert::JobResult& result) { onFinished(result, target); });
    m_poll->start();
    return true;
}

void ConvertDialog::cancel()
{
    if (m_running) m_jobs.cancel(0);
}

void ConvertDialog::reject()
{
    if (!m_running) return QDialog::reject();
    cancel();
    m_closeWhenDone = true;
    hide();
}

void ConvertDialog::onFinished(const convert::JobResult& result, const QString& output)
{
    m_running = false;
    if (m_closeWhenDone) QTimer::singleShot(0, this, [this] { QDialog::reject(); });
    m_poll->stop();
    m_progress->setVisible(false);
    m_convertButton->setEnabled(true);
    m_cancelButton->setEnabled(false);
    if (!result.ok) {
        const QString message = failureText(result.error);
        m_status->setText(message);
        if (m_interactive && !m_closeWhenDone && result.error.code != core::ErrorCode::Cancelled)
            QMessageBox::warning(this, tr("Export/Convert"), message);
        return emit convertFinished(false, message);
    }
    QString html = tr("<b>Wrote</b> (click to show the folder):");
    for (const std::string& file : result.outputs) {
        const QString path = QString::fromStdString(file);
        const QString folder = QUrl::fromLocalFile(QFileInfo(path).absolutePath()).toString();
        html += QString("<br>&nbsp;&nbsp;<a href=\"%1\">%2</a>").arg(folder, path.toHtmlEscaped());
    }
    html += tr("<br>%1 samples and %2 annotations in %3 channel(s), %4 s:")
                .arg(result.samples)
                .arg(result.annotations)
                .arg(result.channels)
                .arg(result.seconds, 0, 'f', 2);
    QStringList rows;
    for (const convert::ChannelCount& c : result.perChannel)
        rows << tr("&nbsp;&nbsp;%1: %2 samples, %3 annotation(s)")
                    .arg(QString::fromStdString(c.name).toHtmlEscaped())
                    .arg(c.samples)
                    .arg(c.annotations);
    html += "<br>" + rows.mid(0, 8).join("<br>") +
            (rows.size() > 8 ? tr("<br>&nbsp;&nbsp;... (%1 more)").arg(rows.size() - 8) : "");
    if (const std::string done = result.deidentified.summary(); !done.empty())
        html += "<br>" + QString::fromStdString(done).toHtmlEscaped();
    for (const std::string& w : result.warnings)
        html += "<br><i>" + tr("warning: ") + QString::fromStdString(w).toHtmlEscaped() + "</i>";
    m_status->setText(html);
    emit convertFinished(true, tr("Wrote %1").arg(output));
}

} // namespace lv::widgets
