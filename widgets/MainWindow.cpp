// Opening, closing and navigating recordings, settings and themes; every view change goes through ViewState, then
// to the plot (axes at once) and the loader (frames later, off the UI thread). Menus and docks: MainWindowActions.cpp.
#include "MainWindow.h"
#include "Navigation.h"
#include "Sensitivity.h"

#include "AnnotationList.h"
#include "ConversionQueue.h"
#include "ConvertDialog.h"
#include "FilteredTrace.h"
#include "MergeDialog.h"
#include "MontageLanes.h"
#include "OverviewStrip.h"
#include "SessionBrowser.h"
#include "SpectrogramStrip.h"
#include "SpectrumDock.h"
#include "SystemTheme.h"
#include "TimeEntry.h"
#include "TimeMode.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "UserAnnotations.h"

#include "common/ErrorText.h"
#include "common/PasswordPrompt.h"
#include "core/TimeFormat.h"
#include "view/ViewSession.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTimer>
#include <QVBoxLayout>
#include <numeric>

namespace lv::widgets {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_loader(new TraceLoader(this))
    , m_plot(new TracePlot)
    , m_overview(new OverviewStrip)
    , m_spectrogram(new SpectrogramStrip)
    , m_browser(new SessionBrowser)
    , m_annotations(new AnnotationList)
    , m_cursorLabel(new QLabel)
    , m_stateLabel(new QLabel)
    , m_rowBar(new QScrollBar(Qt::Vertical))
    , m_user(new UserAnnotations(this))
    , m_pageCombo(new QComboBox)
    , m_scaleCombo(new QComboBox)
    , m_requestTimer(new QTimer(this))
    , m_theme(Theme::light())
{
    setWindowTitle("Longview");
    setAcceptDrops(true);
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* lanes = new QHBoxLayout;
    lanes->setSpacing(0);
    lanes->addWidget(m_plot, 1);
    lanes->addWidget(m_rowBar);
    layout->addLayout(lanes, 1);
    layout->addWidget(m_spectrogram);
    layout->addWidget(m_overview);
    m_spectrogram->hide(); // View > Spectrogram
    setCentralWidget(central);
    statusBar()->addWidget(m_cursorLabel, 1);
    statusBar()->addPermanentWidget(m_stateLabel);
    m_requestTimer->setSingleShot(true);
    m_requestTimer->setInterval(0);
    connect(m_requestTimer, &QTimer::timeout, this, &MainWindow::requestFrames);

    connect(m_loader, &TraceLoader::opened, this, &MainWindow::onOpened);
    connect(m_loader, &TraceLoader::openFailed, this, &MainWindow::onOpenFailed);
    connect(m_loader, &TraceLoader::changedOnDisk, this, &MainWindow::reloadChanged);
    connect(m_loader, &TraceLoader::frameReady, m_plot, &TracePlot::showFrame);
    // Montage lanes in views too wide to sum: their envelopes' progress in the status bar, the view redrawn when
    // they are ready.
    const auto wideLanes = [this] {
        const core::RecordingInfo* shown = m_loader->displayInfo();
        const auto& lanes = m_loader->montage();
        if (!shown || !lanes || lanes->plans.empty()) return false;
        const double samples = static_cast<double>(m_view.span()) / 1e6 * shown->channels.at(lanes->first).fs;
        return samples > static_cast<double>(kFilterLimit);
    };
    connect(m_loader, &TraceLoader::laneEnvelopesReady, this, [this, wideLanes] {
        if (wideLanes()) viewChanged();
    });
    auto* envelopePoll = new QTimer(this);
    envelopePoll->setInterval(500);
    connect(envelopePoll, &QTimer::timeout, this, [this, wideLanes] {
        if (!m_loader->montage() || m_loader->laneEnvelopes() || !wideLanes()) return;
        m_loader->requestLaneEnvelopes(); // first asked for here: page turns of narrow views never share the CPU
        statusBar()->showMessage(tr("montage lanes of this wide view: computing their envelopes ... %1 %")
                                     .arg(static_cast<int>(m_loader->laneEnvelopeProgress() * 100)),
                                 1000);
    });
    envelopePoll->start();
    connect(m_loader, &TraceLoader::frameReady, this, [this](const FramePtr& frame) {
        if (!frame || frame->damage.empty()) return; // a block failed its CRC: a red "damaged" band, never data
        const QString first = QString::fromStdString(frame->damage.front());
        const int n = static_cast<int>(frame->damage.size());
        statusBar()->showMessage(n == 1 ? tr("damaged block: %1").arg(first)
                                        : tr("%1 damaged blocks, the first: %2").arg(n).arg(first),
                                 30000);
    });
    connect(m_plot, &TracePlot::frameDrawn, this, &MainWindow::onFrameDrawn);
    connect(m_plot, &TracePlot::columnsChanged, this, [this] {
        if (m_open) m_requestTimer->start();
    });
    connect(m_plot, &TracePlot::zoomRequested, this, [this](double f, qint64 t) { zoomBy(f, t); });
    connect(m_plot, &TracePlot::rangeSelected, this, [this](qint64 a, qint64 b) {
        m_selection = core::TimeRange{a, b};
        m_view.setRange({a, b});
        viewChanged();
    });
    connect(m_plot, &TracePlot::statusText, m_cursorLabel, &QLabel::setText);
    connect(m_plot, &TracePlot::scaleChanged, this, &MainWindow::showAmplitude);
    connect(m_overview, &OverviewStrip::centerRequested, this, [this](qint64 t) { centerOn(t); });
    connect(m_spectrogram, &SpectrogramStrip::centerRequested, this, [this](qint64 t) { centerOn(t); });
    connect(m_browser, &SessionBrowser::visibleChannelsChanged, this, &MainWindow::setVisibleChannels);
    connect(m_browser, &SessionBrowser::jumpRequested, this, [this](qint64 t) { goTo(t); });
    connect(m_annotations, &AnnotationList::jumpRequested, this,
            [this](qint64 t, qint64 duration) { centerOn(t + std::max<qint64>(duration, 0) / 2); });

    createDocks();
    createActions();
    createAnnotationActions();
    QSettings settings;
    if (settings.value("view/spectrogram", false).toBool()) setSpectrogramShown(true);
    m_pageLength = settings.value("view/pageLength", qint64(10'000'000)).toLongLong();
    m_themeChoice = settings.value("view/theme", "system").toString();
    followTheme();
    connect(SystemTheme::instance(), &SystemTheme::changed, this, [this] {
        if (m_themeChoice == "system") followTheme();
    });
    setTimeMode(static_cast<TimeMode>(settings.value("view/timeMode", 0).toInt()));
    resize(1280, 800); // the remembered place: restorePlacement()
    restoreState(settings.value("window/state").toByteArray());
    fitToScreen();
    for (int i = 0; i < m_pageCombo->count(); ++i)
        if (m_pageCombo->itemData(i).toLongLong() == m_pageLength) m_pageCombo->setCurrentIndex(i);
    if (const auto s = Sensitivity::parse(settings.value("view/sensitivity", "7 uV/mm").toString()))
        m_plot->setSensitivity(*s);
    applyCalibration();
    showAmplitude();
}

MainWindow::~MainWindow() { saveViewSettings(); }

// View state is written when the window closes, not as it changes: a QSettings write syncs its file (fdatasync) on
// the thread that writes it, and while a conversion filled the disk cache that held the UI thread for 190 ms.
void MainWindow::remember(const QString& key, const QVariant& value) { m_viewSettings.insert(key, value); }

QVariant MainWindow::setting(const QString& key, const QVariant& fallback) const
{
    return m_viewSettings.contains(key) ? m_viewSettings.value(key) : QSettings().value(key, fallback);
}

void MainWindow::saveViewSettings()
{
    if (m_viewSettings.isEmpty()) return;
    QSettings settings;
    for (auto it = m_viewSettings.cbegin(); it != m_viewSettings.cend(); ++it) settings.setValue(it.key(), it.value());
    m_viewSettings.clear();
}

void MainWindow::openPath(const QString& path, const QString& password)
{
    // The recording on screen stays until this one has opened: a failed open leaves it as it was.
    m_openingPath = QFileInfo(path).absoluteFilePath();
    m_openingPassword = password;
    m_reloading = false;
    m_stateLabel->setText(tr("opening %1 ...").arg(QFileInfo(path).fileName()));
    m_loader->open(m_openingPath, password, true); // a snapshot at once; checked against the files once shown
}

void MainWindow::reloadChanged(const QString& path)
{
    if (!m_open || path != m_loader->path() || path != m_openingPath) return; // not while another one opens
    const core::RecordingInfo* info = m_loader->displayInfo();                // a montage's lanes by their names too
    m_reloadRange = m_view.range();
    m_reloadShown.clear();
    for (std::size_t c : m_rows.shown()) m_reloadShown.push_back(info->channels.at(c).name);
    m_reloadFirst = m_rows.first();
    const QString password = m_password;
    closeRecording();
    m_reloading = true;
    m_openingPath = path;
    m_openingPassword = password;
    m_stateLabel->setText(tr("session changed on disk, reloading ..."));
    m_loader->open(path, password, false); // checked: reads what changed
}

void MainWindow::closeRecording()
{
    m_open = false;
    m_settled = false;
    m_checkOnDisk = false;
    m_openingPath.clear();
    m_password.clear();
    m_loader->close(); // and an open on its way
    m_plot->setRecording(nullptr, nullptr);
    m_plot->setValueLabels({});
    m_overview->setRecording(nullptr, nullptr);
    m_spectrogram->setSource(std::nullopt);
    m_browser->setRecording(nullptr, nullptr);
    m_annotations->setRecording(nullptr);
    m_user->setRecording(nullptr, {}, {});
    m_rows.setShown({});
    m_recordedShown.clear();
    updateRowBar();
    setWindowTitle("Longview");
}

void MainWindow::onOpened(const QString& path)
{
    const core::RecordingInfo* info = m_loader->info();
    m_open = true;
    m_settled = false;
    m_password = m_openingPassword;
    if (path != m_openPath) m_selection.reset(); // a reload keeps it
    m_openPath = path;
    addRecent(path);
    setWindowTitle(QFileInfo(path).fileName() + " - Longview");
    m_plot->setRecording(info, m_loader->bands());
    m_recordedShown.clear(); // the previous recording's
    m_plot->setValueLabels([session = m_loader->session()](std::size_t channel, std::int32_t count) {
        return session ? QString::fromStdString(session->recording().valueLabel(channel, count)) : QString();
    });
    m_overview->setRecording(m_loader->session(), m_loader->bands());
    m_browser->setRecording(info, m_loader->bands());
    m_annotations->setRecording(info);
    loadUserAnnotations();
    applyChannelTypes();
    applyBitViews();
    applyIrregularDrawing();
    applyDisplayFilter();
    // Level-1 access: the true start is unknown, times are relative (not remembered as the user's choice).
    m_plot->setTimeMode(info->timesKnown ? static_cast<TimeMode>(setting("view/timeMode", 0).toInt())
                                         : TimeMode::Relative);
    m_view.setBounds({info->start, info->end});
    std::vector<std::size_t> all(info->channels.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    m_rows.setShown(std::move(all));
    if (!m_reloading) m_rows.scrollTo(0); // a new recording starts at its first channel
    m_checkOnDisk = !m_reloading;
    if (m_reloading) {
        applyMontage(false);
        applyReloadedView();
        emit recordingOpened();
        emit sessionReloaded();
        return;
    }
    restoreRecordingView();
    if (!m_initial.montage.isEmpty()) { // --montage: this recording type's choice from now on
        const QString word = m_initial.montage == "referential" ? QString() : m_initial.montage;
        if (word.isEmpty() || buildChoice(word))
            remember(montageKey(), word);
        else
            statusBar()->showMessage(tr("--montage: no montage \"%1\"").arg(m_initial.montage), 10000);
    }
    applyMontage(false);
    applyInitialView();
    emit recordingOpened();
}

void MainWindow::applyReloadedView()
{
    m_reloading = false;
    const core::RecordingInfo* info = m_loader->displayInfo();
    std::vector<std::size_t> shown;
    for (const std::string& name : m_reloadShown)
        if (const int c = info->channelIndex(name); c >= 0) shown.push_back(static_cast<std::size_t>(c));
    if (!shown.empty()) m_rows.setShown(shown);
    m_rows.scrollTo(m_reloadFirst);
    m_browser->setVisibleChannels(m_rows.shown());
    m_view.setRange(m_reloadRange);
    statusBar()->showMessage(tr("session changed on disk, reloaded"), 15000);
    viewChanged();
}

void MainWindow::applyInitialView()
{
    const core::RecordingInfo* info = m_loader->displayInfo(); // --channels may name derivations
    const InitialView initial = std::exchange(m_initial, InitialView{});
    if (!initial.channels.isEmpty()) {
        std::vector<std::size_t> chosen;
        for (const QString& name : initial.channels.split(',', Qt::SkipEmptyParts)) {
            const int c = info->channelIndex(name.trimmed().toStdString());
            if (c >= 0)
                chosen.push_back(static_cast<std::size_t>(c));
            else
                statusBar()->showMessage(tr("no channel \"%1\"").arg(name), 10000);
        }
        if (!chosen.empty()) m_rows.setShown(chosen);
    }
    m_browser->setVisibleChannels(m_loader->montage() ? m_recordedShown : m_rows.shown());
    core::Uutc start = info->start;
    if (!initial.start.isEmpty()) {
        auto t = core::parseTimeArgument(initial.start.toStdString(), info->start);
        if (t)
            start = *t;
        else
            statusBar()->showMessage(tr("--start: %1").arg(QString::fromStdString(t.error().message)), 10000);
    }
    // Without signals (annotations only) nothing is paged through: the whole recording shows its annotations.
    const core::Uutc page = info->channels.empty() ? 0 : m_pageLength;
    const core::Uutc span = initial.span > 0 ? static_cast<core::Uutc>(initial.span * 1e6) : page;
    m_view.setRange({start, start + (span > 0 ? span : info->end - info->start)});
    viewChanged();
}

void MainWindow::onOpenFailed(const QString& path, const core::Error& error)
{
    m_reloading = false;
    m_openingPath = m_loader->path(); // the recording on screen, if any, stays
    m_stateLabel->setText(m_open ? tr("%1 on screen").arg(pageText()) : tr("not opened"));
    statusBar()->showMessage(tr("%1 not opened").arg(QFileInfo(path).fileName()), 15000);
    const QString message = QString::fromStdString(app::errorText(error, app::Audience::Gui));
    const bool needsPassword =
        error.code == core::ErrorCode::PasswordRequired || error.code == core::ErrorCode::WrongPassword;
    if (needsPassword && m_interactive) {
        if (const QString password = askPassword(path, error); !password.isEmpty()) return openPath(path, password);
    } else if (m_interactive) {
        QMessageBox::warning(this, tr("Cannot open"), message);
    }
    emit openFailed(message);
}

QString MainWindow::askPassword(const QString& path, const core::Error& error)
{
    const app::PasswordPrompt prompt = app::passwordPrompt(error, QFileInfo(path).fileName().toStdString());
    QInputDialog dialog(this);
    dialog.setObjectName("passwordDialog");
    dialog.setWindowTitle(QString::fromStdString(prompt.title));
    dialog.setLabelText(QString::fromStdString(prompt.text));
    dialog.setTextEchoMode(QLineEdit::Password);
    dialog.setOkButtonText(tr("Open"));
    if (auto* label = dialog.findChild<QLabel*>()) label->setWordWrap(true);
    dialog.setMinimumWidth(460);
    return dialog.exec() == QDialog::Accepted ? dialog.textValue() : QString();
}

void MainWindow::viewChanged()
{
    if (!m_open) return;
    m_settled = false;
    // Ask first (it only queues work): the frame is computed while the plot redraws what it has at the new place.
    m_requestTimer->stop();
    requestFrames();
    m_plot->setView(m_view.range(), m_rows.onScreen());
    updateRowBar();
    m_overview->setWindow(m_view.range());
    m_spectrum->setLanes(m_rows.shown());
    m_spectrum->setPage(m_view.range());
    m_spectrogram->setLanes(m_rows.shown());
    m_spectrogram->setWindow(m_view.range());
    const bool whole = m_view.range() == m_view.bounds();
    int preset = -1;
    for (int i = 0; i < m_pageCombo->count(); ++i) {
        const qint64 span = m_pageCombo->itemData(i).toLongLong();
        if ((span == 0 && whole) || (span == m_view.span() && preset < 0)) preset = i;
    }
    m_pageCombo->setPlaceholderText(formatDuration(m_view.span()));
    m_pageCombo->setCurrentIndex(preset);
    m_stateLabel->setText(tr("%1 on screen  ·  loading").arg(pageText()));
}

void MainWindow::requestFrames()
{
    if (!m_open) return;
    m_settled = false;
    m_loader->request(m_view.range(), m_rows.onScreen(), m_plot->dataColumns());
}

void MainWindow::onFrameDrawn(quint64 id, bool exact)
{
    const FramePtr frame = m_plot->frame();
    if (!exact || !frame || id != m_loader->currentId() || frame->range != m_view.range() ||
        frame->columns != m_plot->dataColumns() || m_requestTimer->isActive())
        return;
    m_settled = true;
    if (std::exchange(m_checkOnDisk, false)) m_loader->checkOnDisk(); // after the first paint, off the UI thread
    m_stateLabel->setText(
        tr("%1 on screen%2")
            .arg(pageText(), frame->error.empty() ? QString() : "  ·  " + QString::fromStdString(frame->error)));
    emit viewSettled();
}

// With View > Skip Gaps When Paging, a page that would show only a pause shows the data past it instead.
void MainWindow::pageBy(int pages)
{
    m_view.page(pages);
    const GapBands* bands = m_loader->bands();
    if (m_skipGaps && bands) m_view.setRange(skipGap(m_view.range(), bands->recording, pages));
    viewChanged();
}

void MainWindow::stepBy(double fraction)
{
    m_view.step(fraction);
    viewChanged();
}

void MainWindow::zoomBy(double factor, core::Uutc anchor)
{
    m_view.zoom(factor, anchor);
    viewChanged();
}

void MainWindow::zoomAroundCenter(double factor) { zoomBy(factor, m_view.range().start + m_view.span() / 2); }

void MainWindow::goTo(core::Uutc start)
{
    m_view.setRange({start, start + m_view.span()});
    viewChanged();
}

void MainWindow::centerOn(core::Uutc t)
{
    m_view.centerOn(t);
    viewChanged();
}

void MainWindow::jumpToAnnotation(int direction)
{
    jumpTo(m_annotations->shownTimes(), direction, tr("no further annotation"));
}

void MainWindow::jumpToGap(int direction)
{
    std::vector<core::Uutc> starts;
    if (const GapBands* bands = m_loader->bands())
        for (const core::TimeRange& g : bands->recording) starts.push_back(g.start);
    jumpTo(starts, direction, tr("no further gap"));
}

// From the view's centre, or from the time last jumped to while the view has not moved since (at the recording's
// ends the view cannot centre on it, and the next jump would find the same time again).
void MainWindow::jumpTo(const std::vector<core::Uutc>& times, int direction, const QString& none)
{
    if (!m_open) return;
    const core::TimeRange range = m_view.range();
    const core::Uutc from =
        m_lastJump && m_lastJump->second == range ? m_lastJump->first : range.start + range.duration() / 2;
    const std::optional<core::Uutc> t = nextTime(times, from, direction);
    if (!t) {
        statusBar()->showMessage(none, 5000);
        return;
    }
    centerOn(*t);
    m_lastJump = {*t, m_view.range()};
}

// The page whose width on screen runs at `mmPerSecond`: the data area's width in millimetres over the speed.
void MainWindow::setTimebase(double mmPerSecond)
{
    const double widthMm =
        static_cast<double>(m_plot->dataColumns()) / m_plot->devicePixelRatioF() / m_plot->pixelsPerMillimetre();
    if (!(mmPerSecond > 0) || !(widthMm > 0)) return;
    setPageLength(static_cast<core::Uutc>(std::llround(widthMm / mmPerSecond * 1e6)));
}

// A window no larger than the screen's free area (a remembered or default size from a larger screen, or another
// scale factor, would open partly off screen), and on it.
void MainWindow::fitToScreen()
{
    const QScreen* s = screen();
    if (!s) return;
    const QRect free = s->availableGeometry();
    const QSize frame = frameGeometry().size() - geometry().size(); // the title bar and borders, once shown
    QRect g = geometry();
    g.setSize(g.size().boundedTo(free.size() - frame));
    g.moveLeft(std::clamp(g.left(), free.left(), free.left() + free.width() - g.width() - frame.width()));
    g.moveTop(std::clamp(g.top(), free.top(), free.top() + free.height() - g.height() - frame.height()));
    setGeometry(g);
}

void MainWindow::setPageLength(core::Uutc span)
{
    m_pageLength = span;
    remember("view/pageLength", QVariant::fromValue<qint64>(span));
    for (int i = 0; i < m_pageCombo->count(); ++i)
        if (m_pageCombo->itemData(i).toLongLong() == span) {
            m_pageCombo->setCurrentIndex(i);
            m_pageGroup->actions().at(i)->setChecked(true);
        }
    if (!m_open) return;
    if (span <= 0)
        m_view.setRange(m_view.bounds());
    else
        m_view.setSpan(span);
    viewChanged();
}

void MainWindow::setVisibleChannels(const std::vector<std::size_t>& channels)
{
    if (m_loader->montage()) { // the recorded channels' choice, for when the montage goes
        m_recordedShown = channels;
        m_browser->setVisibleChannels(channels);
        saveRecordingView();
        return;
    }
    m_rows.setShown(channels);
    m_browser->setVisibleChannels(channels);
    saveRecordingView();
    viewChanged();
}

bool MainWindow::setAmplitudeText(const QString& text)
{
    const std::optional<Sensitivity> s = Sensitivity::parse(text);
    if (!s) {
        showAmplitude(); // back to what is shown
        return false;
    }
    m_plot->setSensitivity(*s);
    remember("view/sensitivity", s->text());
    return true;
}

void MainWindow::showAmplitude() { m_scaleCombo->setEditText(m_plot->sensitivity().text()); }

// The page's length and, as EDFbrowser shows it, its timebase on this screen: "10 s (29 mm/s)".
QString MainWindow::pageText() const
{
    const double speed = m_plot->millimetresPerSecond();
    const QString span = formatDuration(m_view.span());
    if (!(speed > 0)) return span;
    return QString("%1 (%2 mm/s)").arg(span, QString::number(speed, 'g', speed >= 10 ? 3 : 2));
}

void MainWindow::setTimeMode(TimeMode mode)
{
    m_plot->setTimeMode(mode);
    remember("view/timeMode", static_cast<int>(mode));
}

void MainWindow::setThemeName(const QString& name)
{
    m_themeChoice = name == "light" || name == "dark" ? name : QStringLiteral("system");
    followTheme();
    remember("view/theme", m_themeChoice);
    if (QAction* a = findChild<QAction*>("theme-" + m_themeChoice)) a->setChecked(true);
}

void MainWindow::applyTheme(const Theme& theme)
{
    m_theme = theme;
    qApp->setStyle(QStyleFactory::create("Fusion"));
    qApp->setPalette(theme.palette);
    m_plot->setTheme(theme);
    m_overview->setTheme(theme);
    m_spectrogram->setTheme(theme);
}

void MainWindow::askGoTo()
{
    const core::RecordingInfo* info = m_loader->info();
    if (!info) return;
    // Asked again, with the reason and the text as typed, until it reads or is cancelled.
    QString text = QString::fromStdString(core::formatIso(m_view.range().start)), problem;
    while (true) {
        bool ok = false;
        const QString ask = tr("Time (UTC): seconds from the start, hh:mm:ss (\"1 00:57:50\": the next day), date "
                               "and time, ISO 8601 or +SECONDS");
        text = QInputDialog::getText(this, tr("Go to Time"), problem.isEmpty() ? ask : problem + "\n\n" + ask,
                                     QLineEdit::Normal, text, &ok);
        if (!ok) return;
        const auto t = parseTimeEntry(text, info->start);
        if (t) return goTo(*t);
        problem = QString::fromStdString(t.error().message);
    }
}

void MainWindow::exportRecording() { openConvertDialog(); }

ConvertDialog* MainWindow::openConvertDialog()
{
    const core::RecordingInfo* info = m_loader->info();
    if (!m_open || !info) return nullptr;
    auto* dialog =
        new ConvertDialog({m_openPath, m_password, *info, m_loader->montage() ? m_recordedShown : m_rows.shown(),
                           m_view.range(), m_selection, montageChoice(), savedMontages()},
                          this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setInteractive(m_interactive);
    dialog->show();
    return dialog;
}

void MainWindow::mergeRecordings(const QStringList& inputs)
{
    auto* dialog = new MergeDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addInputs(inputs);
    dialog->show();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    if (event->modifiers() & Qt::ControlModifier) { // Ctrl+drop: files and folders into the conversion queue
        findChild<QDockWidget*>("queueDock")->show();
        return m_queue->addInputs(paths);
    }
    openPaths(paths);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_queue->isRunning()) { // ask; cancelling closes the window once the jobs have ended (nothing left)
        if (m_closeAfterQueue) return event->ignore();
        const int running = m_queue->unfinishedCount();
        bool cancel = false;
        if (m_closeQuestion) {
            cancel = m_closeQuestion(running);
        } else {
            QMessageBox box(QMessageBox::Question, tr("Conversions running"),
                            tr("%1 conversion(s) of the queue have not finished.").arg(running), QMessageBox::NoButton,
                            this);
            box.setInformativeText(tr("Cancelled conversions leave no output."));
            QPushButton* stop = box.addButton(tr("Cancel Them and Close"), QMessageBox::DestructiveRole);
            box.setDefaultButton(box.addButton(tr("Keep Running"), QMessageBox::RejectRole));
            box.exec();
            cancel = box.clickedButton() == stop;
        }
        event->ignore();
        if (!cancel) return;
        m_closeAfterQueue = true;
        connect(m_queue, &ConversionQueue::runFinished, this, &QWidget::close, Qt::QueuedConnection);
        m_queue->cancelAll();
        return;
    }
    savePlacement();
    remember("window/state", saveState());
    saveViewSettings();
    QMainWindow::closeEvent(event);
}

} // namespace lv::widgets
