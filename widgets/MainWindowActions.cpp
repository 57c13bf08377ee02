// MainWindow's menus, toolbar, docks and recent-files list: every action and the control it drives.
#include "MainWindow.h"

#include "SpectrumDock.h"

#include "AnnotationList.h"
#include "CalibrationDialog.h"
#include "ConversionQueue.h"
#include "FileFilters.h"
#include "ScreenCalibration.h"
#include "SessionBrowser.h"
#include "TimeMode.h"
#include "TraceLoader.h"
#include "TracePlot.h"

#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QWindow>
#include <tuple>

namespace lv::widgets {

const std::vector<std::pair<QString, core::Uutc>>& pageLengthPresets()
{
    static const std::vector<std::pair<QString, core::Uutc>> presets = {
        {"1 s", 1'000'000},       {"2 s", 2'000'000},       {"5 s", 5'000'000},
        {"10 s", 10'000'000},     {"15 s", 15'000'000},     {"20 s", 20'000'000},
        {"30 s", 30'000'000},     {"1 min", 60'000'000},    {"2 min", 120'000'000},
        {"5 min", 300'000'000},   {"10 min", 600'000'000},  {"30 min", 1'800'000'000},
        {"1 h", 3'600'000'000},   {"2 h", 7'200'000'000},   {"6 h", 21'600'000'000},
        {"12 h", 43'200'000'000}, {"24 h", 86'400'000'000}, {QObject::tr("whole recording"), 0}};
    return presets;
}

const QStringList& amplitudePresets()
{
    static const QStringList presets = [] {
        QStringList p{QStringLiteral("Auto")};
        for (int v : {1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 200, 500}) p << QString("%1 uV/mm").arg(v);
        for (double units : {0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0,
                             5000.0, 10000.0, 20000.0})
            p << QString::number(units, 'g', 6);
        return p;
    }();
    return presets;
}

void MainWindow::createDocks()
{
    auto* browserDock = new QDockWidget(tr("Session"), this);
    browserDock->setObjectName("sessionDock");
    browserDock->setWidget(m_browser);
    addDockWidget(Qt::LeftDockWidgetArea, browserDock);
    auto* annotationDock = new QDockWidget(tr("Annotations"), this);
    annotationDock->setObjectName("annotationDock");
    annotationDock->setWidget(m_annotations);
    addDockWidget(Qt::LeftDockWidgetArea, annotationDock);
    resizeDocks({browserDock}, {330}, Qt::Horizontal);
    auto* queueDock = new QDockWidget(tr("Conversion Queue"), this);
    queueDock->setObjectName("queueDock");
    m_queue = new ConversionQueue;
    queueDock->setWidget(m_queue);
    addDockWidget(Qt::BottomDockWidgetArea, queueDock);
    queueDock->hide(); // View > Conversion Queue shows it
    m_spectrum = new SpectrumDock(m_loader, this);
    addDockWidget(Qt::RightDockWidgetArea, m_spectrum);
    m_spectrum->hide(); // View > Spectrum shows it
    connect(m_plot, &TracePlot::rangeSelected, m_spectrum, [this](qint64 a, qint64 b) {
        m_spectrum->setSelection(core::TimeRange{a, b});
    });
    connect(m_queue, &ConversionQueue::openRequested, this, [this](const QString& path) { openPath(path); });
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFile = file->addAction(tr("&Open File..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open recording"), QString(), recordingFileFilter());
        if (!path.isEmpty()) openPath(path);
    });
    openFile->setObjectName("openFile");
    openFile->setShortcut(QKeySequence::Open);
    QAction* openDir =
        file->addAction(tr("Open &Session Folder (%1)...").arg(recordingFolderExtensions()), this, [this] {
            const QString path =
                QFileDialog::getExistingDirectory(this, tr("Open a %1 folder").arg(recordingFolderNames()));
            if (!path.isEmpty()) openPath(path);
        });
    openDir->setObjectName("openFolder");
    openDir->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addAction(tr("&Close"), QKeySequence::Close, this, &MainWindow::closeRecording);
    file->addSeparator();
    file->addAction(tr("&Export/Convert..."), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportRecording);
    QAction* page = new QAction(tr("Export Page as &Image..."), this);
    page->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(page, &QAction::triggered, this, [this] {
        if (!m_interactive || !m_open) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Page as Image"), m_openPath + ".png",
                                                          tr("PNG image (*.png);;PDF (*.pdf)"));
        if (path.isEmpty()) return;
        bool ok = false;
        const QString size = QInputDialog::getText(this, tr("Image Size"), tr("Width x height in pixels:"),
                                                   QLineEdit::Normal, "1920x1080", &ok);
        const QStringList wh = size.split('x');
        if (ok && wh.size() == 2 && wh[0].toInt() >= 200 && wh[1].toInt() >= 150 && wh[0].toInt() <= 20000 &&
            wh[1].toInt() <= 20000)
            exportPage(path, QSize(wh[0].toInt(), wh[1].toInt()));
    });
    file->addAction(page);
    connect(this, &MainWindow::pageExported, this, [this](const QString& path, const QString& error) {
        statusBar()->showMessage(error.isEmpty() ? tr("page saved to %1").arg(path) : error, 15000);
    });
    file->addAction(tr("&Merge..."), this, [this] { mergeRecordings(); });
    file->addSeparator();
    // Off (the default), a later launch hands its files to this window. Written at once: read by the next launch.
    QAction* several = file->addAction(tr("Allow Several &Windows"));
    several->setObjectName("severalWindows");
    several->setCheckable(true);
    several->setChecked(QSettings().value("app/severalWindows", false).toBool());
    connect(several, &QAction::toggled, this, [](bool on) { QSettings().setValue("app/severalWindows", on); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* pages = view->addMenu(tr("Page &Length"));
    m_pageCombo->setObjectName("pageLength");
    m_pageGroup = new QActionGroup(this);
    for (const auto& [name, span] : pageLengthPresets()) {
        QAction* a = pages->addAction(name, this, [this, span = span] { setPageLength(span); });
        a->setCheckable(true);
        m_pageGroup->addAction(a);
        m_pageCombo->addItem(name, QVariant::fromValue<qint64>(span));
    }
    QMenu* timebase = view->addMenu(tr("&Timebase"));
    for (int speed : {15, 30, 60}) // mm/s, as paper EEG ran
        timebase->addAction(tr("%1 mm/s").arg(speed), this, [this, speed] { setTimebase(speed); });
    timebase->addSeparator();
    timebase->addAction(tr("&Calibrate Screen..."), this, &MainWindow::calibrateScreen);
    connect(m_pageCombo, &QComboBox::activated, this,
            [this](int i) { setPageLength(m_pageCombo->itemData(i).toLongLong()); });
    QAction* next = view->addAction(tr("&Next Page"), QKeySequence(Qt::Key_PageDown), this, [this] { pageBy(1); });
    QAction* prev = view->addAction(tr("&Previous Page"), QKeySequence(Qt::Key_PageUp), this, [this] { pageBy(-1); });
    view->addAction(tr("Step &Forward"), QKeySequence(Qt::Key_Right), this, [this] { stepBy(0.1); });
    view->addAction(tr("Step &Back"), QKeySequence(Qt::Key_Left), this, [this] { stepBy(-0.1); });
    view->addAction(tr("To the &Start"), QKeySequence(Qt::Key_Home), this, [this] { goTo(m_view.bounds().start); });
    view->addAction(tr("To the &End"), QKeySequence(Qt::Key_End), this, [this] { goTo(m_view.bounds().end); });
    QAction* zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] { zoomAroundCenter(0.5); });
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] { zoomAroundCenter(2); });
    // Ctrl+= as well as Ctrl++ (which needs Shift on most layouts); zoom out is Ctrl+- already (a second binding of
    // the same keys would make the shortcut ambiguous, and Qt then runs neither).
    zoomIn->setShortcuts({QKeySequence(QKeySequence::ZoomIn), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    view->addAction(tr("&Go to Time..."), QKeySequence(Qt::CTRL | Qt::Key_G), this, &MainWindow::askGoTo);
    view->addAction(tr("Next A&nnotation"), QKeySequence(Qt::Key_N), this, [this] { jumpToAnnotation(1); });
    view->addAction(tr("Previous Annotation"), QKeySequence(Qt::SHIFT | Qt::Key_N), this,
                    [this] { jumpToAnnotation(-1); });
    view->addAction(tr("Next Ga&p"), QKeySequence(Qt::Key_G), this, [this] { jumpToGap(1); });
    view->addAction(tr("Previous Gap"), QKeySequence(Qt::SHIFT | Qt::Key_G), this, [this] { jumpToGap(-1); });
    view->addSeparator();
    QAction* autoScale =
        view->addAction(tr("&Auto-scale Amplitude"), QKeySequence(Qt::Key_A), m_plot, &TracePlot::autoScale);
    view->addAction(tr("Amplitude &Up"), QKeySequence(Qt::Key_Up), this,
                    [this] { m_plot->setGain(m_plot->gain() * 1.25); });
    view->addAction(tr("Amplitude &Down"), QKeySequence(Qt::Key_Down), this,
                    [this] { m_plot->setGain(m_plot->gain() / 1.25); });
    view->addAction(tr("Sensitivity by Channel &Type..."), this, &MainWindow::editTypeSensitivities);
    QAction* clip = view->addAction(tr("&Clip Traces to Their Lanes"));
    clip->setObjectName("clipAction");
    clip->setCheckable(true);
    clip->setChecked(setting("view/clipToLanes", true).toBool());
    m_plot->setClipToLanes(clip->isChecked());
    connect(clip, &QAction::toggled, this, [this](bool on) {
        m_plot->setClipToLanes(on);
        remember("view/clipToLanes", on);
    });
    QAction* skip = view->addAction(tr("&Skip Gaps When Paging"));
    skip->setObjectName("skipGapsAction");
    skip->setCheckable(true);
    skip->setChecked(setting("view/skipGaps", false).toBool());
    m_skipGaps = skip->isChecked();
    connect(skip, &QAction::toggled, this, [this](bool on) {
        m_skipGaps = on;
        remember("view/skipGaps", on);
    });
    createIrregularActions(view);
    createFilterActions(view);
    createMontageActions(view);
    view->addAction(tr("Clear &Cursors"), QKeySequence(Qt::Key_Escape), m_plot, &TracePlot::clearCursors);
    view->addSeparator();
    createRowActions(view);
    QMenu* time = view->addMenu(tr("&Time Axis"));
    auto* timeGroup = new QActionGroup(this);
    QSettings settings;
    const int savedMode = settings.value("view/timeMode", 0).toInt();
    for (auto [name, mode] :
         {std::pair{tr("Wall Clock (&UTC)"), TimeMode::Utc}, std::pair{tr("Wall Clock (&Local)"), TimeMode::Local},
          std::pair{tr("&Relative to Start"), TimeMode::Relative}}) {
        QAction* a = time->addAction(name, this, [this, mode = mode] { setTimeMode(mode); });
        a->setCheckable(true);
        a->setChecked(static_cast<int>(mode) == savedMode);
        timeGroup->addAction(a);
    }
    QMenu* themes = view->addMenu(tr("T&heme"));
    auto* themeGroup = new QActionGroup(this);
    for (const auto& [name, text] :
         {std::pair{QStringLiteral("system"), tr("&System")}, std::pair{QStringLiteral("light"), tr("&Light")},
          std::pair{QStringLiteral("dark"), tr("&Dark")}}) {
        QAction* a = themes->addAction(text, this, [this, name = name] { setThemeName(name); });
        a->setCheckable(true);
        a->setChecked(settings.value("view/theme", "system").toString() == name);
        a->setObjectName("theme-" + name);
        themeGroup->addAction(a);
    }
    QAction* queue = findChild<QDockWidget*>("queueDock")->toggleViewAction();
    queue->setText(tr("Conversion &Queue"));
    queue->setObjectName("conversionQueue");
    view->addAction(queue);
    QAction* spectrum = m_spectrum->toggleViewAction();
    spectrum->setText(tr("S&pectrum"));
    spectrum->setObjectName("spectrumAction");
    spectrum->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    view->addAction(spectrum);
    QAction* spectrogram = view->addAction(tr("Spectro&gram"), this, [this](bool on) { setSpectrogramShown(on); });
    spectrogram->setObjectName("spectrogramAction");
    spectrogram->setCheckable(true);
    spectrogram->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_docksMenu = view->addMenu(tr("&Docks"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) m_docksMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Longview"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* bar = addToolBar(tr("Navigation"));
    bar->setObjectName("navigationBar");
    bar->addAction(openFile);
    bar->addSeparator();
    bar->addAction(prev);
    bar->addAction(next);
    bar->addAction(zoomIn);
    bar->addAction(zoomOut);
    bar->addWidget(new QLabel(tr(" Page: ")));
    bar->addWidget(m_pageCombo);
    bar->addWidget(new QLabel(tr(" Amplitude: ")));
    m_scaleCombo->setEditable(true);
    m_scaleCombo->setInsertPolicy(QComboBox::NoInsert);
    m_scaleCombo->setObjectName("amplitudeCombo");
    m_scaleCombo->setToolTip(tr("Sensitivity, common to the channels of a unit: per millimetre of screen (7 uV/mm, "
                                "70 uV/cm), per division (50 uV/div: the spacing between two traces; a plain number "
                                "is each channel's own unit), or Auto (each channel fitted to the page). Ctrl+wheel: "
                                "all channels; Ctrl+Shift+wheel: one."));
    m_scaleCombo->addItems(amplitudePresets());
    m_scaleCombo->setMinimumContentsLength(9);
    connect(m_scaleCombo, &QComboBox::activated, this, [this](int i) { setAmplitudeText(m_scaleCombo->itemText(i)); });
    connect(m_scaleCombo->lineEdit(), &QLineEdit::editingFinished, this,
            [this] { setAmplitudeText(m_scaleCombo->currentText()); });
    bar->addWidget(m_scaleCombo);
    bar->addAction(autoScale);
    m_docksMenu->addAction(bar->toggleViewAction());
}

QStringList MainWindow::recentFiles() const { return QSettings().value("recentFiles").toStringList(); }

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    for (const QString& path : recentFiles()) m_recentMenu->addAction(path, this, [this, path] { openPath(path); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::addRecent(const QString& path)
{
    QStringList list = recentFiles();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecent) list.removeLast();
    QSettings().setValue("recentFiles", list);
    updateRecentMenu();
}

// View > Timebase > Calibrate Screen...: the ruler dialog, shown (not run: the UI thread never waits on it).
CalibrationDialog* MainWindow::calibrateScreen()
{
    const QScreen* s = screen();
    auto* dialog = new CalibrationDialog(m_plot->pixelsPerMillimetre(), s ? s->availableGeometry().width() : 0, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        remember(calibrationKey(screen()), dialog->pixelsPerMillimetre());
        applyCalibration();
    });
    dialog->open();
    return dialog;
}

// The calibration remembered for the window's screen (none: the size the screen reports).
void MainWindow::applyCalibration()
{
    m_plot->setPixelsPerMillimetre(setting(calibrationKey(screen()), 0.0).toDouble());
    if (m_open) m_stateLabel->setText(tr("%1 on screen").arg(pageText()));
}

// The calibration follows the window to another screen.
void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_screenFollowed || !windowHandle()) return;
    m_screenFollowed = true;
    connect(windowHandle(), &QWindow::screenChanged, this, [this] { applyCalibration(); });
}

void MainWindow::exportPage(const QString& path, QSize size)
{
    m_plot->exportPage(path, size, [this, path](const QString& error) { emit pageExported(path, error); });
}

// Irregular channels (samples at their own times) are drawn as steps (the default) or points; a step never bridges
// a pause longer than so many median intervals (default core::kIrregularGapFactor). Remembered for every recording.
void MainWindow::createIrregularActions(QMenu* view)
{
    QMenu* menu = view->addMenu(tr("&Irregular Channels"));
    IrregularDrawing drawing;
    drawing.points = setting("view/irregularPoints", false).toBool();
    const double factor = setting("view/irregularMaxGap", core::kIrregularGapFactor).toDouble();
    drawing.maxGapFactor = factor > 0 ? factor : core::kIrregularGapFactor;
    m_loader->setIrregularDrawing(drawing);
    auto* group = new QActionGroup(this);
    for (auto [name, points, object] : {std::tuple{tr("Draw as &Steps"), false, "irregularStepsAction"},
                                        std::tuple{tr("Draw as &Points"), true, "irregularPointsAction"}}) {
        QAction* a = menu->addAction(name);
        a->setObjectName(object);
        a->setCheckable(true);
        a->setChecked(drawing.points == points);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, points = points] {
            IrregularDrawing d = m_loader->irregularDrawing();
            if (d.points == points) return;
            d.points = points;
            m_loader->setIrregularDrawing(d);
            remember("view/irregularPoints", points);
            requestFrames();
        });
    }
    QAction* gap = menu->addAction(tr("Break Steps &Longer Than..."));
    gap->setObjectName("irregularMaxGapAction");
    connect(gap, &QAction::triggered, this, [this] {
        IrregularDrawing d = m_loader->irregularDrawing();
        bool ok = false;
        const double factor = QInputDialog::getDouble(
            this, tr("Irregular Channels"),
            tr("A step holds a value until the next sample; it stops where samples are more than this many median "
               "intervals apart:"),
            d.maxGapFactor, 1.0, 1e6, 1, &ok);
        if (!ok || factor == d.maxGapFactor) return;
        d.maxGapFactor = factor;
        m_loader->setIrregularDrawing(d);
        remember("view/irregularMaxGap", factor);
        requestFrames();
    });
}

} // namespace lv::widgets
