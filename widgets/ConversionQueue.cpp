// Finding inputs and the run are background jobs; per-job progress is written to atomics and polled, the start
// and end of each job are posted to the UI thread.
#include "ConversionQueue.h"

#include "FormatOptions.h"
#include "ProgressDelegate.h"

#include "annotations/AnnotationSidecar.h"
#include "common/ErrorText.h"
#include "convert/BatchPlan.h"
#include "convert/JobQueue.h"
#include "convert/Targets.h"
#include "formats/mef3/Snapshot.h"

#include <QComboBox>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>

namespace lv::widgets {

namespace {

enum Column { InputColumn, TargetColumn, StatusColumn, ProgressColumn, ElapsedColumn, OutputColumn, Columns };

QString statusText(ConversionQueue::Status s)
{
    switch (s) {
    case ConversionQueue::Status::Queued:
        return QObject::tr("queued");
    case ConversionQueue::Status::Running:
        return QObject::tr("running");
    case ConversionQueue::Status::Done:
        return QObject::tr("done");
    case ConversionQueue::Status::Failed:
        return QObject::tr("failed");
    case ConversionQueue::Status::Cancelled:
        return QObject::tr("cancelled");
    }
    return {};
}

} // namespace

ConversionQueue::ConversionQueue(QWidget* parent)
    : QWidget(parent)
    , m_jobs(this, &m_pool, 2)
    , m_format(new QComboBox)
    , m_folder(new QLineEdit)
    , m_sideBySide(new QSpinBox)
    , m_table(new QTableWidget(0, Columns))
    , m_status(new QLabel)
    , m_poll(new QTimer(this))
{
    m_pool.setMaxThreadCount(2);
    setAcceptDrops(true);
    for (const convert::TargetFormat& f : convert::targetFormats())
        m_format->addItem(QString::fromStdString(f.description), QString::fromStdString(f.extension));
    m_format->setObjectName("queueFormat");
    QSettings settings;
    setFormat(settings.value("queue/format", "mefd").toString());
    m_folder->setText(settings.value("queue/folder").toString());
    m_folder->setPlaceholderText(tr("output folder"));
    m_sideBySide->setRange(1, 16);
    m_sideBySide->setValue(settings.value("queue/jobs", 1).toInt());
    m_sideBySide->setToolTip(tr("Conversions side by side (within half the machine's memory)"));
    auto* browse = new QPushButton(tr("Folder..."));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder"), m_folder->text());
        if (!dir.isEmpty()) setOutputFolder(dir);
    });
    auto* options = new QPushButton(tr("Options..."));
    options->setObjectName("queueOptions");
    options->setToolTip(tr("The format's options (gaps, CSV time and delimiter, MEF block length and passwords), "
                           "as in the Convert dialog"));
    connect(options, &QPushButton::clicked, this, &ConversionQueue::openOptions);
    auto* add = new QPushButton(tr("Add..."));
    connect(add, &QPushButton::clicked, this,
            [this] { addInputs(QFileDialog::getOpenFileNames(this, tr("Add recordings"))); });
    m_startButton = new QPushButton(tr("Start"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setToolTip(
        tr("Cancel the selected rows (all of them when none is selected); cancelled conversions leave nothing"));
    m_retryButton = new QPushButton(tr("Retry"));
    m_retryButton->setToolTip(
        tr("Queue the selected failed or cancelled rows again (all of them when none is selected)"));
    m_clearButton = new QPushButton(tr("Clear"));
    m_clearButton->setToolTip(tr("Remove the finished rows"));
    connect(m_startButton, &QPushButton::clicked, this, &ConversionQueue::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &ConversionQueue::cancel);
    connect(m_retryButton, &QPushButton::clicked, this, &ConversionQueue::retry);
    connect(m_clearButton, &QPushButton::clicked, this, &ConversionQueue::clearFinished);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("To:")));
    top->addWidget(m_format);
    top->addWidget(m_folder, 1);
    top->addWidget(browse);
    top->addWidget(options);
    top->addWidget(new QLabel(tr("Side by side:")));
    top->addWidget(m_sideBySide);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add, m_startButton, m_cancelButton, m_retryButton, m_clearButton}) buttons->addWidget(b);
    buttons->addStretch();
    m_table->setHorizontalHeaderLabels(
        {tr("Input"), tr("Target"), tr("Status"), tr("Progress"), tr("Elapsed"), tr("Output")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setItemDelegateForColumn(ProgressColumn, new ProgressDelegate(m_table));
    for (int c : {TargetColumn, StatusColumn, ElapsedColumn})
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->resizeSection(ProgressColumn, 110);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { openOutput(row); });
    m_status->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    m_poll->setInterval(200);
    connect(m_poll, &QTimer::timeout, this, [this] {
        for (std::size_t j = 0; j < m_runRows.size(); ++j) {
            Row& row = m_rows[static_cast<std::size_t>(m_runRows[j])];
            if (row.status != Status::Running) continue;
            row.percent = (*m_progress)[j].load() / 10;
            row.elapsed = m_clock.elapsed() / 1000.0 - m_startedAt[j];
            showRow(m_runRows[j]);
        }
    });
    const auto formatChanged = [this] { // that format's remembered options (the passwords kept)
        const QString ext = m_format->currentData().toString();
        QSettings s;
        s.setValue("queue/format", ext);
        s.beginGroup("queue/" + ext);
        m_options = FormatOptions::loadOptions(s, m_options);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, formatChanged);
    formatChanged();
    connect(m_sideBySide, &QSpinBox::valueChanged, this, [](int n) { QSettings().setValue("queue/jobs", n); });
    updateButtons();
}

ConversionQueue::~ConversionQueue()
{
    if (m_jobCancel)
        for (core::CancelToken& t : *m_jobCancel) t.cancel(); // running jobs watch their own tokens
    m_jobs.stop();
    m_pool.waitForDone();
}

void ConversionQueue::setFormat(const QString& extension)
{
    const int i = m_format->findData(extension);
    if (i >= 0) m_format->setCurrentIndex(i);
}

void ConversionQueue::setOutputFolder(const QString& folder)
{
    m_folder->setText(folder);
    QSettings().setValue("queue/folder", folder);
}

QDialog* ConversionQueue::openOptions()
{
    const QString ext = m_format->currentData().toString();
    auto* dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Queue Options: %1").arg(m_format->currentText()));
    auto* options = new FormatOptions;
    options->setFormat(ext);
    options->setTargetOptions(m_options);
    options->setPasswords(QString::fromStdString(m_options.level1Password),
                          QString::fromStdString(m_options.level2Password));
    auto* problem = new QLabel;
    problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* box = new QGroupBox(tr("Format options (.%1), for every row of the queue").arg(ext));
    (new QVBoxLayout(box))->addWidget(options);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(box);
    layout->addWidget(problem);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, options, problem, ext] {
        const auto chosen = options->targetOptions(ext, m_options);
        if (!chosen) return problem->setText(QString::fromStdString(chosen.error().message));
        m_options = *chosen;
        QSettings s;
        s.beginGroup("queue/" + ext);
        FormatOptions::saveOptions(s, ext, m_options);
        dialog->accept();
    });
    dialog->adjustSize();
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

void ConversionQueue::setSideBySide(int jobs) { m_sideBySide->setValue(jobs); }

void ConversionQueue::addInputs(const QStringList& paths)
{
    if (paths.isEmpty()) return;
    if (m_folder->text().trimmed().isEmpty()) setOutputFolder(QFileInfo(paths.front()).absolutePath() + "/converted");
    std::vector<std::string> inputs;
    for (const QString& p : paths) inputs.push_back(p.toStdString());
    const std::string folder = m_folder->text().trimmed().toStdString();
    const std::string ext = m_format->currentData().toString().toStdString();
    m_status->setText(tr("Looking for recordings..."));
    m_jobs.run(
        1, [inputs, folder, ext](const Job&) { return convert::planBatch(inputs, folder, ext); },
        [this](const core::Result<std::vector<convert::BatchItem>>& plan) {
            if (!plan) {
                m_status->setText(QString::fromStdString(app::errorText(plan.error(), app::Audience::Gui)));
                return emit inputsAdded(0);
            }
            for (const convert::BatchItem& item : *plan) {
                m_rows.push_back({QString::fromStdString(item.input), QString::fromStdString(item.output), {}});
                m_table->insertRow(m_table->rowCount());
                showRow(static_cast<int>(m_rows.size()) - 1);
            }
            m_table->resizeColumnToContents(InputColumn);
            m_status->setText(tr("%1 recording(s) added").arg(plan->size()));
            updateButtons();
            emit inputsAdded(static_cast<int>(plan->size()));
        });
}

bool ConversionQueue::start()
{
    if (m_running) return false;
    std::vector<convert::ConvertJob> jobs;
    m_runRows.clear();
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].status != Status::Queued) continue;
        convert::ConvertJob job;
        job.inputs = {m_rows[r].input.toStdString()};
        job.output = m_rows[r].output.toStdString();
        job.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
        job.annotationDirectory = annotations::defaultDataDirectory();
        job.target = m_options;
        jobs.push_back(std::move(job));
        m_runRows.push_back(static_cast<int>(r));
    }
    if (jobs.empty()) return false;
    m_running = true;
    m_progress = std::make_shared<std::vector<std::atomic<int>>>(jobs.size());
    m_jobCancel = std::make_shared<std::vector<core::CancelToken>>(jobs.size());
    m_startedAt.assign(jobs.size(), 0.0);
    m_clock.start();
    const convert::QueueOptions options{static_cast<std::size_t>(m_sideBySide->value()),
                                        static_cast<std::size_t>(QThread::idealThreadCount()), nullptr, 0, nullptr};
    m_jobs.start(0, [this, jobs = std::move(jobs), options, progress = m_progress,
                     tokens = m_jobCancel](const Job& job) mutable {
        convert::QueueOptions o = options;
        o.cancel = &job.cancelToken();
        o.jobCancel = tokens.get();
        // As batch does, the outputs' folders are made first (a failure is its job's); those this run made go
        // again at its end if they are empty (cancelled and failed jobs leave nothing).
        std::vector<std::filesystem::path> made;
        for (const convert::ConvertJob& j : jobs) {
            std::error_code ec;
            for (auto p = std::filesystem::path(j.output).parent_path(); !p.empty() && !std::filesystem::exists(p, ec);
                 p = p.parent_path())
                made.push_back(p);
            std::filesystem::create_directories(std::filesystem::path(j.output).parent_path(), ec);
        }
        convert::QueueEvents events;
        events.started = [this, job](std::size_t i) {
            job.post([this, i] {
                m_startedAt[i] = m_clock.elapsed() / 1000.0;
                Row& row = m_rows[static_cast<std::size_t>(m_runRows[i])];
                row.status = Status::Running;
                showRow(m_runRows[i]);
            });
        };
        events.progress = [progress](std::size_t i, const convert::JobProgress& p) {
            (*progress)[i].store(static_cast<int>(p.fraction * 1000));
        };
        events.finished = [this, job](std::size_t i, const convert::JobResult& result) {
            job.post([this, i, seconds = result.seconds, ok = result.ok,
                      cancelled = result.error.code == core::ErrorCode::Cancelled,
                      error = QString::fromStdString(app::errorText(result.error, app::Audience::Gui))] {
                Row& row = m_rows[static_cast<std::size_t>(m_runRows[i])];
                row.status = ok ? Status::Done : cancelled ? Status::Cancelled : Status::Failed;
                row.error = ok || cancelled ? QString() : error;
                if (ok) row.percent = 100;
                row.elapsed = seconds; // the job's own time
                showRow(m_runRows[i]);
            });
        };
        const std::vector<convert::JobResult> results = convert::runJobs(jobs, o, events);
        std::sort(made.begin(), made.end(), [](const auto& a, const auto& b) { return a.native() > b.native(); });
        for (const std::filesystem::path& p : made) { // deepest first; a folder with anything in it stays
            std::error_code ec;
            std::filesystem::remove(p, ec);
        }
        std::vector<bool> notStarted; // cancelled before they started: no finished event came
        for (const convert::JobResult& r : results)
            notStarted.push_back(!r.ok && r.error.code == core::ErrorCode::Cancelled && r.seconds == 0);
        job.post([this, notStarted] {
            for (std::size_t i = 0; i < notStarted.size(); ++i) {
                Row& row = m_rows[static_cast<std::size_t>(m_runRows[i])];
                if (notStarted[i] && row.status == Status::Queued)
                    row.status = Status::Cancelled, showRow(m_runRows[i]);
            }
            m_running = false;
            m_poll->stop();
            int done = 0, failed = 0;
            for (int r : m_runRows) {
                done += m_rows[static_cast<std::size_t>(r)].status == Status::Done;
                failed += m_rows[static_cast<std::size_t>(r)].status == Status::Failed;
            }
            m_status->setText(tr("%1 converted, %2 failed").arg(done).arg(failed));
            updateButtons();
            emit runFinished();
        });
    });
    m_poll->start();
    m_status->setText(tr("Converting %1 recording(s)...").arg(m_runRows.size()));
    updateButtons();
    return true;
}

void ConversionQueue::cancel()
{
    if (!m_running) return;
    bool some = false;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const Status s = m_rows[static_cast<std::size_t>(index.row())].status;
        if (s != Status::Running && s != Status::Queued) continue;
        cancelRow(index.row());
        some = true;
    }
    if (!some) cancelAll();
}

void ConversionQueue::cancelAll()
{
    if (!m_running) return;
    for (core::CancelToken& t : *m_jobCancel) t.cancel(); // the running jobs watch their own tokens
    m_jobs.cancel(0);                                     // and none starts
}

void ConversionQueue::cancelRow(int row)
{
    if (!m_running) return;
    const auto j = std::find(m_runRows.begin(), m_runRows.end(), row);
    if (j != m_runRows.end()) (*m_jobCancel)[static_cast<std::size_t>(j - m_runRows.begin())].cancel();
}

void ConversionQueue::retry()
{
    if (m_running) return;
    std::vector<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) rows.push_back(index.row());
    if (rows.empty())
        for (int r = 0; r < rowCount(); ++r) rows.push_back(r);
    for (int r : rows) {
        Row& row = m_rows[static_cast<std::size_t>(r)];
        if (row.status == Status::Failed || row.status == Status::Cancelled) {
            row = {row.input, row.output, {}};
            showRow(r);
        }
    }
    updateButtons();
}

void ConversionQueue::selectRow(int row) { m_table->selectRow(row); }

int ConversionQueue::unfinishedCount() const
{
    if (!m_running) return 0;
    return static_cast<int>(std::count_if(m_runRows.begin(), m_runRows.end(), [this](int r) {
        const Status s = m_rows[static_cast<std::size_t>(r)].status;
        return s == Status::Queued || s == Status::Running;
    }));
}

void ConversionQueue::clearFinished()
{
    if (m_running) return;
    for (int r = static_cast<int>(m_rows.size()) - 1; r >= 0; --r)
        if (m_rows[static_cast<std::size_t>(r)].status != Status::Queued) {
            m_rows.erase(m_rows.begin() + r);
            m_table->removeRow(r);
        }
    updateButtons();
}

int ConversionQueue::rowCount() const { return static_cast<int>(m_rows.size()); }
ConversionQueue::Status ConversionQueue::status(int row) const
{
    return m_rows.at(static_cast<std::size_t>(row)).status;
}
QString ConversionQueue::output(int row) const { return m_rows.at(static_cast<std::size_t>(row)).output; }
QString ConversionQueue::message(int row) const { return m_rows.at(static_cast<std::size_t>(row)).error; }

void ConversionQueue::showRow(int r)
{
    const Row& row = m_rows[static_cast<std::size_t>(r)];
    const bool failed = row.status == Status::Failed;
    const auto set = [&](int column, const QString& text, const QString& tip = {}) {
        auto* item = m_table->item(r, column);
        if (!item) m_table->setItem(r, column, item = new QTableWidgetItem);
        item->setText(text);
        item->setToolTip(tip.isEmpty() ? text : tip);
        item->setData(Qt::ForegroundRole, failed ? QVariant(QColor(0xc6, 0x28, 0x28)) : QVariant());
        return item;
    };
    set(InputColumn, QFileInfo(row.input).fileName(), row.input);
    set(TargetColumn, QFileInfo(row.output).suffix());
    QTableWidgetItem* status = set(StatusColumn, statusText(row.status), row.error);
    status->setIcon(failed ? style()->standardIcon(QStyle::SP_MessageBoxCritical) : QIcon());
    const bool bar = row.status == Status::Running || row.status == Status::Done;
    set(ProgressColumn, {})->setData(Qt::UserRole, bar ? QVariant(row.percent) : QVariant()); // ProgressDelegate
    const QString elapsed = row.elapsed < 1 ? QString("%1 ms").arg(qRound(row.elapsed * 1000))
                                            : QString("%1 s").arg(row.elapsed, 0, 'f', row.elapsed < 10 ? 2 : 0);
    set(ElapsedColumn, row.status == Status::Queued ? QString() : elapsed);
    set(OutputColumn, failed ? row.error : row.output);
}

void ConversionQueue::updateButtons()
{
    const bool queued =
        std::any_of(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.status == Status::Queued; });
    const bool again = std::any_of(m_rows.begin(), m_rows.end(), [](const Row& r) {
        return r.status == Status::Failed || r.status == Status::Cancelled;
    });
    m_startButton->setEnabled(!m_running && queued);
    m_cancelButton->setEnabled(m_running);
    m_retryButton->setEnabled(!m_running && again);
    m_clearButton->setEnabled(!m_running && !m_rows.empty());
}

void ConversionQueue::openOutput(int row)
{
    const Row& r = m_rows.at(static_cast<std::size_t>(row));
    if (r.status != Status::Done) return;
    if (r.output.endsWith(".csv")) // the viewer does not read CSV: its folder in the file manager
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(r.output).absolutePath()));
    else
        emit openRequested(r.output);
}

void ConversionQueue::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void ConversionQueue::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    addInputs(paths);
}

} // namespace lv::widgets
