// The merge runs on one low-priority thread (BackgroundJob); progress is polled from an atomic.
#include "MergeDialog.h"

#include "BackgroundJob.h"
#include "FileFilters.h"

#include "common/ErrorText.h"
#include "convert/CsvExport.h"
#include "convert/EdfExport.h"
#include "convert/MefExport.h"
#include "convert/MergedRecording.h"
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
#include <QVBoxLayout>
#include <functional>

namespace lv::widgets {

namespace {

// The formats offered, in the combo's order: label and extension.
const std::pair<const char*, const char*> kFormats[] = {{"MEF 3.0 session (.mefd)", ".mefd"},
                                                        {"EDF+ (.edf)", ".edf"},
                                                        {"BDF+ (.bdf)", ".bdf"},
                                                        {"CSV table (.csv)", ".csv"}};

// The input list: accepts dropped files and folders.
class DropList : public QListWidget {
public:
    explicit DropList(std::function<void(const QStringList&)> onDrop) : m_onDrop(std::move(onDrop))
    {
        setAcceptDrops(true);
        setDragDropMode(QAbstractItemView::DropOnly);
        setSelectionMode(QAbstractItemView::ExtendedSelection);
    }

protected:
    void dragEnterEvent(QDragEnterEvent* event) override
    {
        if (event->mimeData()->hasUrls()) event->acceptProposedAction();
    }
    void dragMoveEvent(QDragMoveEvent* event) override
    {
        if (event->mimeData()->hasUrls()) event->acceptProposedAction();
    }
    void dropEvent(QDropEvent* event) override
    {
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

// Opens the parts, merges them and writes `output` with the writer its extension names. `notes` collects
// warnings worth showing (rounding, resolution lost to 16 bits).
core::Status writeMerge(const std::vector<std::string>& paths, const std::string& password, const std::string& output,
                        const core::ReadControl& control, std::vector<std::string>& notes)
{
    auto merged = convert::openMerged(paths, password, formats::mef3::defaultSnapshotDirectory());
    if (!merged) return merged.error();
    core::Recording& recording = **merged;
    notes = recording.info().warnings;
    const core::TimeRange all{recording.info().start, recording.info().end};
    const QString out = QString::fromStdString(output);
    if (out.endsWith(".csv")) {
        convert::CsvOptions options;
        options.range = all;
        return convert::exportCsv(recording, options, output, control);
    }
    if (out.endsWith(".edf") || out.endsWith(".bdf")) {
        convert::EdfExportOptions options;
        options.range = all;
        options.bdf = out.endsWith(".bdf");
        auto result = convert::exportEdf(recording, options, output, control);
        if (!result) return result.error();
        notes.insert(notes.end(), result->warnings.begin(), result->warnings.end());
        return {};
    }
    convert::MefExportOptions options;
    options.range = all;
    return convert::exportMef(recording, options, output, control);
}

} // namespace

MergeDialog::MergeDialog(QWidget* parent)
    : QDialog(parent)
    , m_list(new DropList([this](const QStringList& paths) { addInputs(paths); }))
    , m_remove(new QPushButton(tr("&Remove")))
    , m_output(new QLineEdit)
    , m_format(new QComboBox)
    , m_password(new QLineEdit)
    , m_status(new QLabel)
    , m_job(new BackgroundJob(this))
{
    setWindowTitle(tr("Merge Recordings"));

    auto* addFilesButton = new QPushButton(tr("Add &Files..."));
    auto* addFolderButton = new QPushButton(tr("Add F&older..."));
    connect(addFilesButton, &QPushButton::clicked, this, &MergeDialog::addFiles);
    connect(addFolderButton, &QPushButton::clicked, this, &MergeDialog::addFolder);
    connect(m_remove, &QPushButton::clicked, this, &MergeDialog::removeSelected);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &MergeDialog::updateButtons);
    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(addFilesButton);
    listButtons->addWidget(addFolderButton);
    listButtons->addWidget(m_remove);
    listButtons->addStretch();
    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_list, 1);
    listRow->addLayout(listButtons);

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
    auto* form = new QFormLayout;
    form->addRow(tr("Output:"), outputRow);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Password:"), m_password);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_mergeButton = buttons->addButton(tr("&Merge"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { startMerge(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Recordings to merge (files or .mefd folders; drop them here). Channels are "
                                    "matched by name, parts placed in time order, the time between them "
                                    "becomes gaps.")));
    layout->addLayout(listRow);
    layout->addLayout(form);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    connect(m_job, &BackgroundJob::finished, this, &MergeDialog::mergeFinished);
    connect(this, &MergeDialog::mergeFinished, this, &MergeDialog::onFinished);
    updateButtons();
    resize(620, 420);
}

MergeDialog::~MergeDialog() = default; // m_job cancels and waits

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

void MergeDialog::updateButtons()
{
    m_remove->setEnabled(!m_list->selectedItems().isEmpty() && !isRunning());
    m_mergeButton->setEnabled(m_list->count() >= 2 && !m_output->text().trimmed().isEmpty() && !isRunning());
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
    std::vector<std::string> parts;
    for (const QString& p : paths) parts.push_back(p.toStdString());
    m_job->start(tr("Writing %1").arg(target), m_interactive ? this : nullptr,
                 [parts, password = m_password->text().toStdString(),
                  output = target.toStdString()](core::ReadControl& control) -> BackgroundJob::Outcome {
                     std::vector<std::string> notes;
                     const core::Status status = writeMerge(parts, password, output, control, notes);
                     if (!status)
                         return {false, QString::fromStdString(app::errorText(status.error(), app::Audience::Gui))};
                     QString message = tr("Wrote %1").arg(QString::fromStdString(output));
                     for (const std::string& note : notes) message += "\n" + QString::fromStdString(note);
                     return {true, message};
                 });
    updateButtons();
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
