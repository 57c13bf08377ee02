// MergeDialog: dropped files join the list, a merge of two split parts writes the original's CSV, Cancel stops
// a merge and leaves no output, File > Merge... opens the dialog; the preview of a pair with a gap and one with an
// overlap (planned in the background), an overlap refused with the engine's words, stacked names prefixed, order
// and options replanned, and the dialog's output byte for byte longview-cli merge's.
#include "MergeDialog.h"
#include "MainWindow.h"
#include "MergePreview.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "common/ErrorText.h"
#include "convert/MergedRecording.h"
#include "formats/mef3/Snapshot.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
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

// Waits until the dialog's preview shows the plan of what it says now.
bool waitPlanned(MergeDialog& dialog)
{
    for (int i = 0; i < 1200 && dialog.isPlanning(); ++i) QTest::qWait(25);
    return !dialog.isPlanning();
}

// The engine's dry run of the same merge, for comparison.
lv::convert::MergeTimeline dryRun(const QStringList& paths, lv::convert::MergeOptions options)
{
    std::vector<std::string> parts;
    for (const QString& p : paths) parts.push_back(p.toStdString());
    auto t = lv::convert::planMerge(parts, "", lv::formats::mef3::defaultSnapshotDirectory(), options);
    if (!t) qWarning("planMerge: %s", t.error().message.c_str());
    return t ? *t : lv::convert::MergeTimeline{};
}

std::vector<QRectF> barsOf(const MergePreview::Row& row, MergePreview::Kind kind)
{
    std::vector<QRectF> out;
    for (const MergePreview::Bar& b : row.bars)
        if (b.kind == kind) out.push_back(b.rect);
    return out;
}

// Every file under `dir`, by its path relative to it, with its bytes.
QMap<QString, QByteArray> tree(const QString& dir)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files.insert(QDir(dir).relativeFilePath(path), contents(path));
    }
    return files;
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
        m_overlapping = m_dir.filePath("late.mefd"); // 50 s on: overlaps a.mefd from 50 to 70 s
        m_after = m_dir.filePath("after.mefd");      // 100 s on: 30 s after a.mefd ends
        QVERIFY(cli({"convert", m_source, m_overlapping, "--start", "+50"}));
        QVERIFY(cli({"convert", m_source, m_after, "--start", "+100"}));
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
        QCOMPARE(done.first().at(1).toString(), QString("cancelled; nothing was written"));
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

    // a.mefd then after.mefd: the preview (from the background dry run) shows the 30 s gap at its x, grey.
    void thePreviewShowsTheGapOfAPair()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.resize(720, 620);
        dialog.show();
        dialog.setOutput(m_dir.filePath("unused.edf"));
        dialog.addInputs({m_a, m_after});
        QVERIFY(dialog.isPlanning());
        QVERIFY(!dialog.canMerge()); // not before the plan is known
        QVERIFY(waitPlanned(dialog));
        QVERIFY(dialog.canMerge());
        const auto want = dryRun({m_a, m_after}, {});
        QVERIFY(dialog.preview()->timeline());
        QCOMPARE(dialog.preview()->timeline()->span, want.span);
        const auto l = dialog.preview()->currentLayout();
        QCOMPARE(l.rows.size(), std::size_t(3));
        const auto gaps = barsOf(l.rows.back(), MergePreview::Kind::Gap);
        QVERIFY(!gaps.empty());
        const lv::core::TimeRange gap = want.channels.front().gaps.front(); // between the parts: a's end, after's start
        QVERIFY(std::abs(gaps.front().left() - l.xOf(gap.start)) < 1 &&
                std::abs(gaps.front().right() - l.xOf(gap.end)) < 1);
        QVERIFY(std::abs((gap.end - gap.start) / 1e6 - 30) < 1);
        const QImage image = dialog.preview()->grab().toImage();
        QCOMPARE(
            image.pixelColor(static_cast<int>(gaps.front().center().x()), static_cast<int>(gaps.front().top() + 2)),
            MergePreview::colorOf(MergePreview::Kind::Gap));
        lv::test::saveShot(dialog, "merge-gap.png");
    }

    // a.mefd and late.mefd overlap: under "refuse" Merge is disabled and the status shows the engine's message; the
    // overlap is red in the preview; "keep the later" plans again and enables Merge.
    void anOverlapUnderErrorDisablesMergeWithTheEnginesWords()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.resize(720, 620);
        dialog.show();
        dialog.setOutput(m_dir.filePath("unused.edf"));
        dialog.addInputs({m_a, m_overlapping});
        QVERIFY(waitPlanned(dialog));
        const auto refused = dryRun({m_a, m_overlapping}, {});
        QVERIFY(refused.error);
        const QString words = QString::fromStdString(lv::app::errorText(*refused.error, lv::app::Audience::Gui));
        QVERIFY2(words.contains("overlap in channel"), qPrintable(words));
        QVERIFY(!dialog.canMerge());
        QVERIFY2(dialog.statusText().startsWith(words), qPrintable(dialog.statusText()));
        const auto l = dialog.preview()->currentLayout();
        const auto red = barsOf(l.rows.back(), MergePreview::Kind::Overlap);
        QVERIFY(!red.empty());
        const lv::core::TimeRange overlap = refused.channels.front().overlaps.front().range;
        QVERIFY(std::abs(red.front().left() - l.xOf(overlap.start)) < 1);
        QVERIFY(!barsOf(l.rows[0], MergePreview::Kind::Overlap).empty());
        QVERIFY(!barsOf(l.rows[1], MergePreview::Kind::Overlap).empty());
        lv::test::saveShot(dialog, "merge-preview.png");
        dialog.setOverlapPolicy(lv::convert::OverlapPolicy::Last);
        QVERIFY(waitPlanned(dialog));
        QVERIFY(dialog.canMerge());
        QCOMPARE(dialog.preview()->timeline()->options.overlap, lv::convert::OverlapPolicy::Last);
        QVERIFY(!dialog.statusText().split('\n').contains(words)); // not refused: warnings of what is kept
        QVERIFY2(dialog.statusText().contains("late.mefd are kept"), qPrintable(dialog.statusText()));
    }

    // An input that is not a recording: no time line, the engine's error named in the preview and the status, no Merge.
    void anUnreadableInputIsNamedAndMergeIsOff()
    {
        const QString notes = m_dir.filePath("notes.edf");
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a recording\n");
        file.close();
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.setOutput(m_dir.filePath("unused.edf"));
        dialog.addInputs({m_a, notes});
        QVERIFY(waitPlanned(dialog));
        QVERIFY(!dialog.canMerge());
        QVERIFY(!dialog.preview()->timeline());
        QVERIFY2(dialog.preview()->message().startsWith("No merge: ") &&
                     dialog.preview()->message().contains("notes.edf"),
                 qPrintable(dialog.preview()->message()));
        QVERIFY2(dialog.statusText().contains("notes.edf"), qPrintable(dialog.statusText()));
    }

    // Stacked, two inputs with the same channel names: the preview lists the prefixed names; the overlap policy is
    // for concatenation only.
    void stackedNameClashesShowThePrefixedNames()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.addInputs({m_a, m_after});
        dialog.setOverlapPolicy(lv::convert::OverlapPolicy::First);
        dialog.setMode(lv::convert::MergeMode::Stack);
        QCOMPARE(dialog.options().overlap, lv::convert::OverlapPolicy::Error);
        QVERIFY(!dialog.findChild<QComboBox*>("overlap")->isEnabled());
        QVERIFY(waitPlanned(dialog));
        const auto want = dryRun({m_a, m_after}, {lv::convert::MergeMode::Stack, lv::convert::OverlapPolicy::Error});
        QCOMPARE(dialog.preview()->timeline()->channels.size(), want.channels.size());
        const QString names = dialog.preview()->currentLayout().channels;
        for (const auto& ch : want.channels) {
            const QString name = QString::fromStdString(ch.name);
            QVERIFY2(name.startsWith("a:") || name.startsWith("after:"), qPrintable(name));
            QVERIFY2(names.contains(name), qPrintable(names));
        }
        QVERIFY2(names.startsWith(QString("%1 channels: a:").arg(want.channels.size())), qPrintable(names));
        dialog.resize(720, 620);
        dialog.show();
        lv::test::saveShot(dialog, "merge-stack.png");
    }

    // Reordering and changing options replan; every plan shown is the plan of what the dialog says at that moment
    // (a plan superseded on its way is dropped), and the last one stays.
    void orderAndOptionsReplanAndStalePlansAreDropped()
    {
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.addInputs({m_a, m_after});
        QVERIFY(waitPlanned(dialog));
        int shown = 0, stale = 0;
        connect(&dialog, &MergeDialog::planShown, this, [&] {
            ++shown;
            const auto& t = dialog.preview()->timeline();
            QStringList order;
            if (t)
                for (const auto& in : t->inputs) order << QString::fromStdString(in.path);
            if (!t || t->options.mode != dialog.options().mode || order != dialog.inputs()) ++stale;
        });
        auto* list = dialog.findChild<QListWidget*>();
        QCOMPARE(list->dragDropMode(), QAbstractItemView::InternalMove); // items are dragged into their order
        // What an internal-move drop does to the list's model (a drag cannot be run offscreen): rowsMoved.
        QVERIFY(list->model()->moveRow(QModelIndex(), 1, QModelIndex(), 0));
        QVERIFY(dialog.isPlanning()); // the new order is planned
        QTest::qWait(1);              // the plan starts
        for (auto mode :
             {lv::convert::MergeMode::Stack, lv::convert::MergeMode::Concat, lv::convert::MergeMode::Stack}) {
            dialog.setMode(mode);
            QTest::qWait(1);
        }
        QVERIFY(waitPlanned(dialog));
        QTest::qWait(300); // a stale plan would arrive by now
        QVERIFY(shown >= 1);
        QCOMPARE(stale, 0);
        QCOMPARE(dialog.inputs(), (QStringList{m_after, m_a}));
        const auto& t = *dialog.preview()->timeline();
        QCOMPARE(t.options.mode, lv::convert::MergeMode::Stack);
        QCOMPARE(QString::fromStdString(t.inputs.front().path), m_after);
        QCOMPARE(dialog.preview()->currentLayout().rows.front().label, QString("1  after.mefd"));
        dialog.moveInput(0, 1); // and back, as the API does it
        QVERIFY(waitPlanned(dialog));
        QCOMPARE(QString::fromStdString(dialog.preview()->timeline()->inputs.front().path), m_a);
    }

    // Closing the dialog while a plan runs drops the plan (its result never reaches the destroyed dialog).
    void closingWhilePlanningDropsThePlan()
    {
        for (int i = 0; i < 20; ++i) {
            auto* dialog = new MergeDialog;
            dialog->setInteractive(false);
            dialog->addInputs({m_a, m_after});
            QTest::qWait(i % 3); // the plan queued, started or done
            delete dialog;
        }
        QTest::qWait(500); // a plan delivered to a dead dialog would crash here
    }

    // The dialog's merge is longview-cli merge --mode M --overlap P, byte for byte: the overlapping pair kept "last"
    // into EDF+, the pair with a gap stacked into MEF 3.0 (every file of the session).
    void theMergeEqualsTheCliByteForByte_data()
    {
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("overlap");
        QTest::addColumn<QString>("name");
        QTest::newRow("overlap, last, EDF+") << m_overlapping << "concat"
                                             << "last"
                                             << "m.edf";
        QTest::newRow("gap, stack, MEF") << m_after << "stack"
                                         << "error"
                                         << "m.mefd";
    }
    void theMergeEqualsTheCliByteForByte()
    {
        QFETCH(QString, second);
        QFETCH(QString, mode);
        QFETCH(QString, overlap);
        QFETCH(QString, name);
        const QString tag = QTest::currentDataTag();
        QDir(m_dir.path()).mkpath("gui-" + mode + overlap);
        QDir(m_dir.path()).mkpath("cli-" + mode + overlap);
        const QString gui = m_dir.filePath("gui-" + mode + overlap + "/" + name);
        const QString ref = m_dir.filePath("cli-" + mode + overlap + "/" + name);
        QVERIFY(cli({"merge", m_a, second, ref, "--mode", mode, "--overlap", overlap}));
        MergeDialog dialog;
        dialog.setInteractive(false);
        dialog.addInputs({m_a, second});
        dialog.setMode(mode == "stack" ? lv::convert::MergeMode::Stack : lv::convert::MergeMode::Concat);
        dialog.setOverlapPolicy(overlap == "last" ? lv::convert::OverlapPolicy::Last
                                                  : lv::convert::OverlapPolicy::Error);
        dialog.setOutput(gui);
        QVERIFY(waitPlanned(dialog));
        QVERIFY2(dialog.canMerge(), qPrintable(dialog.statusText()));
        QSignalSpy done(&dialog, &MergeDialog::mergeFinished);
        QVERIFY(dialog.startMerge());
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        if (name.endsWith(".edf")) {
            const QByteArray want = contents(ref);
            QVERIFY(want.size() > 1000);
            QVERIFY2(contents(gui) == want, qPrintable(tag));
        } else {
            const auto want = tree(ref);
            QVERIFY(want.size() > 5);
            const auto got = tree(gui);
            QCOMPARE(got.keys(), want.keys());
            for (const QString& file : want.keys()) QVERIFY2(got[file] == want[file], qPrintable(file));
        }
    }

private:
    QTemporaryDir m_dir;
    QString m_source, m_a, m_b, m_overlapping, m_after;
};

LONGVIEW_WIDGET_TEST(MergeDialogTest)
#include "MergeDialogTest.moc"
