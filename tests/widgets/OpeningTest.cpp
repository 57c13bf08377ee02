// Opening recordings as a new user does: the Open dialogs offer every readable format of the engine's registry, a
// drop opens the recording among the dropped files, a failed open (not a recording, a wrong password) keeps the
// recording on screen, the password dialog says what each level shows, an annotation-only EDF+ opens.
#include "AnnotationList.h"
#include "MainWindow.h"
#include "MergeDialog.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "common/PasswordPrompt.h"
#include "formats/RecordingOpener.h"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
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

    // The password dialog's words, from the engine's own errors for enc_both (level 1: pass1, level 2: pass2): which
    // password, what level 1 hides; no file path, no command-line option.
    void thePasswordPromptSaysWhatEachLevelShows()
    {
        const std::string enc = lv::test::testdata("mef3/legacy/enc_both.mefd").toStdString();
        auto none = lv::formats::openRecording({enc, "", "", false});
        QVERIFY(!none);
        QCOMPARE(none.error().code, lv::core::ErrorCode::PasswordRequired);
        const lv::app::PasswordPrompt asked = lv::app::passwordPrompt(none.error(), "enc_both.mefd");
        QCOMPARE(asked.level, 1);
        QCOMPARE(asked.title, std::string("Password needed"));
        auto wrong = lv::formats::openRecording({enc, "not it", "", false});
        QVERIFY(!wrong);
        const lv::app::PasswordPrompt again = lv::app::passwordPrompt(wrong.error(), "enc_both.mefd");
        QCOMPARE(again.title, std::string("Wrong password"));
        QVERIFY(QString::fromStdString(again.text).startsWith("That password does not open \u201cenc_both.mefd\u201d"));
        for (const lv::app::PasswordPrompt& p : {asked, again}) {
            const QString text = QString::fromStdString(p.text);
            for (const char* want : {"enc_both.mefd", "level-1 or level-2 password", "Level 1 shows the signals",
                                     "samples", "hides the subject's identifying data (name, ID", "true date and time",
                                     "Level 2 shows everything", "never saved"})
                QVERIFY2(text.contains(want), qPrintable(want + QString(" not in: ") + text));
            for (const char* never : {".tmet", "--password", "/", "level-1 access"})
                QVERIFY2(!text.contains(never), qPrintable(never + QString(" in: ") + text));
        }
        // A recording whose channels need level 2 says so instead of what level 1 shows.
        const lv::app::PasswordPrompt two = lv::app::passwordPrompt(
            lv::core::makeError(
                lv::core::ErrorCode::WrongPassword,
                "the password gives level-1 access, but the channel metadata needs the level-2 password", "/x/a.tmet"),
            "x.mefd");
        QCOMPARE(two.level, 2);
        QVERIFY2(QString::fromStdString(two.text).contains("enter its level-2 password"), two.text.c_str());
        QVERIFY(!QString::fromStdString(two.text).contains("Level 1 shows"));
    }

    // Interactive: the encrypted session asks with those words; cancelling the dialog keeps A on screen.
    void aCancelledPasswordDialogKeepsTheRecording()
    {
        MainWindow w;
        w.show();
        const QString a = lv::test::testdata("edf/test_generator.edf");
        QVERIFY(lv::test::openAndWait(w, a));
        const lv::core::RecordingInfo* info = w.loader()->info();
        const QString title = w.windowTitle();
        const QString enc = lv::test::testdata("mef3/legacy/enc_both.mefd");
        auto none = lv::formats::openRecording({enc.toStdString(), "", "", false});
        QVERIFY(!none);
        const lv::app::PasswordPrompt want = lv::app::passwordPrompt(none.error(), "enc_both.mefd");
        QSignalSpy failed(&w, &MainWindow::openFailed);
        QString label, dialogTitle;
        int echo = -1;
        const bool shown = inspectModal(
            [&] {
                w.openPath(enc);
                failed.wait(20000);
            },
            [&](QDialog& d) {
                if (auto* input = qobject_cast<QInputDialog*>(&d)) {
                    label = input->labelText();
                    echo = input->textEchoMode();
                }
                dialogTitle = d.windowTitle();
                lv::test::saveShot(d, "password.png");
            });
        QVERIFY(shown);
        QCOMPARE(dialogTitle, QString::fromStdString(want.title));
        QCOMPARE(label, QString::fromStdString(want.text));
        QCOMPARE(echo, int(QLineEdit::Password));
        if (failed.isEmpty()) QVERIFY(failed.wait(20000));
        QCOMPARE(w.windowTitle(), title);
        QCOMPARE(w.loader()->info(), info);
        QCOMPARE(w.loader()->path(), QFileInfo(a).absoluteFilePath());
    }

    // An EDF+ holding only an "EDF Annotations" signal (a Sleep-EDF hypnogram): it opens, lists its annotations, shows
    // the whole recording as an empty plot with a note (no "no data" band over it) and settles (a screenshot waits
    // for that).
    void anAnnotationOnlyEdfOpensAndSettles()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 700);
        w.show();
        const QString hypnogram = lv::test::testdata("edf/SC4001EC-Hypnogram.edf");
        QVERIFY(lv::test::openAndWait(w, hypnogram));
        const lv::core::RecordingInfo* info = w.loader()->info();
        QVERIFY(info);
        QCOMPARE(info->channels.size(), std::size_t(0));
        QCOMPARE(info->annotations.size(), std::size_t(154));
        QVERIFY2(lv::test::waitSettled(w), "the view of a recording without signals never settled");
        QCOMPARE(w.annotations()->visibleCount(), 154);
        QCOMPARE(w.annotations()->list()->topLevelItem(1)->text(1), QString("Sleep stage 1"));
        QCOMPARE(w.plot()->note(), QString("no signals: 154 annotations"));
        QVERIFY(w.plot()->channels().empty());
        QCOMPARE(w.view().range(), w.view().bounds()); // the whole recording: nothing to page through
        QVERIFY(w.plot()->drawnGapBands().empty());    // no signal is missing: no "no data" band
        QVERIFY(w.plot()->drawnAnnotations().size() > 100);
        QVERIFY2(w.windowTitle().startsWith("SC4001EC-Hypnogram.edf"), qPrintable(w.windowTitle()));
        lv::test::saveShot(w, "hypnogram-window.png");
    }
};

LONGVIEW_WIDGET_TEST(OpeningTest)
#include "OpeningTest.moc"
