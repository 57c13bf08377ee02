// View > Montage on a real EEG (EDF): the double banana's 18 lanes replace the channels and are named and filtered in
// their labels, a lane's exact trace equals Fp1 - F7 of the recorded traces, F1-F12 switch, the choice is remembered
// for recordings of the same format only, the editor and an imported montage file become saved montages, and the
// Convert dialog starts on the montage shown.
#include "ConvertDialog.h"
#include "MainWindow.h"
#include "MontageEditor.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "montage/MontageFile.h"

#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using lv::widgets::MainWindow;

namespace {

QAction* montageAction(MainWindow& w, const QString& choice)
{
    for (QAction* a : w.findChildren<QAction*>("montageAction"))
        if (a->property("montageChoice").toString() == choice) return a;
    return nullptr;
}

// The trace of `channel` in the frame shown, or nullptr.
} // namespace

class MontageViewTest : public QObject {
    Q_OBJECT
    const QString m_file = lv::test::testdata("edf/test_edf_stim_channel.edf");

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-montage-test");
        QSettings().clear();
    }

    void theDoubleBananaReplacesTheChannelsAndEqualsTheirDifferences()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1400, 1000);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_file));
        const lv::core::RecordingInfo& info = *w.loader()->info();
        const auto fp1 = static_cast<std::size_t>(info.channelIndex("EEG Fp1"));
        const auto f7 = static_cast<std::size_t>(info.channelIndex("EEG F7"));
        w.setVisibleChannels({fp1, f7});
        QVERIFY(lv::test::waitSettled(w));
        const lv::widgets::ChannelTrace* a = lv::test::traceShown(w, fp1);
        const lv::widgets::ChannelTrace* b = lv::test::traceShown(w, f7);
        QVERIFY(a && b && !a->y.empty() && a->y.size() == b->y.size());
        const std::vector<double> ay = a->y, by = b->y;

        QVERIFY(montageAction(w, "double-banana") &&
                montageAction(w, "double-banana")->shortcut() == QKeySequence("F2"));
        QVERIFY(montageAction(w, QString())->shortcut() == QKeySequence("F1"));
        montageAction(w, "double-banana")->trigger();
        QCOMPARE(w.montageChoice(), QString("double-banana"));
        QCOMPARE(w.visibleChannels().size(), std::size_t{18});
        const std::size_t first = info.channels.size();
        QCOMPARE(w.visibleChannels().front(), first);
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY2(w.plot()->laneLabel(0).startsWith("Fp1-F7  "), qPrintable(w.plot()->laneLabel(0)));
        QVERIFY2(w.plot()->laneLabel(17).startsWith("Cz-Pz  "), qPrintable(w.plot()->laneLabel(17)));
        const lv::widgets::ChannelTrace* lane = lv::test::traceShown(w, first);
        QVERIFY(lane && lane->y.size() == ay.size());
        for (std::size_t i = 0; i < ay.size(); ++i) QCOMPARE(lane->y[i], ay[i] - by[i]); // the page's samples

        QVERIFY(w.setDisplayFilter("hp=0.5,lp=35,notch=50"));
        QVERIFY2(w.plot()->laneLabel(0).startsWith("Fp1-F7 HP 0.5 LP 35 N50  "), qPrintable(w.plot()->laneLabel(0)));
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(w.setDisplayFilter(""));

        QVERIFY(!w.setMontage("no-such-montage"));
        QCOMPARE(w.montageChoice(), QString("double-banana"));
        w.setMontage(""); // As Recorded: the channels shown before
        QCOMPARE(w.visibleChannels(), (std::vector<std::size_t>{fp1, f7}));
        w.setMontage("average");
        QVERIFY2(w.plot()->laneLabel(0).startsWith("Fp1-avg") || w.plot()->laneLabel(0).startsWith("Fp1"),
                 qPrintable(w.plot()->laneLabel(0)));
        QCOMPARE(w.visibleChannels().size(), std::size_t{2}); // the hidden channels are left out of the average
        QVERIFY(lv::test::waitSettled(w));
        w.setMontage("transverse");
    }

    void theChoiceIsRememberedPerFormat()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_file)); // EDF: the transverse montage of the last test
        QCOMPARE(w.montageChoice(), QString("transverse"));
        QVERIFY(w.loader()->montage());
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("edf/test_generator.edf"))); // EDF+C: an EDF too
        QCOMPARE(w.montageChoice(), QString("transverse"));
        QVERIFY(!w.loader()->montage()); // no 10-20 names: nothing to build, the channels as recorded
        QCOMPARE(w.visibleChannels().size(), w.loader()->info()->channels.size());
        QVERIFY(lv::test::openAndWait(w, lv::test::testdata("mef3/legacy/multi_channel.mefd")));
        QCOMPARE(w.montageChoice(), QString()); // MEF 3.0: its own, none yet
        QVERIFY(!w.loader()->montage());
        QCOMPARE(w.visibleChannels().size(), std::size_t{2});
    }

    void editedAndImportedMontagesAreSavedAndShown()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1200, 800);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_file));
        const lv::core::RecordingInfo& info = *w.loader()->info();
        lv::widgets::MontageEditor* editor = w.editMontage();
        QVERIFY(editor);
        QCOMPARE(editor->rowCount(), 18); // the montage shown (transverse bipolar)
        while (editor->rowCount() > 0) editor->removeRow(0);
        editor->addDerivation(info.channelIndex("EEG Cz"), info.channelIndex("EEG Pz"));
        editor->addDerivation(info.channelIndex("EEG O1"), -2);
        editor->moveRow(1, -1);
        QVERIFY(editor->setRowFilter(0, "lp=30"));
        QVERIFY(!editor->setRowFilter(0, "lp=banana"));
        QCOMPARE(lv::widgets::termsText(editor->montage().derivations[1]), QString("EEG Cz - EEG Pz"));
        editor->findChild<QLineEdit*>("montageName")->setText("Two");
        editor->accept();
        QCOMPARE(w.montageChoice(), QString("saved:Two"));
        QCOMPARE(w.visibleChannels().size(), std::size_t{2});
        QVERIFY2(w.plot()->laneLabel(0).startsWith("EEG O1-avg LP 30  "), qPrintable(w.plot()->laneLabel(0)));
        QVERIFY(lv::test::waitSettled(w));
        QVERIFY(montageAction(w, "saved:Two")->shortcut() == QKeySequence("F5"));

        QTemporaryDir dir;
        const QString file = dir.filePath("one.json");
        QVERIFY(lv::montage::writeMontageFile(
                    {"One",
                     {{"Fp1-Fp2", "", "", {{"EEG Fp1", 1}, {"EEG Fp2", -1}}, {"#ff0000", 0, "", false}},
                      {"F3-F4", "", "", {{"EEG F3", 1}, {"EEG F4", -1}}, {"", 100, "", false}}}},
                    file.toStdString())
                    .ok());
        QSignalSpy imported(&w, &MainWindow::montageImported);
        w.importMontage(file);
        QVERIFY(imported.wait(10000));
        QCOMPARE(imported.at(0).at(1).toString(), QString());
        QCOMPARE(w.montageChoice(), QString("saved:One"));
        QCOMPARE(w.savedMontages().size(), std::size_t{2});
        QVERIFY(montageAction(w, "saved:One")->shortcut() == QKeySequence("F6"));
        QCOMPARE(w.plot()->colourOf(info.channels.size()), QColor("#ff0000")); // the derivation's own colour
        // F3-F4's own sensitivity, 100 uV/cm, over the common one, even Auto; Fp1-Fp2 follows the common one.
        for (const QString common : {"7 uV/mm", "Auto"}) {
            QVERIFY(w.setAmplitudeText(common));
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY2(w.plot()->laneLabel(1).endsWith("  10 uV/mm"), qPrintable(w.plot()->laneLabel(1)));
            QCOMPARE(w.plot()->unitsPerDivision(info.channels.size() + 1), 10 * w.plot()->divisionMillimetres());
        }
        QVERIFY2(!w.plot()->laneLabel(0).contains("uV/mm"), qPrintable(w.plot()->laneLabel(0)));
        QVERIFY(w.setAmplitudeText("7 uV/mm"));
        QVERIFY(lv::test::waitSettled(w));
        const auto reds = [&w] {
            const QImage image = w.plot()->traceImage();
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) == qRgb(255, 0, 0);
            return n;
        };
        QTRY_VERIFY(reds() > 100);
        w.importMontage(dir.filePath("missing.json"));
        QVERIFY(imported.wait(10000));
        QVERIFY2(imported.at(1).at(1).toString().contains("missing.json"), qPrintable(imported.at(1).at(1).toString()));

        lv::widgets::ConvertDialog* convert = w.openConvertDialog();
        QVERIFY(convert);
        QCOMPARE(convert->montageChoice(), QString("saved:One"));
        auto job = convert->buildJob();
        QVERIFY(job.ok());
        QVERIFY(job->montageGiven && job->montageGiven->name == "One");
        convert->setMontage("double-banana");
        job = convert->buildJob();
        QVERIFY(job.ok() && job->montage == "double-banana" && job->selection.channels.empty());
        convert->close();
    }
};

LONGVIEW_WIDGET_TEST(MontageViewTest)
#include "MontageViewTest.moc"
