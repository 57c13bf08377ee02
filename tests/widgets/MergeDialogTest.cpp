// MergeDialog: dropped files join the list, a merge of two split parts writes the original's CSV, Cancel stops
// a merge and leaves no output, and File > Merge... opens the dialog.
#include "MergeDialog.h"
#include "MainWindow.h"
#include "WidgetTestSupport.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace lv::widgets;

namespace {

bool cli(const QStringList& args)
{
    QProcess p;
    p.start(LONGVIEW_CLI, args);
    return p.waitForFinished(600000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class MergeDialogTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_source =
            lv::test::makeSynth(m_dir.path(), {"--channels", "3", "--hours", "0.05", "--fs", "256", "--no-gaps"});
        QVERIFY(!m_source.isEmpty());
        m_a = m_dir.filePath("a.mefd");
        m_b = m_dir.filePath("b.edf");
        QVERIFY(cli({"convert", m_source, m_a, "--end", "+70"}));
        QVERIFY(cli({"convert", m_source, m_b, "--start", "+70"}));
    }
    void droppedFilesJoinTheList()
    {
        MergeDialog dialog;
        dialog.show();
        auto* list = dialog.findChild<QListWidget*>();
        QVERIFY(list);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_a), QUrl::fromLocalFile(m_b), QUrl::fromLocalFile(m_a)});
        const QPoint at = list->viewport()->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(list->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(list->viewport(), &drop);
        QCOMPARE(dialog.inputs(), (QStringList{m_a, m_b})); // the duplicate is skipped
    }
    void mergeWritesTheWholeRecording()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.addInputs({m_b, m_a});
        dialog.setOutput(m_dir.filePath("merged")); // the format combo adds the extension
        QCOMPARE(dialog.output(), m_dir.filePath("merged.mefd"));
        dialog.setOutput(m_dir.filePath("merged.csv"));
        QSignalSpy done(&dialog, &MergeDialog::mergeFinished);
        QVERIFY(dialog.startMerge());
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        QVERIFY(done.first().at(1).toString().startsWith("Wrote " + m_dir.filePath("merged.csv")));
        // Every row of the original's CSV is there (the EDF part's values are its own, rounded to 0.1 uV).
        QVERIFY(cli({"convert", m_source, m_dir.filePath("orig.csv")}));
        const QList<QByteArray> want = contents(m_dir.filePath("orig.csv")).split('\n');
        const QList<QByteArray> got = contents(m_dir.filePath("merged.csv")).split('\n');
        QCOMPARE(got.size(), want.size());
        QCOMPARE(got.mid(0, 1000), want.mid(0, 1000)); // the MEF part: exact
    }
    void cancelStopsTheMergeAndLeavesNothing()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.addInputs({m_a, m_b});
        const QString target = m_dir.filePath("cancelled.mefd");
        dialog.setOutput(target);
        QSignalSpy done(&dialog, &MergeDialog::mergeFinished);
        QVERIFY(dialog.startMerge());
        QVERIFY(dialog.isRunning());
        dialog.cancel();
        QVERIFY(done.wait(120000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QVERIFY2(done.first().at(1).toString().contains("cancelled"), qPrintable(done.first().at(1).toString()));
        QVERIFY(!dialog.isRunning());
        QVERIFY(QDir(m_dir.path()).entryList({"cancelled*"}).isEmpty());
    }
    void fileMenuOpensTheDialog()
    {
        MainWindow window;
        window.setInteractive(false);
        QAction* merge = nullptr;
        for (QAction* a : window.menuBar()->actions().first()->menu()->actions())
            if (a->text() == "&Merge...") merge = a;
        QVERIFY(merge);
        merge->trigger();
        QVERIFY(window.findChild<MergeDialog*>());
    }

private:
    QTemporaryDir m_dir;
    QString m_source, m_a, m_b;
};

QTEST_MAIN(MergeDialogTest)
#include "MergeDialogTest.moc"
