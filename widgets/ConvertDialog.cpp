// The dialog's layout, its remembered settings (per target format) and the job its controls describe.
#include "ConvertDialog.h"

#include "ConvertChannelTable.h"
#include "FormatOptions.h"
#include "TimeEntry.h"

#include "annotations/AnnotationSidecar.h"
#include "convert/Targets.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Snapshot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardItemModel>
#include <QTimer>
#include <QVBoxLayout>

namespace lv::widgets {

namespace {

// The recording's name without its extension(s): "r1.edf" -> "r1", "s.mefd.tar" -> "s".
QString stemOf(const QString& path)
{
    QString name = QFileInfo(QString(path).remove(QRegularExpression("/+$"))).fileName();
    for (const char* ext : {".tar", ".mefd", ".timd", ".edf", ".bdf", ".csv", ".EDF", ".BDF"})
        if (name.endsWith(ext)) name.chop(static_cast<int>(qstrlen(ext)));
    return name.isEmpty() ? QStringLiteral("converted") : name;
}

} // namespace

ConvertDialog::ConvertDialog(ConvertSource source, QWidget* parent)
    : QDialog(parent)
    , m_source(std::move(source))
    , m_jobs(this, &m_pool, 2)
    , m_channels(new ConvertChannelTable)
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_poll(new QTimer(this))
    , m_resolutionTimer(new QTimer(this))
{
    setWindowTitle(tr("Export/Convert"));
    m_pool.setMaxThreadCount(2);
    m_channels->setChannels(m_source.info, m_source.visible);
    auto* left = new QVBoxLayout;
    left->addWidget(makeTargetBox());
    auto* channelBox = new QGroupBox(tr("Channels"));
    (new QVBoxLayout(channelBox))->addWidget(m_channels);
    left->addWidget(channelBox, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(makeRangeBox());
    right->addWidget(makeOptionsBox());
    right->addWidget(makeDeidentifyBox());
    m_estimate = new QLabel;
    m_estimate->setObjectName("estimate");
    m_estimate->setWordWrap(true);
    right->addWidget(m_estimate);
    right->addStretch();
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_convertButton = buttons->addButton(tr("&Convert"), QDialogButtonBox::AcceptRole);
    m_convertButton->setObjectName("convert");
    m_cancelButton = buttons->addButton(tr("Cancel Conversion"), QDialogButtonBox::ActionRole);
    m_cancelButton->setObjectName("cancel");
    m_cancelButton->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] { startConvert(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &ConvertDialog::cancel);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    m_status->setObjectName("status");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_status->setOpenExternalLinks(true); // a written file's link opens its folder in the file manager

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this,
            [this] { m_progress->setValue(static_cast<int>(m_jobs.progress(0) * 1000)); });
    m_resolutionTimer->setSingleShot(true);
    m_resolutionTimer->setInterval(300);
    connect(m_resolutionTimer, &QTimer::timeout, this, &ConvertDialog::computeResolution);
    connect(m_channels, &ConvertChannelTable::changed, this, [this] {
        updateEstimate();
        scheduleResolution();
    });
    loadSettings();
    updateRange();
    updateDeidentifyList();
    connect(m_montage, &QComboBox::currentIndexChanged, this, [this] {
        m_channels->setEnabled(montageChoice().isEmpty()); // a montage writes its derivations
    });
    setMontage(m_source.montage);
    m_channels->setEnabled(montageChoice().isEmpty());
    resize(980, 640);
}

ConvertDialog::~ConvertDialog()
{
    saveSettings(); // the target and options shown last
    m_jobs.stop();  // a running job sees its token; what it still posts is dropped
    m_pool.waitForDone();
}

QWidget* ConvertDialog::makeTargetBox()
{
    auto* box = new QGroupBox(tr("Target"));
    m_format = new QComboBox;
    m_format->setObjectName("format");
    for (const convert::TargetFormat& f : convert::targetFormats())
        m_format->addItem(QString::fromStdString(f.description) + "  (." + QString::fromStdString(f.extension) + ")",
                          QString::fromStdString(f.extension));
    m_output = new QLineEdit;
    m_output->setObjectName("output");
    auto* browse = new QPushButton(tr("&Browse..."));
    connect(browse, &QPushButton::clicked, this, &ConvertDialog::browseOutput);
    auto* row = new QHBoxLayout;
    row->addWidget(m_output, 1);
    row->addWidget(browse);
    m_montage = new QComboBox;
    m_montage->setObjectName("montage");
    m_montage->addItem(tr("Channels as recorded"), QString());
    for (const auto& [word, name] : {std::pair{"double-banana", "Double banana"},
                                     {"transverse", "Transverse bipolar"},
                                     {"average", "Average reference"}})
        m_montage->addItem(tr("%1 derivations").arg(name), QString(word));
    for (const montage::Montage& m : m_source.saved)
        m_montage->addItem(tr("%1 derivations").arg(QString::fromStdString(m.name)),
                           "saved:" + QString::fromStdString(m.name));
    auto* form = new QFormLayout(box);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Output:"), row);
    form->addRow(tr("Write:"), m_montage);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ConvertDialog::formatChanged);
    return box;
}

void ConvertDialog::setMontage(const QString& choice)
{
    const int i = m_montage->findData(choice);
    m_montage->setCurrentIndex(i >= 0 ? i : 0);
}

QString ConvertDialog::montageChoice() const { return m_montage->currentData().toString(); }

QWidget* ConvertDialog::makeRangeBox()
{
    auto* box = new QGroupBox(tr("Time range"));
    m_range = new QComboBox;
    m_range->setObjectName("rangeMode");
    m_range->addItem(tr("Whole recording"));
    m_range->addItem(tr("Current view"));
    m_range->addItem(tr("Selection (the range last dragged on the plot)"));
    m_range->addItem(tr("From ... to ..."));
    if (!m_source.selection) // no selection: the entry stays, greyed
        if (auto* model = qobject_cast<QStandardItemModel*>(m_range->model())) model->item(2)->setEnabled(false);
    m_start = new QLineEdit;
    m_start->setObjectName("start");
    m_end = new QLineEdit;
    m_end->setObjectName("end");
    const QString hint = tr("seconds, hh:mm:ss, date and time or ISO 8601");
    m_start->setPlaceholderText(hint);
    m_end->setPlaceholderText(tr("exclusive; the same forms (UTC)"));
    m_rangeLabel = new QLabel;
    m_rangeLabel->setObjectName("rangeLabel");
    m_rangeLabel->setWordWrap(true);
    auto* form = new QFormLayout(box);
    form->addRow(tr("Range:"), m_range);
    form->addRow(tr("Start:"), m_start);
    form->addRow(tr("End:"), m_end);
    form->addRow(m_rangeLabel);
    connect(m_range, &QComboBox::currentIndexChanged, this, &ConvertDialog::updateRange);
    connect(m_start, &QLineEdit::textChanged, this, &ConvertDialog::updateRange);
    connect(m_end, &QLineEdit::textChanged, this, &ConvertDialog::updateRange);
    return box;
}

QWidget* ConvertDialog::makeOptionsBox()
{
    auto* box = new QGroupBox(tr("Format options"));
    m_options = new FormatOptions;
    m_resolution = new QLabel;
    m_resolution->setObjectName("resolution");
    m_resolution->setWordWrap(true);
    connect(m_resolution, &QLabel::linkActivated, this, [this] { setFormat("bdf"); });
    m_options->addEdfRow(m_resolution);
    (new QVBoxLayout(box))->addWidget(m_options);
    return box;
}

void ConvertDialog::setFormat(const QString& extension)
{
    const int i = m_format->findData(extension);
    if (i >= 0) m_format->setCurrentIndex(i);
}

QString ConvertDialog::format() const { return m_format->currentData().toString(); }

void ConvertDialog::setOutput(const QString& path) { m_output->setText(path); }

QString ConvertDialog::output() const
{
    QString path = m_output->text().trimmed();
    if (!path.isEmpty() && !path.endsWith("." + format())) path += "." + format();
    return path;
}

void ConvertDialog::setRangeMode(RangeMode mode) { m_range->setCurrentIndex(static_cast<int>(mode)); }

void ConvertDialog::setTypedRange(const QString& start, const QString& end)
{
    m_start->setText(start);
    m_end->setText(end);
    setRangeMode(RangeMode::Typed);
}

void ConvertDialog::formatChanged()
{
    if (!m_lastFormat.isEmpty()) saveSettings(); // the previous format's settings
    const QString ext = format();
    // A name the user gave keeps its folder and name, with the new extension; the dialog's own default is made
    // again: the recording's name in the last folder used (else the recording's), never the input's own name.
    QString path = m_output->text().trimmed();
    if (path.isEmpty() || path == m_defaultOutput) {
        const QString folder = QSettings().value("convert/folder").toString();
        const QString here = QFileInfo(m_source.path).absolutePath();
        path = (folder.isEmpty() ? here : folder) + "/" + stemOf(m_source.path);
        if (m_source.path.endsWith("." + ext)) path += "-converted";
        m_defaultOutput = path + "." + ext;
    } else if (!m_lastFormat.isEmpty() && path.endsWith("." + m_lastFormat)) {
        path.chop(m_lastFormat.size() + 1);
    }
    m_output->setText(path.endsWith("." + ext) ? path : path + "." + ext);
    m_options->setFormat(ext);
    m_lastFormat = ext;
    loadSettings();
    updateEstimate();
    scheduleResolution();
}

void ConvertDialog::browseOutput()
{
    const QString ext = format();
    const QString path =
        ext == "mefd" ? QFileDialog::getSaveFileName(this, tr("Convert to"), output(), tr("MEF 3.0 session (*.mefd)"))
                      : QFileDialog::getSaveFileName(this, tr("Convert to"), output(), m_format->currentText());
    if (path.isEmpty()) return;
    setOutput(path);
    QSettings().setValue("convert/folder", QFileInfo(path).absolutePath());
}

std::optional<core::TimeRange> ConvertDialog::chosenRange(QString* problem) const
{
    const core::RecordingInfo& info = m_source.info;
    switch (static_cast<RangeMode>(m_range->currentIndex())) {
    case RangeMode::Whole:
        return core::TimeRange{info.start, info.end};
    case RangeMode::View:
        return m_source.view;
    case RangeMode::Selection:
        if (!m_source.selection && problem) *problem = tr("Nothing is selected: drag over the plot first.");
        return m_source.selection;
    case RangeMode::Typed:
        break;
    }
    core::TimeRange range{info.start, info.end};
    for (auto [edit, at] : {std::pair{m_start, &range.start}, std::pair{m_end, &range.end}}) {
        if (edit->text().trimmed().isEmpty()) continue;
        auto t = parseTimeEntry(edit->text(), info.start);
        if (!t) {
            if (problem) *problem = QString::fromStdString(t.error().message);
            return std::nullopt;
        }
        *at = *t;
    }
    if (range.end <= range.start) {
        if (problem) *problem = tr("The end must come after the start.");
        return std::nullopt;
    }
    return range;
}

void ConvertDialog::updateRange()
{
    const bool typed = m_range->currentIndex() == static_cast<int>(RangeMode::Typed);
    m_start->setEnabled(typed);
    m_end->setEnabled(typed);
    QString problem;
    if (const auto range = chosenRange(&problem))
        m_rangeLabel->setText(tr("%1 to %2 (%3 s)")
                                  .arg(QString::fromStdString(core::formatIso(range->start)),
                                       QString::fromStdString(core::formatIso(range->end)),
                                       QString::fromStdString(core::formatSeconds(range->end - range->start))));
    else
        m_rangeLabel->setText(problem);
    updateEstimate();
    scheduleResolution();
}

core::Result<convert::ConvertJob> ConvertDialog::buildJob() const
{
    const auto refuse = [](const QString& why) {
        return core::makeError(core::ErrorCode::InvalidArgument, why.toStdString());
    };
    convert::ConvertJob job;
    job.inputs = {m_source.path.toStdString()};
    job.output = output().toStdString();
    if (job.output.empty()) return refuse(tr("Choose an output."));
    job.password = m_source.password.toStdString();
    job.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
    job.annotationDirectory = annotations::defaultDataDirectory();
    const QString montage = montageChoice();
    if (montage.startsWith("saved:")) {
        for (const montage::Montage& m : m_source.saved)
            if ("saved:" + QString::fromStdString(m.name) == montage) job.montageGiven = m;
    } else {
        job.montage = montage.toStdString(); // a built-in's word, as the CLI's --montage takes it
    }
    if (montage.isEmpty()) { // the channels as recorded: those checked, renamed
        if (m_channels->checkedChannels().empty()) return refuse(tr("Check at least one channel."));
        job.selection.channels = m_channels->channelList().toStdString();
        job.rename = m_channels->renameSpec().toStdString();
    }
    QString problem;
    const auto range = chosenRange(&problem);
    if (!range) return refuse(problem);
    if (range->start != m_source.info.start) job.selection.start = std::to_string(range->start);
    if (range->end != m_source.info.end) job.selection.end = std::to_string(range->end);
    auto target = m_options->targetOptions(format());
    if (!target) return target.error();
    job.target = *target;
    convert::DeidentifyOptions& d = job.deidentify;
    d.anonymize = m_anonymize->isChecked();
    d.subjectId = m_subjectId->text().trimmed().toStdString();
    if (m_shiftDates->isChecked()) {
        bool number = false;
        const int days = m_shiftDays->text().trimmed().toInt(&number);
        if (m_shiftDays->text().trimmed().isEmpty())
            d.shiftDatesRandom = true;
        else if (!number)
            return refuse(tr("The date shift takes a whole number of days."));
        else
            d.shiftDays = days;
    }
    d.dropAnnotationText = m_dropText->isChecked();
    return job;
}

void ConvertDialog::loadSettings()
{
    QSettings s;
    if (m_lastFormat.isEmpty()) { // first call: the last format used, which calls back here
        const QString last = s.value("convert/format", "mefd").toString();
        setFormat(last);
        if (m_lastFormat.isEmpty()) formatChanged();
        return;
    }
    s.beginGroup("convert/" + m_lastFormat);
    m_options->setTargetOptions(FormatOptions::loadOptions(s));
}

void ConvertDialog::saveSettings() const
{
    QSettings s;
    s.setValue("convert/format", m_lastFormat);
    s.beginGroup("convert/" + m_lastFormat);
    m_options->save(s, m_lastFormat);
}

} // namespace lv::widgets
