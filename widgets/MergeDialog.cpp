// The merge is a convert::ConvertJob run by a BackgroundJob (the CLI's merge job: same bytes); the preview's dry runs
// go through a JobTracker lane (a newer plan supersedes an older one, stale results are dropped).
#include "MergeDialog.h"

#include "BackgroundJob.h"
#include "FileFilters.h"
#include "MergePreview.h"

#include "common/ErrorText.h"
#include "convert/ConvertJob.h"
#include "convert/MergedRecording.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/Snapshot.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <functional>

namespace lv::widgets {

namespace {

// The formats offered, in the combo's order: label and extension.
const std::pair<const char*, const char*> kFormats[] = {{"MEF 3.0 session (.mefd)", ".mefd"},
                                                        {"EDF+ (.edf)", ".edf"},
                                                        {"BDF+ (.bdf)", ".bdf"},
                                                        {"CSV table (.csv)", ".csv"}};

// The input list: accepts dropped files and folders, and reorders its items by drag (internal move).
class DropList : public QListWidget {
public:
    explicit DropList(std::function<void(const QStringList&)> onDrop) : m_onDrop(std::move(onDrop))
    {
        setAcceptDrops(true);
        setDragEnabled(true);
        setDragDropMode(QAbstractItemView::InternalMove);
        setDefaultDropAction(Qt::MoveAction);
        setSelectionMode(QAbstractItemView::ExtendedSelection);
    }

protected:
    static bool fromOutside(const QDropEvent* event) { return event->mimeData()->hasUrls(); }
    void dragEnterEvent(QDragEnterEvent* event) override
    {
        if (!fromOutside(event)) return QListWidget::dragEnterEvent(event);
        event->acceptProposedAction();
    }
    void dragMoveEvent(QDragMoveEvent* event) override
    {
        if (!fromOutside(event)) return QListWidget::dragMoveEvent(event);
        event->acceptProposedAction();
    }
    void dropEvent(QDropEvent* event) override
    {
        if (!fromOutside(event)) return QListWidget::dropEvent(event); // a move within the list
        QStringList paths;
        for (const QUrl& url : event->mimeData()->urls())
            if (url.isLocalFile()) paths << url.toLocalFile();
        if (paths.isEmpty()) return;
        m_onDrop(paths);
        event->acceptProposedAction();
    }

private:
    std::function<void(const QStringList&)> m_onDrop;
};

QString errorWords(const core::Error& error)
{
    return QString::fromStdString(app::errorText(error, app::Audience::Gui));
}

} // namespace

MergeDialog::MergeDialog(QWidget* parent)
    : QDialog(parent)
    , m_list(new DropList([this](const QStringList& paths) { addInputs(paths); }))
    , m_remove(new QPushButton(tr("&Remove")))
    , m_mode(new QComboBox)
    , m_overlap(new QComboBox)
    , m_preview(new MergePreview)
    , m_output(new QLineEdit)
    , m_format(new QComboBox)
    , m_password(new QLineEdit)
    , m_status(new QLabel)
    , m_job(new BackgroundJob(this))
    , m_plans(this)
    , m_replanTimer(new QTimer(this))
{
    setWindowTitle(tr("Merge Recordings"));
    m_replanTimer->setSingleShot(true);
    m_replanTimer->setInterval(0); // one plan for a burst of changes (several files added, a drag)
    connect(m_replanTimer, &QTimer::timeout, this, &MergeDialog::plan);

    auto* addFilesButton = new QPushButton(tr("Add &Files..."));
    auto* addFolderButton = new QPushButton(tr("Add F&older..."));
    connect(addFilesButton, &QPushButton::clicked, this, &MergeDialog::addFiles);
    connect(addFolderButton, &QPushButton::clicked, this, &MergeDialog::addFolder);
    connect(m_remove, &QPushButton::clicked, this, &MergeDialog::removeSelected);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &MergeDialog::updateButtons);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_list->model(), signal, this, &MergeDialog::replan);
    connect(m_list->model(), &QAbstractItemModel::rowsMoved, this, &MergeDialog::replan);
    m_list->setToolTip(tr("Drag the recordings into the order they are merged in (stack: the order of the channels)."));
    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(addFilesButton);
    listButtons->addWidget(addFolderButton);
    listButtons->addWidget(m_remove);
    listButtons->addStretch();
    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_list, 1);
    listRow->addLayout(listButtons);

    m_mode->setObjectName("mode");
    m_mode->addItem(tr("Concatenate: the same channels one after the other in time"),
                    QVariant::fromValue(static_cast<int>(convert::MergeMode::Concat)));
    m_mode->addItem(tr("Stack: every recording's channels side by side"),
                    QVariant::fromValue(static_cast<int>(convert::MergeMode::Stack)));
    m_overlap->setObjectName("overlap");
    m_overlap->addItem(tr("Refuse the merge"), QVariant::fromValue(static_cast<int>(convert::OverlapPolicy::Error)));
    m_overlap->addItem(tr("Keep the earlier recording's samples"),
                       QVariant::fromValue(static_cast<int>(convert::OverlapPolicy::First)));
    m_overlap->addItem(tr("Keep the later recording's samples"),
                       QVariant::fromValue(static_cast<int>(convert::OverlapPolicy::Last)));
    connect(m_mode, &QComboBox::currentIndexChanged, this, &MergeDialog::modeChanged);
    connect(m_overlap, &QComboBox::currentIndexChanged, this, &MergeDialog::replan);

    for (const auto& [label, extension] : kFormats) m_format->addItem(tr(label), QString(extension));
    connect(m_format, &QComboBox::currentIndexChanged, this, &MergeDialog::formatChanged);
    auto* browse = new QPushButton(tr("&Browse..."));
    connect(browse, &QPushButton::clicked, this, &MergeDialog::browseOutput);
    connect(m_output, &QLineEdit::textChanged, this, &MergeDialog::updateButtons);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(browse);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("for encrypted MEF sessions (all parts)"));
    connect(m_password, &QLineEdit::editingFinished, this, &MergeDialog::replan);
    auto* how = new QFormLayout;
    how->addRow(tr("Mode:"), m_mode);
    how->addRow(tr("Where they overlap:"), m_overlap);
    auto* form = new QFormLayout;
    form->addRow(tr("Output:"), outputRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Password:"), m_password);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_mergeButton = buttons->addButton(tr("&Merge"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { startMerge(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_preview->setObjectName("preview");
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Recordings to merge (files or .mefd folders; drop them here, drag to reorder):")));
    layout->addLayout(listRow, 1);
    layout->addLayout(how);
    layout->addWidget(new QLabel(tr("The merged time line (grey: gaps, red: overlaps):")));
    layout->addWidget(m_preview);
    layout->addLayout(form);
    m_status->setObjectName("status");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(m_job, &BackgroundJob::finished, this, &MergeDialog::mergeFinished);
    connect(this, &MergeDialog::mergeFinished, this, &MergeDialog::onFinished);
    modeChanged();
    resize(720, 620);
}

// A plan still running is dropped (its work holds no reference to the dialog); m_job cancels and waits for a merge.
MergeDialog::~MergeDialog() { m_plans.stop(); }

bool MergeDialog::isRunning() const { return m_job->isRunning(); }

void MergeDialog::addInputs(const QStringList& paths)
{
    const QStringList have = inputs();
    for (const QString& path : paths) {
        const QString clean = QFileInfo(path).absoluteFilePath();
        if (!have.contains(clean) && m_list->findItems(clean, Qt::MatchExactly).isEmpty()) m_list->addItem(clean);
    }
    updateButtons();
}

QStringList MergeDialog::inputs() const
{
    QStringList paths;
    for (int i = 0; i < m_list->count(); ++i) paths << m_list->item(i)->text();
    return paths;
}

void MergeDialog::moveInput(int from, int to)
{
    if (from < 0 || from >= m_list->count() || to < 0 || to >= m_list->count() || from == to) return;
    QListWidgetItem* item = m_list->takeItem(from);
    m_list->insertItem(to, item);
}

void MergeDialog::setOutput(const QString& path)
{
    m_output->setText(path);
    for (int i = 0; i < m_format->count(); ++i)
        if (path.endsWith(m_format->itemData(i).toString())) m_format->setCurrentIndex(i);
}

QString MergeDialog::output() const
{
    QString path = m_output->text().trimmed();
    const QString extension = m_format->currentData().toString();
    if (!path.isEmpty() && !path.endsWith(extension)) path += extension;
    return path;
}

void MergeDialog::setMode(convert::MergeMode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(static_cast<int>(mode)));
}

void MergeDialog::setOverlapPolicy(convert::OverlapPolicy policy)
{
    m_overlap->setCurrentIndex(m_overlap->findData(static_cast<int>(policy)));
}

convert::MergeOptions MergeDialog::options() const
{
    convert::MergeOptions o;
    o.mode = static_cast<convert::MergeMode>(m_mode->currentData().toInt());
    if (o.mode == convert::MergeMode::Concat)
        o.overlap = static_cast<convert::OverlapPolicy>(m_overlap->currentData().toInt());
    return o;
}

void MergeDialog::modeChanged()
{
    m_overlap->setEnabled(options().mode == convert::MergeMode::Concat); // stacked channels do not overlap
    replan();
}

QString MergeDialog::statusText() const { return m_status->text(); }

void MergeDialog::addFiles()
{
    addInputs(QFileDialog::getOpenFileNames(this, tr("Add recordings"), QString(), recordingFileFilter()));
}

void MergeDialog::addFolder()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Add a MEF 3.0 session folder"));
    if (!path.isEmpty()) addInputs({path});
}

void MergeDialog::removeSelected()
{
    qDeleteAll(m_list->selectedItems());
    updateButtons();
}

void MergeDialog::browseOutput()
{
    const QString extension = m_format->currentData().toString();
    const QString path =
        extension == ".mefd"
            ? QFileDialog::getSaveFileName(this, tr("Merge into"), QString(), tr("MEF 3.0 session (*.mefd)"))
            : QFileDialog::getSaveFileName(this, tr("Merge into"), QString(), m_format->currentText());
    if (!path.isEmpty()) setOutput(path);
}

void MergeDialog::formatChanged()
{
    QString path = m_output->text().trimmed();
    for (const auto& [label, extension] : kFormats)
        if (path.endsWith(extension)) path.chop(static_cast<int>(qstrlen(extension)));
    if (!path.isEmpty()) m_output->setText(path + m_format->currentData().toString());
}

void MergeDialog::replan()
{
    m_plans.drop(); // a plan on its way is for what the dialog no longer says
    m_planning = true;
    m_planOk = false;
    m_replanTimer->start();
    updateButtons();
}

void MergeDialog::plan()
{
    const QStringList paths = inputs();
    if (paths.size() < 2) {
        m_planning = false;
        m_preview->setMessage(tr("Add at least two recordings to see the merged time line."));
        m_status->clear();
        m_status->setStyleSheet(QString());
        updateButtons();
        emit planShown();
        return;
    }
    std::vector<std::string> parts;
    for (const QString& p : paths) parts.push_back(p.toStdString());
    m_status->setStyleSheet(QString());
    m_status->setToolTip(QString());
    m_status->setText(tr("Planning the merge ..."));
    m_plans.run(
        0,
        [parts, password = m_password->text().toStdString(), options = options()](const Job& job) {
            if (!job.isCurrent()) // superseded while queued
                return core::Result<convert::MergeTimeline>(core::makeError(core::ErrorCode::Cancelled, "superseded"));
            return convert::planMerge(parts, password, formats::mef3::defaultSnapshotDirectory(), options);
        },
        [this](const core::Result<convert::MergeTimeline>& plan) { showPlan(plan); });
}

void MergeDialog::showPlan(const core::Result<convert::MergeTimeline>& plan)
{
    m_planning = false;
    if (!plan) { // an input that does not open, channels at different rates, ...
        m_planOk = false;
        m_preview->setMessage(tr("No merge: %1").arg(errorWords(plan.error())));
        m_status->setText(errorWords(plan.error()));
        m_status->setStyleSheet("color: #b00000");
    } else {
        m_preview->setTimeline(*plan);
        m_planOk = !plan->error;
        m_status->setStyleSheet(m_planOk ? QString() : "color: #b00000"); // refused: the engine's words, in red
        QStringList lines;
        if (plan->error) lines << errorWords(*plan->error); // an overlap the policy refuses: the engine's words
        for (const std::string& w : plan->warnings) lines << QString::fromStdString(w);
        // A few lines under the preview (a stack of 64 clashing names warns 128 times), all of them in the tooltip.
        constexpr int kShown = 3;
        m_status->setToolTip(lines.size() > kShown ? lines.join('\n') : QString());
        if (lines.size() > kShown) {
            const auto more = lines.size() - kShown;
            lines = lines.mid(0, kShown) << tr("... and %1 more (hold the mouse here to see all)").arg(more);
        }
        m_status->setText(lines.join('\n'));
    }
    updateButtons();
    emit planShown();
}

bool MergeDialog::canMerge() const
{
    return m_list->count() >= 2 && !m_output->text().trimmed().isEmpty() && !isRunning() && !m_planning && m_planOk;
}

void MergeDialog::updateButtons()
{
    m_remove->setEnabled(!m_list->selectedItems().isEmpty() && !isRunning());
    m_mergeButton->setEnabled(canMerge());
}

bool MergeDialog::startMerge()
{
    if (isRunning()) return false;
    const QStringList paths = inputs();
    const QString target = output();
    if (paths.size() < 2 || target.isEmpty()) {
        m_status->setText(tr("Add at least two recordings and choose an output."));
        return false;
    }
    // longview-cli merge IN... OUT --mode M --overlap P, with convert's defaults for the rest.
    convert::ConvertJob job;
    for (const QString& p : paths) job.inputs.push_back(p.toStdString());
    job.output = target.toStdString();
    job.password = m_password->text().toStdString();
    job.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
    job.merge = options();
    m_job->start(tr("Writing %1").arg(target), m_interactive ? this : nullptr,
                 [job](core::ReadControl& control) -> BackgroundJob::Outcome {
                     decode::ThreadPool pool; // every core, as the CLI's default --threads
                     convert::JobEvents events;
                     events.progress = [&control](const convert::JobProgress& p) {
                         if (control.progress) control.progress(static_cast<std::uint64_t>(p.fraction * 1000), 1000);
                     };
                     const convert::JobResult result = convert::runConvertJob(job, {&pool, control.cancel}, events);
                     if (!result.ok) // a cancel: "cancelled; nothing was written"
                         return {false, QString::fromStdString(app::jobFailureText(result.error, app::Audience::Gui))};
                     QString message = tr("Wrote %1").arg(QString::fromStdString(job.output));
                     for (const std::string& w : result.warnings) message += "\n" + QString::fromStdString(w);
                     return {true, message};
                 });
    updateButtons();
    m_status->setStyleSheet(QString());
    m_status->setToolTip(QString());
    m_status->setText(tr("Merging %1 recordings into %2...").arg(paths.size()).arg(target));
    return true;
}

void MergeDialog::cancel() { m_job->cancel(); }

void MergeDialog::onFinished(bool ok, const QString& message)
{
    m_status->setText(message);
    updateButtons();
    if (!m_interactive) return;
    if (ok)
        QMessageBox::information(this, tr("Merge"), message);
    else
        QMessageBox::warning(this, tr("Merge"), message);
}

} // namespace lv::widgets
