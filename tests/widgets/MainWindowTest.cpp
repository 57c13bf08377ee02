// The main window around the plot: settings remembered across windows, drop to open (several: to merge),
// rubber-band zoom, export.
#include "MainWindow.h"
#include "AnnotationList.h"
#include "ConvertChannelTable.h"
#include "ConvertDialog.h"
#include "MergeDialog.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDropEvent>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <filesystem>

using lv::widgets::MainWindow;

class MainWindowTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_paused;

    // 2 channels x 12 min with pauses and annotations (seed 7), made once.
    QString pausedSession()
    {
        if (m_paused.isEmpty())
            m_paused =
                lv::test::makeSynth(m_dir.path(), {"--channels", "2", "--hours", "0.2", "--fs", "128", "--seed", "7"});
        return m_paused;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-mainwindow-test");
        QSettings().clear();
    }

    // The page lengths clinical readers page by (1 s to 24 h, and the whole recording), in the menu and the box.
    void pageLengthsAreTheReadingPresets()
    {
        QStringList names;
        for (const auto& [name, span] : lv::widgets::pageLengthPresets()) names << name;
        QCOMPARE(names, QStringList({"1 s", "2 s", "5 s", "10 s", "15 s", "20 s", "30 s", "1 min", "2 min", "5 min",
                                     "10 min", "30 min", "1 h", "2 h", "6 h", "12 h", "24 h", "whole recording"}));
        MainWindow w;
        auto* box = w.findChild<QComboBox*>("pageLength");
        QVERIFY(box);
        QStringList shown;
        for (int i = 0; i < box->count(); ++i) shown << box->itemText(i);
        QCOMPARE(shown, names);
    }
    void recentFilesPageLengthThemeAndAmplitudeAreRemembered()
    {
        const QString session = lv::test::testdata("mef3/legacy/multi_segment.mefd");
        {
            MainWindow w;
            w.setInteractive(false);
            w.show();
            QVERIFY(lv::test::openAndWait(w, session));
            w.setPageLength(5'000'000);
            w.setThemeName("dark");
            QVERIFY(w.setAmplitudeText("200"));
            QVERIFY(lv::test::waitSettled(w));
            w.close();
        }
        MainWindow again;
        again.setInteractive(false);
        QCOMPARE(again.recentFiles().value(0), QFileInfo(session).absoluteFilePath());
        QCOMPARE(again.themeName(), QString("dark"));
        again.show();
        QVERIFY(lv::test::openAndWait(again, session));
        QVERIFY(lv::test::waitSettled(again));
        QCOMPARE(again.view().span(), lv::core::Uutc(5'000'000)); // the remembered page length
        QCOMPARE(again.plot()->sensitivity().text(), QString("200"));
        QCOMPARE(again.amplitudeCombo()->currentText(), QString("200"));
        QVERIFY(again.setAmplitudeText("Auto"));
        again.setThemeName("light");
    }

    // The default 1280 x 800 (or a remembered size) on the offscreen platform's 800 x 600 screen: fitted into it.
    void theFirstWindowFitsTheScreen()
    {
        MainWindow w;
        w.setInteractive(false);
        const QRect free = w.screen()->availableGeometry();
        QVERIFY2(free.width() < 1280, "the offscreen screen is expected smaller than the default window");
        QVERIFY2(free.contains(w.geometry()), qPrintable(QString("%1,%2 %3x%4 on %5x%6")
                                                             .arg(w.x())
                                                             .arg(w.y())
                                                             .arg(w.width())
                                                             .arg(w.height())
                                                             .arg(free.width())
                                                             .arg(free.height())));
    }

    // View > Timebase: the page that runs at 30 mm/s on this screen, said in the status bar as EDFbrowser does.
    void theTimebaseSetsThePageLength()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1600, 900);
        w.show();
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("mef3/legacy/multi_segment.mefd")));
        w.setTimebase(30);
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY2(std::abs(w.plot()->millimetresPerSecond() - 30) < 0.01,
                 qPrintable(QString::number(w.plot()->millimetresPerSecond())));
        const double seconds = static_cast<double>(w.view().span()) / 1e6;
        QVERIFY(std::abs(seconds - w.plot()->dataColumns() / w.plot()->devicePixelRatioF() /
                                       w.plot()->pixelsPerMillimetre() / 30) < 1e-5);
        bool said = false;
        for (const QLabel* l : w.statusBar()->findChildren<QLabel*>()) said = said || l->text().contains("(30 mm/s)");
        QVERIFY(said);
    }

    // N / Shift+N and G / Shift+G: the view centred on the next or previous annotation the list shows, or gap start.
    void nextAndPreviousAnnotationAndGap()
    {
        const QString session = pausedSession();
        QVERIFY(!session.isEmpty());
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        w.setPageLength(10'000'000);
        std::vector<lv::core::Uutc> times;
        lv::core::Uutc moving = 0;
        for (const lv::core::Annotation& a : w.loader()->info()->annotations) {
            times.push_back(a.time);
            if (a.text == "Patient moving") moving = a.time;
        }
        std::sort(times.begin(), times.end());
        QVERIFY(times.size() >= 3 && moving > 0);
        const auto center = [&] { return w.view().range().start + w.view().range().duration() / 2; };
        w.goTo(w.view().bounds().start);
        const auto first = std::upper_bound(times.begin(), times.end(), center());
        QVERIFY(first + 1 < times.end());
        w.jumpToAnnotation(1);
        QCOMPARE(center(), *first);
        w.jumpToAnnotation(1);
        QCOMPARE(center(), *(first + 1));
        w.jumpToAnnotation(-1);
        QCOMPARE(center(), *first);
        // Of a chosen type: only what the list's filter shows.
        w.annotations()->setFilter("moving");
        w.goTo(w.view().bounds().start);
        w.jumpToAnnotation(1);
        QCOMPARE(center(), moving);
        w.jumpToAnnotation(1); // none after it: the view stays
        QCOMPARE(center(), moving);
        // Gaps: their starts, forward and back.
        const std::vector<lv::core::TimeRange>& gaps = w.loader()->bands()->recording;
        QVERIFY(!gaps.empty());
        w.goTo(w.view().bounds().start);
        w.jumpToGap(1);
        QCOMPARE(center(), gaps.front().start);
        w.goTo(w.view().bounds().end);
        w.jumpToGap(-1);
        QCOMPARE(center(), gaps.back().start);
    }

    // View > Skip Gaps When Paging: a page that would be all pause shows the data past it, both ways; off, the
    // pause is paged through.
    void pagingSkipsPausesWhenAsked()
    {
        const QString session = pausedSession();
        QVERIFY(!session.isEmpty());
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        const std::vector<lv::core::TimeRange>& gaps = w.loader()->bands()->recording;
        const auto gap =
            std::find_if(gaps.begin(), gaps.end(), [](const auto& g) { return g.duration() >= 2'000'000; });
        QVERIFY(gap != gaps.end());
        w.setPageLength(1'000'000);
        auto* skip = w.findChild<QAction*>("skipGapsAction");
        QVERIFY(skip && !skip->isChecked());
        w.goTo(gap->start - 1'000'000);
        w.pageBy(1);
        QCOMPARE(w.view().range().start, gap->start); // off: into the pause
        skip->setChecked(true);
        w.goTo(gap->start - 1'000'000);
        w.pageBy(1);
        QCOMPARE(w.view().range().start, gap->end);
        w.pageBy(-1);
        QCOMPARE(w.view().range().end, gap->start);
    }

    void droppingAFolderOpensIt()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::recordingOpened);
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(lv::test::testdata("mef3/legacy/plain_single.mefd"))});
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QApplication::sendEvent(&w, &drop);
        QVERIFY(opened.wait(20000));
        QVERIFY(w.windowTitle().startsWith("plain_single.mefd"));
        delete mime;
    }

    void droppingSeveralFilesOffersToMergeThem()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        const QStringList paths = {lv::test::testdata("mef3/legacy/plain_single.mefd"),
                                   lv::test::testdata("edf/test_edf_stim_channel.edf")};
        for (const QString& p : paths) QVERIFY2(QFileInfo::exists(p), qPrintable(p));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(paths[0]), QUrl::fromLocalFile(paths[1])});
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        const auto dialogs = w.findChildren<lv::widgets::MergeDialog*>();
        QCOMPARE(dialogs.size(), 1);
        QCOMPARE(dialogs.front()->inputs(),
                 QStringList({QFileInfo(paths[0]).absoluteFilePath(), QFileInfo(paths[1]).absoluteFilePath()}));
        QVERIFY(dialogs.front()->isVisible());
        QVERIFY(w.windowTitle().startsWith("Longview")); // nothing opened in the window itself
    }

    // Several PATHs on the command line, or handed over by a later launch: offered for merging as a drop of them
    // is; one opens.
    void openingSeveralPathsOffersToMergeThem()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        const QStringList paths = {lv::test::testdata("edf/test_edf_stim_channel.edf"),
                                   lv::test::testdata("mef3/legacy/plain_single.mefd")};
        w.openPaths(paths);
        const auto dialogs = w.findChildren<lv::widgets::MergeDialog*>();
        QCOMPARE(dialogs.size(), 1);
        QCOMPARE(dialogs.front()->inputs(),
                 QStringList({QFileInfo(paths[0]).absoluteFilePath(), QFileInfo(paths[1]).absoluteFilePath()}));
        QVERIFY(w.windowTitle().startsWith("Longview"));
        dialogs.front()->close();
        QSignalSpy opened(&w, &MainWindow::recordingOpened);
        w.openPaths({paths[1]});
        QVERIFY(opened.wait(20000));
        QVERIFY(w.windowTitle().startsWith("plain_single.mefd"));
    }

    void rubberBandZoomsToTheSelection()
    {
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 8, ""});
        w.resize(1200, 700);
        w.show();
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("mef3/legacy/plain_single.mefd")));
        QVERIFY(lv::test::waitSettled(w));
        QWidget* canvas = w.plot()->findChild<QWidget*>();
        const QRect area = w.plot()->dataRect();
        const int y = area.center().y(), x0 = area.left() + area.width() / 4, x1 = area.left() + area.width() / 2;
        const lv::core::Uutc t0 = lv::core::Uutc(w.plot()->drawnRange().start), span = w.view().span();
        QTest::mousePress(canvas, Qt::LeftButton, Qt::NoModifier, QPoint(x0, y));
        QTest::mouseMove(canvas, QPoint((x0 + x1) / 2, y));
        QTest::mouseMove(canvas, QPoint(x1, y));
        QTest::mouseRelease(canvas, Qt::LeftButton, Qt::NoModifier, QPoint(x1, y));
        QVERIFY(lv::test::waitSettled(w));
        const double perPixel = static_cast<double>(span) / area.width();
        QVERIFY(std::abs(static_cast<double>(w.view().range().start - t0) - (x0 - area.left()) * perPixel) <
                3 * perPixel);
        QVERIFY(std::abs(static_cast<double>(w.view().span()) - (x1 - x0) * perPixel) < 3 * perPixel);
    }

    // Go to Time reads what the Convert dialog reads (here "+5" seconds) and stays open on an error, saying why and
    // keeping what was typed.
    void goToTimeAsksAgainWithTheReason()
    {
        MainWindow w;
        w.show();
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("edf/test_generator.edf"))); // 600 s
        const lv::core::Uutc start = w.loader()->info()->start;
        QStringList labels, typed;
        const QStringList answers = {"99:00", "+5"};
        QTimer poll;
        poll.setInterval(20);
        QObject::connect(&poll, &QTimer::timeout, [&] {
            auto* input = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!input || !input->isVisible() || labels.size() >= answers.size()) return;
            labels << input->labelText();
            typed << input->textValue();
            if (labels.size() == 2) lv::test::saveShot(*input, "goto-error.png");
            input->setTextValue(answers[labels.size() - 1]);
            input->accept();
        });
        poll.start();
        QTimer::singleShot(10000, [&] { // never hang the test
            if (QWidget* d = QApplication::activeModalWidget()) d->close();
        });
        w.askGoTo();
        QCOMPARE(labels.size(), 2);
        QVERIFY2(!labels[0].startsWith("not a clock time"), qPrintable(labels[0]));
        QVERIFY2(labels[1].startsWith("not a clock time: 99:00\n\n"), qPrintable(labels[1]));
        QCOMPARE(typed[1], QString("99:00"));
        QCOMPARE(w.view().range().start, start + 5'000'000);
    }
    void exportWritesTheShownChannels()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("mef3/legacy/multi_channel.mefd")));
        w.setVisibleChannels({1});
        const QString csv = m_dir.path() + "/out.csv";
        lv::widgets::ConvertDialog* dialog = w.openConvertDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->channels()->checkedChannels(), std::vector<std::size_t>{1}); // the shown channel
        dialog->setFormat("csv");
        dialog->setOutput(csv);
        QSignalSpy finished(dialog, &lv::widgets::ConvertDialog::convertFinished);
        QVERIFY(dialog->startConvert());
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QVERIFY(lines.size() > 2000);
        QVERIFY(lines.contains("time,ch2"));
    }

    void aSessionChangedOnDiskIsReloadedWhereItWasShown()
    {
        const std::filesystem::path session = std::filesystem::path(m_dir.path().toStdString()) / "changed.mefd";
        std::filesystem::copy(lv::test::testdata("mef3/legacy/multi_channel.mefd").toStdString(), session,
                              std::filesystem::copy_options::recursive);
        const QString path = QString::fromStdString(session.string());
        std::size_t channels = 0;
        {
            MainWindow w; // the first open reads the files and keeps a snapshot
            w.setInteractive(false);
            w.show();
            QVERIFY(lv::test::openAndWait(w, path));
            QVERIFY(lv::test::waitSettled(w));
            channels = w.loader()->info()->channels.size();
        }
        QVERIFY(channels >= 2);
        std::filesystem::remove_all(session / "ch2.timd"); // the session changes while the snapshot stays
        MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"+0.5", 0.5, ""});
        w.show();
        QSignalSpy reloaded(&w, &MainWindow::sessionReloaded);
        std::size_t firstShown = 0; // what the first open showed (the check may finish before openAndWait returns)
        connect(&w, &MainWindow::recordingOpened, this, [&] {
            if (firstShown == 0) firstShown = w.loader()->info()->channels.size();
        });
        QVERIFY(lv::test::openAndWait(w, path));
        QCOMPARE(firstShown, channels); // shown at once from the unchecked snapshot
        const lv::core::TimeRange shown = w.view().range();
        QVERIFY(reloaded.count() == 1 || reloaded.wait(30000)); // checked after the first paint, opened again
        QCOMPARE(w.loader()->info()->channels.size(), channels - 1);
        QCOMPARE(w.view().range(), shown);
        QVERIFY2(w.statusBar()->currentMessage().contains("changed on disk"),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(lv::test::waitSettled(w));
        QCOMPARE(reloaded.count(), 1); // the checked reopen is not checked again
    }
};

LONGVIEW_WIDGET_TEST(MainWindowTest)
#include "MainWindowTest.moc"
