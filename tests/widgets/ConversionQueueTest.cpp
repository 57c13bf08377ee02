// ConversionQueue: a folder of recordings becomes rows converted to the same bytes as `longview-cli batch` (with its
// options too); a damaged input fails its row only, Retry converts it once repaired; Cancel leaves no output; drops
// on the dock and Ctrl+drops on the window add rows; closing the window with jobs running asks first.
#include "ConversionQueue.h"
#include "MainWindow.h"
#include "ProgressDelegate.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace lv::widgets;

namespace {

// Delivers a drag of `paths` onto `target` (enter, then drop) with `modifiers`; true when the drop was accepted.
bool drop(QWidget* target, const QStringList& paths, Qt::KeyboardModifiers modifiers)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, modifiers);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent dropped(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, modifiers);
    QApplication::sendEvent(target, &dropped);
    return dropped.isAccepted();
}

bool writeAt(const QString& path, qint64 offset, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
}

} // namespace

class ConversionQueueTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString in = m_dir.filePath("in");
        QVERIFY(QDir().mkpath(in + "/sub"));
        const QString a = lv::test::makeSynth(in, {"--channels", "3", "--hours", "0.03", "--fs", "256"});
        QVERIFY(!a.isEmpty());
        const QString failed = lv::test::runCli({"convert", a, in + "/sub/b.edf", "--end", "+40"});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QVERIFY(QDir().mkpath(m_dir.filePath("big")));
        m_big = lv::test::makeSynth(m_dir.filePath("big"), {"--channels", "16", "--hours", "0.5", "--fs", "256"});
        QVERIFY(!m_big.isEmpty());
    }

    void aFolderConvertsLikeBatch()
    {
        ConversionQueue q;
        q.setFormat("edf");
        q.setOutputFolder(m_dir.filePath("gui"));
        q.setSideBySide(2);
        QSignalSpy added(&q, &ConversionQueue::inputsAdded);
        q.addInputs({m_dir.filePath("in")});
        QVERIFY(added.wait(60000));
        QCOMPARE(q.rowCount(), 2);
        QSignalSpy done(&q, &ConversionQueue::runFinished);
        QVERIFY(q.start());
        QVERIFY(q.isRunning());
        QVERIFY(done.wait(120000));
        for (int r = 0; r < 2; ++r) QVERIFY2(q.status(r) == ConversionQueue::Status::Done, qPrintable(q.message(r)));
        const QString failed =
            lv::test::runCli({"batch", "--to", "edf", "--out", m_dir.filePath("cli"), m_dir.filePath("in")});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const auto want = lv::test::filesOf(m_dir.filePath("cli")), got = lv::test::filesOf(m_dir.filePath("gui"));
        QCOMPARE(got.keys(), want.keys());
        QCOMPARE(want.size(), 2);
        for (const QString& file : want.keys()) QVERIFY2(got[file] == want[file], qPrintable(file));
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR")) { // a screenshot for review
            q.resize(900, 260);
            q.show();
            QTest::qWait(300);
            QVERIFY(q.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/conversion-queue.png"));
        }
        q.clearFinished();
        QCOMPARE(q.rowCount(), 0);
    }

    void cancelRetryAndClear()
    {
        ConversionQueue q;
        q.setFormat("csv");
        q.setOutputFolder(m_dir.filePath("cancelled"));
        QSignalSpy added(&q, &ConversionQueue::inputsAdded);
        q.addInputs({m_big});
        QVERIFY(added.wait(60000));
        QSignalSpy done(&q, &ConversionQueue::runFinished);
        QVERIFY(q.start());
        q.cancel();
        QVERIFY(done.wait(120000));
        QCOMPARE(q.status(0), ConversionQueue::Status::Cancelled);
        QVERIFY(!QFileInfo::exists(q.output(0)));
        QVERIFY(!QDir(m_dir.filePath("cancelled")).exists()); // not even the folder the run made
        q.retry();
        QCOMPARE(q.status(0), ConversionQueue::Status::Queued);
        q.clearFinished(); // a queued row stays
        QCOMPARE(q.rowCount(), 1);
    }

    void aRunningRowIsCancelledAlone()
    {
        ConversionQueue q;
        q.setFormat("csv");
        q.setOutputFolder(m_dir.filePath("one-cancelled"));
        q.setSideBySide(2);
        QSignalSpy added(&q, &ConversionQueue::inputsAdded);
        q.addInputs({m_big, m_dir.filePath("in/sub/b.edf")});
        QVERIFY(added.wait(60000));
        QCOMPARE(q.rowCount(), 2);
        const int big = q.output(0).endsWith("synth.csv") ? 0 : 1, small = 1 - big;
        QSignalSpy done(&q, &ConversionQueue::runFinished);
        QVERIFY(q.start());
        q.selectRow(big); // at once: the big one (0.6 s) can finish before a poll of its status sees it running
        q.cancel();       // the selected row only: its own token, seen as it starts or while it runs
        QVERIFY(done.wait(120000));
        QCOMPARE(q.status(big), ConversionQueue::Status::Cancelled);
        QVERIFY2(q.status(small) == ConversionQueue::Status::Done, qPrintable(q.message(small)));
        QVERIFY(QFileInfo::exists(q.output(small)));
        QCOMPARE(lv::test::filesOf(m_dir.filePath("one-cancelled")).keys().filter("synth"),
                 QStringList()); // nothing left
    }

    void dropsOnTheDockAndCtrlDropsOnTheWindow()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        auto* dock = w.findChild<QDockWidget*>("queueDock");
        QVERIFY(dock && !dock->isVisible());
        QSignalSpy added(w.queue(), &ConversionQueue::inputsAdded);
        QVERIFY(drop(&w, {m_dir.filePath("in")}, Qt::ControlModifier)); // a folder, Ctrl held: queued
        QVERIFY(added.wait(60000));
        QVERIFY(dock->isVisible());
        QCOMPARE(w.queue()->rowCount(), 2);
        QSignalSpy opened(&w, &MainWindow::recordingOpened);
        QVERIFY(drop(&w, {m_dir.filePath("in/sub/b.edf")}, Qt::NoModifier)); // a plain drop opens it
        QVERIFY(opened.wait(20000));
        QVERIFY2(w.windowTitle().startsWith("b.edf"), qPrintable(w.windowTitle()));
        QCOMPARE(w.queue()->rowCount(), 2);
        QVERIFY(drop(w.queue(), {m_dir.filePath("in/sub/b.edf")}, Qt::NoModifier)); // on the dock: a row
        QVERIFY(added.wait(60000));
        QCOMPARE(w.queue()->rowCount(), 3);
    }

    void closingWithJobsRunningAsks()
    {
        QTemporaryDir out;
        MainWindow w;
        w.setInteractive(false);
        w.show();
        ConversionQueue* q = w.queue();
        q->setFormat("csv");
        q->setOutputFolder(out.path());
        QSignalSpy added(q, &ConversionQueue::inputsAdded);
        q->setSideBySide(1);
        q->addInputs({m_big, m_dir.filePath("in/sub/b.edf")});
        QVERIFY(added.wait(60000));
        QCOMPARE(q->rowCount(), 2);
        QSignalSpy done(q, &ConversionQueue::runFinished);
        QVERIFY(q->start());
        q->selectRow(1); // a selection does not narrow what closing cancels
        int asked = 0, running = 0;
        w.setCloseQuestion([&](int n) { return ++asked, running = n, false; }); // keep running
        QVERIFY(!w.close());
        QCOMPARE(asked, 1);
        QCOMPARE(running, 2);
        QVERIFY(w.isVisible() && q->isRunning());
        w.setCloseQuestion([&](int) { return ++asked, true; }); // cancel them and close
        QVERIFY(!w.close());                                    // the window closes once the jobs have ended
        QCOMPARE(asked, 2);
        QVERIFY(done.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isVisible(), 10000);
        QCOMPARE(q->status(0), ConversionQueue::Status::Cancelled);
        QCOMPARE(q->status(1), ConversionQueue::Status::Cancelled);
        QCOMPARE(lv::test::filesOf(out.path()).keys(), QStringList()); // no output, no temporary
    }

    void aDamagedInputFailsItsRowOnly()
    {
        const QString six = m_dir.filePath("six");
        QVERIFY(QDir().mkpath(six));
        const QString source = m_dir.filePath("in/synth.mefd");
        for (int i = 1; i <= 6; ++i) {
            const QString failed = lv::test::runCli(
                {"convert", source, QString("%1/r%2.edf").arg(six).arg(i), "--end", QString("+%1").arg(5 * i)});
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
        }
        const QString damaged = six + "/r3.edf";
        QVERIFY(writeAt(damaged, 0, "garbage!")); // the header's version field
        ConversionQueue q;
        q.setFormat("bdf");
        q.setOutputFolder(m_dir.filePath("six-gui"));
        q.setSideBySide(3);
        QSignalSpy added(&q, &ConversionQueue::inputsAdded);
        q.addInputs({six});
        QVERIFY(added.wait(60000));
        QCOMPARE(q.rowCount(), 6);
        QSignalSpy done(&q, &ConversionQueue::runFinished);
        QVERIFY(q.start());
        QVERIFY(done.wait(120000));
        for (int r = 0; r < 6; ++r) {
            if (r == 2) continue;
            QVERIFY2(q.status(r) == ConversionQueue::Status::Done, qPrintable(q.message(r)));
        }
        QCOMPARE(q.status(2), ConversionQueue::Status::Failed);
        auto* table = q.findChild<QTableWidget*>();
        QVERIFY(qobject_cast<ProgressDelegate*>(table->itemDelegateForColumn(3))); // the progress column: bars
        QCOMPARE(table->item(0, 3)->data(Qt::UserRole).toInt(), 100);
        QVERIFY(!table->item(2, 3)->data(Qt::UserRole).isValid()); // a failed row: no bar
        QVERIFY2(q.message(2).contains("r3.edf"), qPrintable(q.message(2)));
        QVERIFY(!QFileInfo::exists(q.output(2)));
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR")) { // the failed row, for review
            q.resize(1000, 300);
            q.show();
            QTest::qWait(300);
            QVERIFY(q.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/queue-failed.png"));
        }
        lv::test::runCli({"batch", "--to", "bdf", "--out", m_dir.filePath("six-cli"), six}); // exits 5: r3 failed
        const auto want = lv::test::filesOf(m_dir.filePath("six-cli")),
                   got = lv::test::filesOf(m_dir.filePath("six-gui"));
        QCOMPARE(want.size(), 5);
        QCOMPARE(got.keys(), want.keys());
        for (const QString& file : want.keys()) QVERIFY2(got[file] == want[file], qPrintable(file));
        QVERIFY(QFile::remove(damaged)); // replaced by a good recording, then retried
        const QString failed = lv::test::runCli({"convert", source, damaged, "--end", "+15"});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        q.selectRow(2);
        q.retry();
        QCOMPARE(q.status(2), ConversionQueue::Status::Queued);
        QCOMPARE(q.status(0), ConversionQueue::Status::Done);
        QVERIFY(q.start());
        QVERIFY(done.wait(120000));
        QVERIFY2(q.status(2) == ConversionQueue::Status::Done, qPrintable(q.message(2)));
        QVERIFY(QFileInfo::exists(q.output(2)));
    }

    void optionsApplyAsBatchOptions() // the options dialog's CSV delimiter and decimal comma reach the jobs
    {
        ConversionQueue q;
        q.setFormat("csv");
        q.setOutputFolder(m_dir.filePath("csv-gui"));
        q.setTargetOptions({}); // not what an earlier run remembered
        QDialog* dialog = q.openOptions();
        auto* delimiter = dialog->findChild<QComboBox*>("delimiter");
        auto* decimalComma = dialog->findChild<QCheckBox*>("decimalComma");
        QVERIFY(delimiter && decimalComma && delimiter->isVisible());
        decimalComma->setChecked(true); // switches the delimiter to ';'
        QCOMPARE(delimiter->currentData().toString(), QString(";"));
        delimiter->setCurrentIndex(delimiter->findData(QString("\t")));
        lv::test::saveShot(*dialog, "queue-options.png");
        QMetaObject::invokeMethod(dialog->findChild<QDialogButtonBox*>(), "accepted");
        QCOMPARE(q.targetOptions().csvDelimiter, '\t');
        QVERIFY(q.targetOptions().csvDecimalComma);
        QSignalSpy added(&q, &ConversionQueue::inputsAdded);
        q.addInputs({m_dir.filePath("in")});
        QVERIFY(added.wait(60000));
        QSignalSpy done(&q, &ConversionQueue::runFinished);
        QVERIFY(q.start());
        QVERIFY(done.wait(120000));
        for (int r = 0; r < q.rowCount(); ++r)
            QVERIFY2(q.status(r) == ConversionQueue::Status::Done, qPrintable(q.message(r)));
        const QString failed = lv::test::runCli({"batch", "--to", "csv", "--delimiter", "tab", "--decimal-comma",
                                                 "--out", m_dir.filePath("csv-cli"), m_dir.filePath("in")});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const auto want = lv::test::filesOf(m_dir.filePath("csv-cli")),
                   got = lv::test::filesOf(m_dir.filePath("csv-gui"));
        QVERIFY(want.size() >= 2);
        QCOMPARE(got.keys(), want.keys());
        for (const QString& file : want.keys()) QVERIFY2(got[file] == want[file], qPrintable(file));
        QVERIFY(want.first().contains('\t'));
    }

    void aDoneRowOpensInTheViewerOnDoubleClick()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        w.findChild<QAction*>("conversionQueue")->trigger();
        ConversionQueue* q = w.queue();
        q->setFormat("edf");
        q->setOutputFolder(m_dir.filePath("opened"));
        QSignalSpy added(q, &ConversionQueue::inputsAdded);
        q->addInputs({m_dir.filePath("in/sub/b.edf")});
        QVERIFY(added.wait(60000));
        auto* table = q->findChild<QTableWidget*>();
        const QPoint cell = table->visualItemRect(table->item(0, 0)).center();
        QSignalSpy opened(&w, &MainWindow::recordingOpened);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell); // queued, not done: nothing opens
        QTest::qWait(200);
        QCOMPARE(opened.count(), 0);
        QSignalSpy done(q, &ConversionQueue::runFinished);
        QVERIFY(q->start());
        QVERIFY(done.wait(120000));
        QCOMPARE(q->status(0), ConversionQueue::Status::Done);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell);
        QVERIFY(opened.wait(20000));
        QVERIFY2(w.windowTitle().startsWith("b.edf"), qPrintable(w.windowTitle()));
        QCOMPARE(QFileInfo(w.recentFiles().value(0)).canonicalFilePath(), QFileInfo(q->output(0)).canonicalFilePath());
    }

    void viewMenuShowsTheDock()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        auto* action = w.findChild<QAction*>("conversionQueue");
        QVERIFY(action);
        auto* dock = w.findChild<QDockWidget*>("queueDock");
        QVERIFY(dock && !dock->isVisible());
        action->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(w.queue());
    }

private:
    QTemporaryDir m_dir;
    QString m_big;
};

LONGVIEW_WIDGET_TEST(ConversionQueueTest)
#include "ConversionQueueTest.moc"
