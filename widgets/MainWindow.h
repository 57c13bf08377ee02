// The viewer's main window: menus and toolbar, the stacked plot with its overview strip, session and annotation
// docks; opens recordings (dialog, argument, drop; a Ctrl+drop queues them for conversion), keeps recent files, layout,
// page length and theme (QSettings), and turns paging, zooming and jumps into TraceLoader requests.
#pragma once

#include "ChannelRows.h"
#include "Theme.h"
#include "TimeMode.h"
#include "TraceFrame.h"
#include "ViewState.h"

#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "core/Time.h"
#include "montage/BuiltinMontages.h"

#include <QMainWindow>
#include <QString>
#include <QVariantMap>
#include <functional>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QMenu;
class QScrollBar;
class QTimer;

namespace lv::widgets {

class AboutDialog;
class AnnotationDialog;
class AnnotationList;
class CalibrationDialog;
class ConversionQueue;
class ConvertDialog;
class MontageEditor;
class OverviewStrip;
class SessionBrowser;
class SpectrogramStrip;
class SpectrumDock;
class TraceLoader;
class TracePlot;
class TypeSensitivityDialog;
class UserAnnotations;

// How the window first shows a recording (the GUI's command line).
struct InitialView {
    QString start;        // time argument (uUTC, ISO 8601, +SECONDS); empty: the recording's start
    double span = 0;      // seconds; 0: the remembered page length
    QString channels;     // comma-separated names (channels, or a montage's derivations); empty: all
    QString montage = {}; // MainWindow::setMontage's words; empty: the one remembered for the recording's format
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int kMaxRecent = 10;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openPath(const QString& path, const QString& password = {});
    // Files from the command line, a later launch or the desktop: one opens, several are offered for merging (as a
    // drop of several is).
    void openPaths(const QStringList& paths);
    void bringToFront(); // shown, raised and activated (a later launch handed its files over)
    // The remembered screen and rectangle, clamped into that screen's free area (the primary screen's when it is
    // gone). The GUI asks for it, except for screenshots; written when the window closes.
    void restorePlacement();
    void setInitialView(const InitialView& view) { m_initial = view; }
    // "system" (the default: the desktop's light or dark scheme, followed as it changes), "light" or "dark".
    void setThemeName(const QString& name);
    QString themeChoice() const { return m_themeChoice; }
    void setInteractive(bool on) { m_interactive = on; } // false: no dialogs (screenshots, tests)
    // Asked when the window closes while queue jobs run: true cancels them (the window closes once they have
    // ended, leaving nothing), false keeps the window and the jobs. The default is a message box.
    void setCloseQuestion(std::function<bool(int running)> ask) { m_closeQuestion = std::move(ask); }

    // Navigation, as the keys and menus do it.
    void pageBy(int pages);
    void stepBy(double fraction);
    void zoomBy(double factor, core::Uutc anchor);
    void zoomAroundCenter(double factor);
    // View > Go to Time...: asks (again, with the reason, after a time that does not read) and goes there.
    void askGoTo();
    void goTo(core::Uutc start);
    void centerOn(core::Uutc t);
    void setPageLength(core::Uutc span); // 0: the whole recording
    // The view centred on the next (direction > 0) or previous annotation the list's filter shows, or gap start.
    void jumpToAnnotation(int direction);
    void jumpToGap(int direction);
    void setTimebase(double mmPerSecond); // the page length that runs at this speed on this screen
    // View > Timebase > Calibrate Screen...: a ruler dialog, shown; accepted, its pixels per millimetre are used
    // on this screen from then on (remembered per screen).
    CalibrationDialog* calibrateScreen();
    void fitToScreen(); // size and place within the screen's free area
    // The user's own annotations (Edit menu, M, a double-click on the traces, the annotations dock): a dialog to
    // add one at `t` (on `channel`, else the whole recording) or edit one (an index of userAnnotations()), shown;
    // nullptr when nothing is open or the sidecar did not load.
    AnnotationDialog* addAnnotationAt(core::Uutc t, std::optional<std::size_t> channel = std::nullopt);
    AnnotationDialog* editAnnotation(int index);
    UserAnnotations* userAnnotations() const { return m_user; }
    // File > Export Page as Image...: the page as shown (labels, scale bars, time axis) as PNG or PDF of `size`;
    // pageExported follows.
    void exportPage(const QString& path, QSize size);
    void setVisibleChannels(const std::vector<std::size_t>& channels);
    // Every channel's amplitude, as Sensitivity::parse reads it: "7 uV/mm" (the default), "70 uV/cm", "50 uV/div",
    // "50" (each channel's own unit per division) or "Auto". False when the text is none of them.
    bool setAmplitudeText(const QString& text);
    // View > Filter: the display filter of every EEG, EOG, EMG and ECG channel, in filter::parseFilterSpec's words
    // ("hp=0.5,lp=70,notch=50"; "" for none), remembered for every recording. False when the text is no filter.
    bool setDisplayFilter(const QString& spec);
    QString displayFilter() const;
    // View > Montage (F1-F12): the lanes drawn. "" (or "referential"): the channels as recorded; "double-banana",
    // "transverse", "average": built from the recording's electrode names (the average leaves out the channels
    // hidden as recorded); "saved:NAME": one of savedMontages(). Remembered for recordings of this format. False
    // when the choice is none of them.
    bool setMontage(const QString& choice);
    QString montageChoice() const; // for the open recording's format (EDF and EDF+ are one, BDF another)
    // The user's montages (the editor's, imported files), F5-F12 in the menu; saving one of the same name replaces it.
    std::vector<montage::Montage> savedMontages() const;
    void saveMontage(const montage::Montage& montage);
    // View > Montage > Import Montage File...: read in the background (EDFbrowser's .mtg or Longview's JSON),
    // saved and shown; montageImported follows.
    void importMontage(const QString& path);
    // View > Montage > Edit Montages...: the editor on the montage shown (the double banana when none), shown;
    // accepted, saved and shown. nullptr when nothing is open.
    MontageEditor* editMontage();

    TracePlot* plot() const { return m_plot; }
    TraceLoader* loader() const { return m_loader; }
    SessionBrowser* browser() const { return m_browser; }
    AnnotationList* annotations() const { return m_annotations; }
    OverviewStrip* overview() const { return m_overview; }
    ConversionQueue* queue() const { return m_queue; }
    SpectrumDock* spectrum() const { return m_spectrum; }           // View > Spectrum
    SpectrogramStrip* spectrogram() const { return m_spectrogram; } // View > Spectrogram, under the plot
    void setSpectrogramShown(bool on);                              // remembered
    // File > Export/Convert...: a ConvertDialog on the open recording (nullptr when none is open), shown.
    ConvertDialog* openConvertDialog();
    AboutDialog* showAbout(); // Help > About Longview: the dialog (one at a time), shown
    // The range last dragged on the plot (the view zooms to it; the Convert dialog offers it), until the next open.
    std::optional<core::TimeRange> selectedRange() const { return m_selection; }
    QComboBox* amplitudeCombo() const { return m_scaleCombo; }
    const ViewState& view() const { return m_view; }
    const std::vector<std::size_t>& visibleChannels() const { return m_rows.shown(); }
    // View > Channels per Screen (0: all) and the vertical scrolling over the shown channels: the scroll bar beside
    // the plot, the wheel over the labels, Shift+PgDn/Shift+PgUp a screen of channels.
    const ChannelRows& rows() const { return m_rows; }
    void setRowsPerScreen(int rows);
    void scrollRows(int rows); // by so many rows (negative: up)
    QScrollBar* rowBar() const { return m_rowBar; }
    // A channel's type (Session dock: context menu > Channel Type), which colours its trace; remembered for this
    // recording (its path and start) and applied when it is opened again.
    void setChannelType(std::size_t channel, core::ChannelType type);
    // Polarity (Session dock: context menu > Invert Polarity). The shown channels in their order, the inverted
    // ones and each channel's own amplitude factor are remembered for the recording and restored on reopening.
    void setInverted(std::size_t channel, bool inverted);
    // Offset (Session dock: context menu > Offset...): the trace drawn this much above its lane's centre, in the
    // channel's unit; remembered with the rest of the recording's view.
    void setChannelOffset(std::size_t channel, double offset);
    // Session dock: context menu > Show As: a channel's counts as values, or as BioSemi trigger (bits 0-15) or status
    // bits (16-23); a BDF channel named "Status" shows its trigger code by default. Remembered per recording.
    void setBitView(std::size_t channel, BitView view);
    // Session dock: context menu > Draw Samples As: an irregular channel drawn as steps (0) or points (1) whatever
    // View > Irregular Channels says, or as it says (-1). Remembered per recording.
    void setIrregularDrawing(const std::vector<std::size_t>& channels, int points);
    // View > Sensitivity by Channel Type...: a dialog, shown; accepted, each type's sensitivity is applied and
    // remembered for every recording.
    TypeSensitivityDialog* editTypeSensitivities();
    bool isSettled() const { return m_settled; }
    QString themeName() const { return m_theme.name; } // the theme shown: "light" or "dark"
    QStringList recentFiles() const;

signals:
    void pageExported(const QString& path, const QString& error); // error empty: written
    void recordingOpened();
    void openFailed(const QString& message);
    void viewSettled(); // the exact frame of the current view, at the current size, has been drawn
    void montageImported(const QString& path, const QString& error); // error empty: imported and shown
    void sessionReloaded(); // the session changed on disk after it was shown: opened again, same view

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void createActions();
    void createRowActions(QMenu* view);       // View > Channels per Screen, and scrolling through the channels
    void createAnnotationActions();           // the Edit menu: undo, redo, the user's annotations
    void createIrregularActions(QMenu* view); // View > Irregular Channels: steps or points, the longest step
    void createFilterActions(QMenu* view);    // View > Filter: off, the common EEG filters, a spec of one's own
    void createMontageActions(QMenu* view);   // View > Montage: as recorded, built in, saved (F1-F12)
    void updateMontageMenu();
    // The remembered montage of this recording type onto loader, plot and rows; with `refresh` frames are asked for.
    void applyMontage(bool refresh = true);
    void updateSpectrogramSource(); // the open recording, its montage and the pyramid's file, onto the strip
    QString montageKey() const;
    std::optional<montage::MontageBuild> buildChoice(const QString& choice) const;
    void loadUserAnnotations();
    AnnotationDialog* openAnnotationDialog(const core::Annotation& initial, int index);
    void createDocks();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void onOpened(const QString& path);
    void onOpenFailed(const QString& path, const core::Error& error);
    void remember(const QString& key, const QVariant& value); // a view setting, written at close
    QVariant setting(const QString& key, const QVariant& fallback) const;
    void saveViewSettings();
    QString askPassword(const QString& path, const core::Error& error); // empty: cancelled
    void applyInitialView();
    void applyReloadedView();
    void reloadChanged(const QString& path); // the open session changed on disk: open it again, checked
    void viewChanged();                      // the window moved: plot axes now, a frame request soon
    void requestFrames();
    void onFrameDrawn(quint64 id, bool exact);
    void setTimeMode(TimeMode mode);
    void showAmplitude(); // the combo follows the plot's scale
    QString pageText() const;
    void jumpTo(const std::vector<core::Uutc>& times, int direction, const QString& none);
    void applyTheme(const Theme& theme);
    void followTheme(); // m_themeChoice applied (the system's scheme for "system")
    void savePlacement();
    void applyCalibration();      // the screen's remembered calibration, or its reported size
    void updateRowBar();          // the scroll bar's range and place from m_rows
    QString recordingKey() const; // "recordings/<hash of the open recording's path and start>"
    void applyChannelTypes();     // the remembered types of the open recording, onto the plot and the browser
    void applyIrregularDrawing(); // the recording's remembered steps or points per channel, onto the loader
    void applyBitViews();         // BioSemi Status as its trigger code, or the remembered choice, onto loader and plot
    void applyDisplayFilter();    // the remembered filter onto the loader (channels of voltage types) and the labels
    void askChannelOffset(const std::vector<std::size_t>& channels);
    void saveRecordingView();    // the shown channels, inversions, channel factors and offsets, remembered
    void restoreRecordingView(); // and put back after an open
    void closeRecording();
    void exportRecording();
    void mergeRecordings(const QStringList& inputs = {}); // File > Merge... or a drop of several: a MergeDialog

    TraceLoader* m_loader;
    TracePlot* m_plot;
    OverviewStrip* m_overview;
    SpectrogramStrip* m_spectrogram;
    SessionBrowser* m_browser;
    AnnotationList* m_annotations;
    QLabel* m_cursorLabel;
    QLabel* m_stateLabel;
    QScrollBar* m_rowBar;
    UserAnnotations* m_user;
    QComboBox* m_pageCombo;
    QComboBox* m_scaleCombo;
    QMenu* m_recentMenu = nullptr;
    ConversionQueue* m_queue = nullptr;
    SpectrumDock* m_spectrum = nullptr;
    QMenu* m_docksMenu = nullptr;
    QActionGroup* m_pageGroup = nullptr;
    QTimer* m_requestTimer;
    ViewState m_view;
    ChannelRows m_rows;                       // the channels shown, and those on screen
    std::vector<std::size_t> m_recordedShown; // while a montage shows: the channels shown as recorded
    QMenu* m_montageMenu = nullptr;
    QActionGroup* m_montageGroup = nullptr;
    std::vector<QAction*> m_montageActions;
    InitialView m_initial;
    Theme m_theme;
    QString m_themeChoice = QStringLiteral("system");
    QString m_password;         // the open recording's, kept for this session only, never saved
    QString m_openingPath;      // the last open asked for (the open recording's once it has opened or failed)
    QString m_openingPassword;  // its password, m_password once it has opened
    QVariantMap m_viewSettings; // view settings changed since the last save (saveViewSettings)
    QString m_openPath;         // the recording shown
    std::optional<core::TimeRange> m_selection; // the last dragged range (the Convert dialog offers it)
    core::Uutc m_pageLength = 10'000'000;
    bool m_settled = false;
    bool m_interactive = true;
    std::function<bool(int running)> m_closeQuestion; // empty: a QMessageBox
    bool m_closeAfterQueue = false;                   // the queue is being cancelled: close when its run ends
    bool m_open = false;
    bool m_checkOnDisk = false; // opened from an unchecked snapshot: compare with the files after the first paint
    bool m_reloading = false;
    bool m_skipGaps = false;                                          // View > Skip Gaps When Paging
    bool m_screenFollowed = false;                                    // the window's screenChanged is connected
    std::optional<std::pair<core::Uutc, core::TimeRange>> m_lastJump; // the time jumped to, and the view it gave
    core::TimeRange m_reloadRange;                                    // the view when the change was found
    std::vector<std::string> m_reloadShown;                           // the channels shown then, by name
    int m_reloadFirst = 0;                                            // and the first of them on screen
};

// Page length presets offered in the View menu and the toolbar (microseconds; 0: the whole recording).
const std::vector<std::pair<QString, core::Uutc>>& pageLengthPresets();
// Amplitude presets in the toolbar: Auto, uV/mm as clinical readers use them, then each channel's own unit per
// division.
const QStringList& amplitudePresets();

} // namespace lv::widgets
