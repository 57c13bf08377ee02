// ConvertDialog: driven through its widgets, each target format gives the bytes `longview-cli convert` gives with
// the same options; a selection export covers exactly the dragged range; identical passwords are refused; Cancel
// leaves nothing and says so; File > Export/Convert... opens it.
#include "ConvertDialog.h"
#include "ConvertChannelTable.h"
#include "MainWindow.h"
#include "TimeEntry.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "core/TimeFormat.h"
#include "formats/RecordingOpener.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lv::widgets;

namespace {

template <typename T>
T* child(ConvertDialog& d, const char* name)
{
    T* w = d.findChild<T*>(name);
    if (!w) qWarning("no widget %s", name);
    return w;
}

} // namespace

class ConvertDialogTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_source = lv::test::makeSynth(m_dir.path(), {"--channels", "3", "--hours", "0.05", "--fs", "256"});
        QVERIFY(!m_source.isEmpty());
        auto r = lv::formats::openRecording({m_source.toStdString(), "", "", false});
        QVERIFY(r.ok());
        m_info = (*r)->info();
        for (const auto& c : m_info.channels) m_names << QString::fromStdString(c.name);
        QVERIFY(QDir().mkpath(m_dir.filePath("big")));
        m_big = lv::test::makeSynth(m_dir.filePath("big"), {"--channels", "16", "--hours", "0.5", "--fs", "256"});
        QVERIFY(!m_big.isEmpty()); // long enough that Cancel comes before the end
    }

    void convertsLikeTheCli_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("mefd") << "mefd";
        QTest::newRow("edf") << "edf";
        QTest::newRow("bdf") << "bdf";
        QTest::newRow("csv") << "csv";
    }
    void convertsLikeTheCli()
    {
        QFETCH(QString, format);
        const QString gui = m_dir.filePath("gui-" + format), ref = m_dir.filePath("cli-" + format);
        QVERIFY(QDir().mkpath(gui) && QDir().mkpath(ref));
        const QString name = "out." + format;
        ConvertDialog d(sourceOf(m_source));
        d.setInteractive(false);
        d.setFormat(format);
        d.setOutput(gui + "/" + name);
        d.channels()->setChecked(m_names[1], false);
        d.channels()->setOutputName(m_names[0], "First one");
        d.setTypedRange("10", "00:01:00"); // seconds from the start; a clock time on the start's day
        QStringList args{"convert",
                         m_source,
                         ref + "/" + name,
                         "--channels",
                         m_names[0] + "," + m_names[2],
                         "--rename",
                         m_names[0] + "=First one",
                         "--start",
                         "+10",
                         "--end",
                         "+60"};
        QCOMPARE(lv::core::formatIso(m_info.start).substr(11, 8), std::string("00:00:00")); // synth's default start
        if (format == "mefd") {
            child<QDoubleSpinBox>(d, "blockSeconds")->setValue(2);
            for (const char* w : {"level1", "level1Again"}) child<QLineEdit>(d, w)->setText("alpha");
            for (const char* w : {"level2", "level2Again"}) child<QLineEdit>(d, w)->setText("beta");
            args << "--block-seconds"
                 << "2"
                 << "--level1-password"
                 << "alpha"
                 << "--level2-password"
                 << "beta";
        } else if (format == "edf") {
            auto* gaps = child<QComboBox>(d, "gaps");
            gaps->setCurrentIndex(gaps->findData(int(lv::convert::GapPolicy::Fill)));
            child<QDoubleSpinBox>(d, "fillValue")->setValue(5);
            child<QCheckBox>(d, "anonymize")->setChecked(true);
            child<QLineEdit>(d, "subjectId")->setText("sub-test");
            child<QCheckBox>(d, "shiftDates")->setChecked(true);
            child<QLineEdit>(d, "shiftDays")->setText("-400");
            args << "--gaps"
                 << "fill"
                 << "--fill-value"
                 << "5"
                 << "--anonymize"
                 << "--subject-id"
                 << "sub-test"
                 << "--shift-dates=-400";
        } else if (format == "bdf") {
            child<QCheckBox>(d, "dropText")->setChecked(true);
            args << "--drop-annotation-text";
        } else {
            auto* time = child<QComboBox>(d, "time");
            time->setCurrentIndex(time->findData(int(lv::convert::TimeColumn::Iso)));
            child<QCheckBox>(d, "decimalComma")->setChecked(true); // the delimiter follows: semicolon
            QCOMPARE(child<QComboBox>(d, "delimiter")->currentData().toString(), QString(";"));
            args << "--time"
                 << "iso"
                 << "--delimiter"
                 << "semicolon"
                 << "--decimal-comma";
        }
        QSignalSpy done(&d, &ConvertDialog::convertFinished);
        QTest::mouseClick(child<QPushButton>(d, "convert"), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        const QString failed = lv::test::runCli(args);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const auto want = lv::test::filesOf(ref), got = lv::test::filesOf(gui);
        QVERIFY(!want.isEmpty());
        QCOMPARE(got.keys(), want.keys());
        for (const QString& file : want.keys()) QVERIFY2(got[file] == want[file], qPrintable(file));
        QVERIFY(d.statusText().contains(name));
    }

    void aSelectionExportCoversExactlyTheSelection()
    {
        QVERIFY(QDir().mkpath(m_dir.filePath("plain")));
        const QString source = lv::test::makeSynth(m_dir.filePath("plain"),
                                                   {"--channels", "2", "--hours", "0.02", "--fs", "256", "--no-gaps"});
        QVERIFY(!source.isEmpty());
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, source));
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(!w.selectedRange());
        emit w.plot()->rangeSelected(w.view().range().start + 1'234'567, w.view().range().start + 3'500'000);
        const lv::core::TimeRange selected = *w.selectedRange();
        w.setPageLength(20'000'000); // the view moves on; the selection stays
        QVERIFY(w.view().range() != selected);
        ConvertDialog* d = w.openConvertDialog();
        QVERIFY(d);
        d->setFormat("csv");
        d->setOutput(m_dir.filePath("selection.csv"));
        d->setRangeMode(ConvertDialog::RangeMode::Selection);
        auto* time = child<QComboBox>(*d, "time");
        time->setCurrentIndex(time->findData(int(lv::convert::TimeColumn::Uutc)));
        child<QComboBox>(*d, "delimiter")->setCurrentIndex(0);
        QSignalSpy done(d, &ConvertDialog::convertFinished);
        QVERIFY(d->startConvert());
        QVERIFY(done.wait(60000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        QFile f(m_dir.filePath("selection.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        lines = lines.mid(2); // units and names
        const lv::core::SampleGrid grid = w.loader()->info()->channels[0].grid();
        const std::int64_t first = grid.firstIndexAtOrAfter(selected.start);
        const std::int64_t end = grid.firstIndexAtOrAfter(selected.end);
        QCOMPARE(lines.size(), static_cast<qsizetype>(end - first));
        QCOMPARE(lines.first().split(',').first().toLongLong(), static_cast<qint64>(grid.timeOf(first)));
        QCOMPARE(lines.last().split(',').first().toLongLong(), static_cast<qint64>(grid.timeOf(end - 1)));
        QVERIFY(grid.timeOf(first) >= selected.start && grid.timeOf(end - 1) < selected.end);
    }

    void identicalPasswordsAreRefused()
    {
        ConvertDialog d(sourceOf(m_source));
        d.setInteractive(false);
        d.setFormat("mefd");
        d.setOutput(m_dir.filePath("same.mefd"));
        for (const char* w : {"level1", "level1Again", "level2", "level2Again"}) child<QLineEdit>(d, w)->setText("x");
        QVERIFY(!d.startConvert());
        QVERIFY2(d.statusText().contains("identical"), qPrintable(d.statusText()));
        child<QLineEdit>(d, "level2Again")->setText("y");
        QVERIFY(!d.startConvert());
        QVERIFY2(d.statusText().contains("level-2 passwords differ"), qPrintable(d.statusText()));
        QVERIFY(!QFileInfo::exists(m_dir.filePath("same.mefd")));
    }

    // The Zarr page: its version and values reach the writer (a v3 store of float32 arrays), and are remembered.
    void aZarrConversionTakesItsVersionAndValuesFromItsPage()
    {
        ConvertDialog d(sourceOf(m_source));
        d.setInteractive(false);
        d.setFormat("zarr");
        auto* version = child<QComboBox>(d, "zarrVersion");
        auto* values = child<QComboBox>(d, "zarrValues");
        QVERIFY(version->isVisible() || !d.isVisible());
        version->setCurrentIndex(version->findData(3));
        values->setCurrentIndex(values->findData(int(lv::convert::ZarrValues::Float32)));
        const QString out = m_dir.filePath("page.zarr");
        d.setOutput(out);
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR")) { // screenshot for review
            d.show();
            QTest::qWait(200);
            QVERIFY(d.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/convert-dialog-zarr.png"));
        }
        QSignalSpy done(&d, &ConvertDialog::convertFinished);
        QVERIFY(d.startConvert());
        QVERIFY(done.wait(60000));
        QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
        QFile root(out + "/zarr.json");
        QVERIFY(root.open(QIODevice::ReadOnly));
        QVERIFY(root.readAll().contains("\"node_type\": \"group\""));
        const QStringList arrays = QDir(out).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QVERIFY(!arrays.isEmpty());
        QFile array(out + "/" + arrays.first() + "/zarr.json");
        QVERIFY(array.open(QIODevice::ReadOnly));
        QVERIFY(array.readAll().contains("\"data_type\": \"float32\""));
        ConvertDialog again(sourceOf(m_source)); // the choices are remembered for Zarr
        again.setInteractive(false);
        again.setFormat("zarr");
        QCOMPARE(child<QComboBox>(again, "zarrVersion")->currentData().toInt(), 3);
        child<QComboBox>(again, "zarrVersion")->setCurrentIndex(0); // back to the defaults for the tests after this
        child<QComboBox>(again, "zarrValues")->setCurrentIndex(0);
        again.setFormat("mefd");
    }

    void cancelLeavesNothingAndSaysSo()
    {
        const QString out = m_dir.filePath("cancelled");
        QVERIFY(QDir().mkpath(out));
        ConvertDialog d(sourceOf(m_big));
        d.setInteractive(false);
        d.setFormat("csv");
        d.setOutput(out + "/c.csv");
        QSignalSpy done(&d, &ConvertDialog::convertFinished);
        QVERIFY(d.startConvert());
        QVERIFY(d.isRunning());
        QTest::mouseClick(child<QPushButton>(d, "cancel"), Qt::LeftButton);
        QVERIFY(done.wait(120000));
        QCOMPARE(done.first().at(0).toBool(), false);
        QCOMPARE(done.first().at(1).toString(), QString("cancelled; nothing was written"));
        QCOMPARE(d.statusText(), QString("cancelled; nothing was written"));
        QVERIFY2(QDir(out).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden).isEmpty(),
                 qPrintable(QDir(out).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden).join(' ')));
    }

    void closingWhileRunningCancelsWithoutWaiting()
    {
        const QString out = m_dir.filePath("closed");
        QVERIFY(QDir().mkpath(out));
        auto* d = new ConvertDialog(sourceOf(m_big));
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->setInteractive(false);
        d->setFormat("edf");
        d->setOutput(out + "/c.edf");
        d->show();
        QVERIFY(d->startConvert());
        QSignalSpy gone(d, &QObject::destroyed);
        d->reject(); // returns at once; the dialog goes once the job has ended
        QVERIFY(d->isHidden());
        QVERIFY(gone.wait(120000));
        QVERIFY(QDir(out).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden).isEmpty());
    }

    void optionsAreRememberedPerFormat()
    {
        {
            ConvertDialog d(sourceOf(m_source));
            d.setFormat("csv");
            child<QComboBox>(d, "delimiter")->setCurrentIndex(2); // tab
            d.setFormat("edf");
            auto* gaps = child<QComboBox>(d, "gaps");
            gaps->setCurrentIndex(gaps->findData(int(lv::convert::GapPolicy::Split)));
            d.setFormat("bdf"); // EDF+'s choice saved; BDF+ has its own
            QCOMPARE(child<QComboBox>(d, "gaps")->currentData().toInt(), int(lv::convert::GapPolicy::Discontinuous));
        }
        ConvertDialog d(sourceOf(m_source));
        QCOMPARE(d.format(), QString("bdf")); // the last target
        d.setFormat("csv");
        QCOMPARE(child<QComboBox>(d, "delimiter")->currentData().toString(), QString("\t"));
        d.setFormat("edf");
        QCOMPARE(child<QComboBox>(d, "gaps")->currentData().toInt(), int(lv::convert::GapPolicy::Split));
        child<QComboBox>(d, "gaps")->setCurrentIndex(0);
        d.setFormat("csv");
        child<QComboBox>(d, "delimiter")->setCurrentIndex(0);
        d.setFormat("mefd"); // back to the defaults for the tests after this one
    }

    void typedTimesInEveryForm()
    {
        const lv::core::Uutc start = 1'735'689'600'000'000; // 2025-01-01T00:00:00Z
        const auto at = [&](const char* text) {
            auto t = parseTimeEntry(text, start + 3'600'000'000); // a recording starting at 01:00
            return t.ok() ? *t - start : -1;
        };
        QCOMPARE(at("12.5"), 3'612'500'000); // seconds from the start
        QCOMPARE(at("+12.5"), 3'612'500'000);
        QCOMPARE(at("01:30"), 5'400'000'000);                       // clock time on the start's day
        QCOMPARE(at("00:30:00"), 86'400'000'000 + 1'800'000'000);   // before the start's time: the next day
        QCOMPARE(at("1 00:57:50"), 86'400'000'000 + 3'470'000'000); // a day's number first: the start's day + 1
        QCOMPARE(at("0 00:30"), 1'800'000'000);                     // day 0 is the start's, even before the start
        QCOMPARE(at("2025-01-01 02:00:00"), 7'200'000'000);         // date and time, UTC
        QCOMPARE(at("2025-01-01T02:00:00+01:00"), 3'600'000'000);   // ISO 8601
        QCOMPARE(at("1735693200000000"), 3'600'000'000);            // uUTC
        QCOMPARE(at("25:00"), -1);
        QCOMPARE(at("soon"), -1);
    }

    void fileMenuOpensTheDialog()
    {
        MainWindow w;
        w.setInteractive(false);
        QVERIFY(lv::test::openAndWait(w, m_source));
        QAction* convert = nullptr;
        for (QAction* a : w.menuBar()->actions().first()->menu()->actions())
            if (a->text() == "&Export/Convert...") convert = a;
        QVERIFY(convert);
        QCOMPARE(convert->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        convert->trigger();
        QVERIFY(w.findChild<ConvertDialog*>());
    }

    void aResolutionLossSuggestsBdf()
    {
        ConvertDialog d(sourceOf(lv::test::testdata("mef3/legacy/multi_channel.mefd"))); // 0.001 uV steps
        d.setInteractive(false);
        d.setOutput(m_dir.filePath("loss"));
        QSignalSpy ready(&d, &ConvertDialog::resolutionReady);
        d.setFormat("edf");
        QVERIFY(ready.wait(60000));
        QVERIFY2(d.resolutionText().contains("EDF+ (16-bit) loses resolution on 1 channel(s): ch1: steps of 0.00217 uV "
                                             "against the source's 0.001 uV (2.2 times coarser)"),
                 qPrintable(d.resolutionText()));
        QVERIFY2(d.resolutionText().contains("times coarser"), qPrintable(d.resolutionText()));
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR")) {
            d.show();
            QTest::qWait(200);
            QVERIFY(d.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/convert-dialog-edf-loss.png"));
        }
        auto* label = d.findChild<QLabel*>("resolution");
        QVERIFY(label);
        emit label->linkActivated("bdf"); // "Write BDF+ (24-bit) to keep it."
        QCOMPARE(d.format(), QString("bdf"));
        QCOMPARE(d.output(), m_dir.filePath("loss.bdf"));
        QVERIFY(ready.wait(60000));
        QVERIFY2(d.resolutionText().contains("BDF+ keeps it"), qPrintable(d.resolutionText()));
    }

    void theEdfResolutionIsShownBeforeRunning()
    {
        ConvertDialog d(sourceOf(m_source));
        d.setInteractive(false);
        QSignalSpy ready(&d, &ConvertDialog::resolutionReady);
        d.setFormat("mefd");
        d.setFormat("edf");
        QVERIFY(ready.wait(60000));
        QVERIFY2(d.resolutionText().contains("EDF+ (16-bit)"), qPrintable(d.resolutionText()));
        QVERIFY(d.estimateText().contains("samples"));
        if (!qEnvironmentVariableIsEmpty("LONGVIEW_SHOT_DIR")) { // screenshots for review
            d.show();
            QTest::qWait(200);
            QVERIFY(d.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/convert-dialog.png"));
            d.setFormat("csv");
            d.setOutput(m_dir.filePath("shot.csv"));
            QSignalSpy done(&d, &ConvertDialog::convertFinished);
            QVERIFY(d.startConvert());
            QVERIFY(done.wait(60000));
            QTest::qWait(200);
            QVERIFY(d.grab().save(qEnvironmentVariable("LONGVIEW_SHOT_DIR") + "/convert-dialog-summary.png"));
        }
    }

private:
    ConvertSource sourceOf(const QString& path)
    {
        auto r = lv::formats::openRecording({path.toStdString(), "", "", false});
        if (!r.ok()) return {};
        const lv::core::RecordingInfo& info = (*r)->info();
        return {path, {}, info, {}, {info.start, info.start + 10'000'000}, std::nullopt};
    }

    QTemporaryDir m_dir;
    QString m_source;
    QString m_big;
    lv::core::RecordingInfo m_info;
    QStringList m_names;
};

LONGVIEW_WIDGET_TEST(ConvertDialogTest)
#include "ConvertDialogTest.moc"
