// Opening recordings as a new user does: the Open dialogs offer every readable format of the engine's registry, a
// drop opens the recording among the dropped files, a failed open (not a recording, a wrong password) keeps the
// recording on screen.
#include "MainWindow.h"
#include "MergeDialog.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestSupport.h"

#include "formats/RecordingOpener.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>

using lv::widgets::MainWindow;

namespace {

// Runs `open` (which shows a modal dialog and waits in it), calls `look` with that dialog once it shows, then
// rejects it. False when no modal dialog showed.
bool inspectModal(const std::function<void()>& open, const std::function<void(QDialog&)>& look)
{
    bool seen = false;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog || !dialog->isVisible() || seen) return;
        seen = true;
        look(*dialog);
        dialog->reject();
    });
    poll.start();
    QTimer::singleShot(10000, [&] { // never hang the test: close whatever is open
        if (QWidget* w = QApplication::activeModalWidget()) w->close();
    });
    open();
    return seen;
}

QStringList fileDialogFilters(const std::function<void()>& open)
{
    QStringList filters;
    const bool shown = inspectModal(open, [&](QDialog& d) {
        if (auto* f = qobject_cast<QFileDialog*>(&d)) filters = f->nameFilters();
    });
    if (!shown) qWarning("no file dialog showed");
    return filters;
}

// Every file format of the registry in the first ("Recordings") filter and as a filter of its own.
void checkOffersEveryFileFormat(const QStringList& filters)
{
    QVERIFY2(filters.size() >= 2, qPrintable(filters.join(" | ")));
    QVERIFY(filters.front().startsWith("Recordings ("));
    for (const lv::formats::ReadableFormat& format : lv::formats::readableFormats()) {
        if (format.folder) continue;
        QString own = QString::fromStdString(format.name) + " (";
        for (const std::string& p : format.patterns) {
            QVERIFY2(filters.front().contains(QString::fromStdString(p)), p.c_str());
            own += QString::fromStdString(p) + (&p == &format.patterns.back() ? ")" : " ");
        }
        QVERIFY2(filters.contains(own), qPrintable(own + " not in " + filters.join(" | ")));
    }
}

} // namespace

class OpeningTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-opening-test");
        QSettings().clear();
    }

    void theOpenDialogsOfferEveryReadableFormat()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        auto* openFile = w.findChild<QAction*>("openFile");
        auto* openFolder = w.findChild<QAction*>("openFolder");
        QVERIFY(openFile && openFolder);
        const QStringList filters = fileDialogFilters([openFile] { openFile->trigger(); });
        checkOffersEveryFileFormat(filters);
        for (const char* pattern : {"*.edf", "*.bdf", "*.mefd.tar"}) // what a new user looked for
            QVERIFY2(filters.front().contains(pattern), qPrintable(filters.front()));
        // Folder formats (a .mefd session, a .timd channel) have their own action and folder dialog.
        QString folderTitle;
        QVERIFY(
            inspectModal([openFolder] { openFolder->trigger(); }, [&](QDialog& d) { folderTitle = d.windowTitle(); }));
        for (const lv::formats::ReadableFormat& format : lv::formats::readableFormats()) {
            if (!format.folder) continue;
            QVERIFY2(folderTitle.contains(QString::fromStdString(format.name)), qPrintable(folderTitle));
            for (const std::string& p : format.patterns)
                QVERIFY2(openFolder->text().contains(QString::fromStdString(p).mid(1)), qPrintable(openFolder->text()));
        }
    }

    void theMergeDialogAddsEveryReadableFileFormat()
    {
        lv::widgets::MergeDialog dialog;
        dialog.show();
        QPushButton* add = nullptr;
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == "Add &Files...") add = b;
        QVERIFY(add);
        checkOffersEveryFileFormat(fileDialogFilters([add] { add->click(); }));
    }

    void aDropOpensTheRecordingAmongTheDroppedFiles()
    {
        const QString notes = m_dir.path() + "/notes.txt";
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a recording\n");
        file.close();
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy opened(&w, &MainWindow::recordingOpened);
        QSignalSpy failed(&w, &MainWindow::openFailed);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(notes), QUrl::fromLocalFile(lv::test::testdata("edf/test_generator.edf"))});
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(w.findChildren<lv::widgets::MergeDialog*>().isEmpty()); // one recording: opened, not merged
        QVERIFY2(opened.wait(20000), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY2(w.windowTitle().startsWith("test_generator.edf"), qPrintable(w.windowTitle()));
    }

    // Recording A is open; a file that is not a recording, then an encrypted session with a wrong password, fail
    // to open: A stays on screen (title, channels, the loader's recording, the plot), and can still be paged.
    void aFailedOpenKeepsTheRecordingOnScreen()
    {
        const QString notes = m_dir.path() + "/not-a-recording.edf";
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is a text file, not a recording\n");
        file.close();
        MainWindow w;
        w.setInteractive(false);
        w.show();
        const QString a = lv::test::testdata("edf/test_generator.edf");
        QVERIFY(lv::test::openAndWait(w, a));
        QVERIFY(lv::test::waitSettled(w));
        const QString title = w.windowTitle();
        const lv::core::RecordingInfo* info = w.loader()->info();
        QVERIFY(info);
        const std::size_t channels = info->channels.size();
        QVERIFY(channels > 1);
        const auto shown = w.visibleChannels();
        for (const auto& [path, password] :
             {std::pair{notes, QString()},
              std::pair{lv::test::testdata("mef3/legacy/enc_both.mefd"), QString("not the password")}}) {
            QSignalSpy failed(&w, &MainWindow::openFailed);
            QSignalSpy opened(&w, &MainWindow::recordingOpened);
            w.openPath(path, password);
            QVERIFY2(failed.wait(20000), qPrintable(path));
            QVERIFY(opened.isEmpty());
            QCOMPARE(w.windowTitle(), title);
            QCOMPARE(w.loader()->info(), info); // the same recording, not opened again
            QCOMPARE(w.loader()->info()->channels.size(), channels);
            QCOMPARE(w.loader()->path(), QFileInfo(a).absoluteFilePath());
            QCOMPARE(w.visibleChannels(), shown);
            QCOMPARE(w.plot()->channels(), shown);
            QVERIFY(w.plot()->frame());
            w.pageBy(1); // still a live view: it pages and draws
            QVERIFY(lv::test::waitSettled(w));
        }
    }
};

QTEST_MAIN(OpeningTest)
#include "OpeningTest.moc"
