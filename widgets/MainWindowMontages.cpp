// View > Montage: the recording as recorded, the built-in montages and the user's saved ones (F1-F12), drawn as lanes
// computed by the loader's frames (widgets/MontageLanes); the choice is remembered per recording type (format).
#include "MainWindow.h"

#include "MontageEditor.h"
#include "SessionBrowser.h"
#include "SpectrogramStrip.h"
#include "TraceLoader.h"
#include "TracePlot.h"

#include "core/ChannelType.h"
#include "formats/mef3/Snapshot.h"
#include "montage/BuiltinMontages.h"
#include "montage/EdfBrowserMontage.h"
#include "montage/MontageFile.h"
#include "view/ViewSession.h"

#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace lv::widgets {

namespace {

constexpr int kSavedSlots = 8; // F5-F12

// The built-ins in menu and F-key order (F2-F4) with their choice words.
constexpr std::pair<montage::Builtin, const char*> kBuiltins[] = {
    {montage::Builtin::DoubleBanana, "double-banana"},
    {montage::Builtin::Transverse, "transverse"},
    {montage::Builtin::AverageReference, "average"},
};

struct ReadMontage {
    std::optional<montage::Montage> montage;
    QString message; // why it did not read, or what was left out
};

// A montage file as the user picked it: EDFbrowser's XML (.mtg) or Longview's JSON. On a worker thread.
ReadMontage readMontage(const QString& path, const std::vector<core::ChannelInfo>& channels)
{
    ReadMontage out;
    const std::string file = path.toStdString();
    if (path.endsWith(".mtg", Qt::CaseInsensitive)) {
        auto imported = montage::readEdfBrowserMontage(file, channels);
        if (!imported) return {std::nullopt, QString::fromStdString(imported.error().describe())};
        out.montage = std::move(imported->montage);
        for (const std::string& note : imported->notes) out.message += QString::fromStdString(note) + "; ";
    } else {
        auto read = montage::readMontageFile(file);
        if (!read) return {std::nullopt, QString::fromStdString(read.error().describe())};
        out.montage = std::move(*read);
    }
    if (out.montage->name.empty()) out.montage->name = QFileInfo(path).completeBaseName().toStdString();
    return out;
}

} // namespace

QString MainWindow::montageKey() const
{
    // The format's name without its variant: EDF, EDF+C and EDF+D are one type ("MEF 3.0": MEF).
    const core::RecordingInfo* info = m_loader->info();
    QString type;
    for (const QChar c : info ? QString::fromStdString(info->format) : QString()) {
        if (!c.isLetterOrNumber()) break;
        type += c;
    }
    return "montage/byFormat/" + (type.isEmpty() ? QString("unknown") : type);
}

QString MainWindow::montageChoice() const { return setting(montageKey(), QString()).toString(); }

std::vector<montage::Montage> MainWindow::savedMontages() const
{
    std::vector<montage::Montage> out;
    for (const QString& text : setting("montage/saved", QStringList()).toStringList())
        if (auto m = montage::parseMontage(text.toStdString(), "settings")) out.push_back(std::move(*m));
    return out;
}

void MainWindow::saveMontage(const montage::Montage& montage)
{
    QStringList saved;
    bool replaced = false;
    for (const montage::Montage& m : savedMontages()) {
        const bool same = m.name == montage.name;
        saved << QString::fromStdString(montage::formatMontage(same ? montage : m));
        replaced = replaced || same;
    }
    if (!replaced) saved << QString::fromStdString(montage::formatMontage(montage));
    while (saved.size() > kSavedSlots) saved.removeFirst(); // the oldest make room
    remember("montage/saved", saved);
    updateMontageMenu();
}

std::optional<montage::MontageBuild> MainWindow::buildChoice(const QString& choice) const
{
    const core::RecordingInfo* info = m_loader->info();
    if (!info) return std::nullopt;
    if (choice.startsWith("saved:")) {
        for (montage::Montage& m : savedMontages())
            if (QString::fromStdString(m.name) == choice.mid(6)) return montage::MontageBuild{std::move(m), {}};
        return std::nullopt;
    }
    const auto builtin = montage::builtinFromWord(choice.toStdString());
    if (!builtin) return std::nullopt;
    // The channels hidden as recorded are the bad ones: left out of the average.
    std::vector<std::string> bad;
    const std::vector<std::size_t>& shown = m_loader->montage() ? m_recordedShown : m_rows.shown();
    for (std::size_t c = 0; c < info->channels.size(); ++c)
        if (std::find(shown.begin(), shown.end(), c) == shown.end()) bad.push_back(info->channels[c].name);
    return montage::buildMontage(*builtin, *info, bad);
}

bool MainWindow::setMontage(const QString& choice)
{
    const bool recorded = choice.isEmpty() || choice == "referential";
    if (!recorded && m_loader->info() && !buildChoice(choice)) return false;
    remember(montageKey(), recorded ? QString() : choice);
    if (m_open) applyMontage();
    return true;
}

void MainWindow::applyMontage(bool refresh)
{
    const core::RecordingInfo* info = m_loader->info();
    if (!info) return;
    const QString choice = montageChoice();
    const std::optional<montage::MontageBuild> build = choice.isEmpty() ? std::nullopt : buildChoice(choice);
    std::shared_ptr<const MontageLanes> lanes;
    if (build) lanes = makeMontageLanes(*info, *m_loader->bands(), build->montage, build->notes);
    if (lanes && lanes->plans.empty()) {
        statusBar()->showMessage(tr("montage %1 has no derivation this recording can show: %2")
                                     .arg(QString::fromStdString(lanes->name),
                                          QString::fromStdString(lanes->notes.empty() ? "" : lanes->notes.front())),
                                 30000);
        lanes.reset();
    }
    const bool wasMontage = m_loader->montage() != nullptr;
    if (lanes && !wasMontage) m_recordedShown = m_rows.shown();
    m_loader->setMontage(lanes);
    std::vector<core::ChannelType> types;
    if (lanes)
        for (std::size_t k = 0; k < lanes->plans.size(); ++k) {
            const auto named = core::channelTypeFromName(lanes->derivations[k].type);
            types.push_back(named ? *named : m_plot->channelType(lanes->plans[k].parts.front().channel));
        }
    m_plot->setDisplayChannels(m_loader->displayInfo(), m_loader->displayBands(), info->channels.size(), types);
    if (lanes) {
        std::map<std::size_t, QColor> colours; // a derivation's own colour ("#rrggbb"), else its type's
        for (std::size_t lane : lanes->lanes()) {
            const montage::DisplaySettings& display = lanes->derivations[lane - lanes->first].display;
            if (display.inverted) m_plot->setInverted(lane, true);
            if (display.sensitivity > 0) // units per cm, in the derivation's own unit
                m_plot->setChannelSensitivity(lane, {display.sensitivity / 10, Sensitivity::Per::Millimetre, ""});
            if (const QColor c(QString::fromStdString(display.colour)); !display.colour.empty() && c.isValid())
                colours[lane] = c;
        }
        m_plot->setChannelColours(std::move(colours));
        m_rows.setShown(lanes->lanes());
        m_rows.scrollTo(0);
        if (!lanes->notes.empty())
            statusBar()->showMessage(tr("%1: %2 left out (%3)")
                                         .arg(QString::fromStdString(lanes->name))
                                         .arg(lanes->notes.size())
                                         .arg(QString::fromStdString(lanes->notes.front())),
                                     30000);
    } else if (wasMontage) {
        m_rows.setShown(m_recordedShown);
        m_recordedShown.clear();
    }
    applyDisplayFilter();
    updateSpectrogramSource();
    for (QAction* a : m_montageActions) a->setChecked(a->property("montageChoice").toString() == choice);
    updateRowBar();
    if (refresh) viewChanged();
}

void MainWindow::updateSpectrogramSource()
{
    const core::RecordingInfo* shown = m_loader->displayInfo();
    if (!shown || !m_loader->session()) return m_spectrogram->setSource(std::nullopt);
    const std::string snapshots = formats::mef3::defaultSnapshotDirectory();
    m_spectrogram->setSource(
        SpectrogramSource{m_openPath, m_password, snapshots, snapshots, m_loader->montage(), *shown});
}

void MainWindow::setSpectrogramShown(bool on)
{
    remember("view/spectrogram", on);
    m_spectrogram->setVisible(on);
    if (QAction* a = findChild<QAction*>("spectrogramAction")) a->setChecked(on);
    if (!on) return m_spectrogram->cancel();
    m_spectrogram->setLanes(m_rows.shown());
    if (const auto c = m_spectrogram->channel(); c && !m_spectrogram->spectrogram()) m_spectrogram->setChannel(*c);
}

void MainWindow::createMontageActions(QMenu* view)
{
    m_montageMenu = view->addMenu(tr("&Montage"));
    m_montageGroup = new QActionGroup(this);
    updateMontageMenu();
}

// As Recorded (F1), the built-ins (F2-F4), the saved montages (F5-F12), then importing and editing.
void MainWindow::updateMontageMenu()
{
    m_montageMenu->clear();
    for (QAction* a : m_montageActions) m_montageGroup->removeAction(a);
    m_montageActions.clear();
    int key = 0;
    const auto add = [&](const QString& name, const QString& choice) {
        QAction* a = m_montageMenu->addAction(name);
        a->setObjectName("montageAction");
        a->setCheckable(true);
        a->setProperty("montageChoice", choice);
        a->setChecked(choice == montageChoice());
        if (key < 12) a->setShortcut(QKeySequence(Qt::Key_F1 + key++));
        m_montageGroup->addAction(a);
        m_montageActions.push_back(a);
        connect(a, &QAction::triggered, this, [this, choice] { setMontage(choice); });
    };
    add(tr("As &Recorded"), QString());
    for (const auto& [builtin, word] : kBuiltins) add(QString::fromStdString(montage::builtinName(builtin)), word);
    const std::vector<montage::Montage> saved = savedMontages();
    if (!saved.empty()) m_montageMenu->addSeparator();
    for (const montage::Montage& m : saved)
        add(QString::fromStdString(m.name).replace('&', "&&"), "saved:" + QString::fromStdString(m.name));
    m_montageMenu->addSeparator();
    QAction* import = m_montageMenu->addAction(tr("&Import Montage File..."));
    import->setObjectName("montageImportAction");
    connect(import, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import Montage"), QString(),
                                                          tr("Montage files (*.json *.mtg);;All files (*)"));
        if (!path.isEmpty()) importMontage(path);
    });
    QAction* edit = m_montageMenu->addAction(tr("&Edit Montages..."));
    edit->setObjectName("montageEditAction");
    connect(edit, &QAction::triggered, this, [this] { editMontage(); });
}

void MainWindow::importMontage(const QString& path)
{
    const core::RecordingInfo* info = m_loader->info();
    const std::vector<core::ChannelInfo> channels = info ? info->channels : std::vector<core::ChannelInfo>{};
    auto* watcher = new QFutureWatcher<ReadMontage>(this);
    connect(watcher, &QFutureWatcher<ReadMontage>::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        const ReadMontage read = watcher->result();
        if (!read.montage) {
            statusBar()->showMessage(tr("montage not imported: %1").arg(read.message), 30000);
            emit montageImported(path, read.message);
            return;
        }
        saveMontage(*read.montage);
        setMontage("saved:" + QString::fromStdString(read.montage->name));
        if (!read.message.isEmpty()) statusBar()->showMessage(tr("montage imported: %1").arg(read.message), 30000);
        emit montageImported(path, QString());
    });
    watcher->setFuture(QtConcurrent::run([path, channels] { return readMontage(path, channels); }));
}

MontageEditor* MainWindow::editMontage()
{
    const core::RecordingInfo* info = m_loader->info();
    if (!info) return nullptr;
    montage::Montage current;
    if (const std::optional<montage::MontageBuild> build = buildChoice(montageChoice())) current = build->montage;
    if (current.derivations.empty()) current = montage::doubleBanana(*info).montage;
    auto* editor = new MontageEditor(*info, current, this);
    editor->setAttribute(Qt::WA_DeleteOnClose);
    connect(editor, &QDialog::accepted, this, [this, editor] {
        const montage::Montage edited = editor->montage();
        saveMontage(edited);
        setMontage("saved:" + QString::fromStdString(edited.name));
    });
    editor->open();
    return editor;
}

} // namespace lv::widgets
