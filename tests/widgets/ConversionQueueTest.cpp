// ConversionQueue: a folder of recordings becomes rows converted to the same bytes as `longview-cli batch`;
// Cancel leaves no output and marks the row, Retry queues it again, Clear removes finished rows; View > Conversion
// Queue shows the dock.
#include "ConversionQueue.h"
#include "MainWindow.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lv::widgets;

namespace {

QString cli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(LONGVIEW_CLI, args);
    if (!p.waitForFinished(600000)) return "timeout";
    return p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAll());
}

QMap<QString, QByteArray> filesOf(const QString& dir)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) out[QDir(dir).relativeFilePath(path)] = f.readAll();
    }
    return out;
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
        const QString failed = cli({"convert", a, in + "/sub/b.edf", "--end", "+40"});
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
        const QString failed = cli({"batch", "--to", "edf", "--out", m_dir.filePath("cli"), m_dir.filePath("in")});
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const auto want = filesOf(m_dir.filePath("cli")), got = filesOf(m_dir.filePath("gui"));
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
        QVERIFY(!QDir(m_dir.filePath("cancelled")).exists() ||
                QDir(m_dir.filePath("cancelled")).entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty());
        q.retry();
        QCOMPARE(q.status(0), ConversionQueue::Status::Queued);
        q.clearFinished(); // a queued row stays
        QCOMPARE(q.rowCount(), 1);
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

QTEST_MAIN(ConversionQueueTest)
#include "ConversionQueueTest.moc"
