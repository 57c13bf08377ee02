// Amplitude: a trace of known amplitude spans the expected height in the rendered image per division and in
// millimetres of screen (run at scale factors 1 and 2), per-channel factors and the global gain change it as
// labelled, Auto is the same for the same page however it was reached, and the toolbar sets every channel.
#include "MainWindow.h"
#include "PlotFixtures.h"
#include "TraceLoader.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QComboBox>
#include <QImage>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using lv::test::FourLanes;
using lv::test::kAmplitude;
using lv::test::squareWave;
using lv::widgets::MainWindow;
using lv::widgets::TracePlot;

namespace {

// The first and last rows of the trace image holding any drawn pixel (-1, -1: none).
std::pair<int, int> drawnRows(const QImage& image)
{
    int top = -1, bottom = -1;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(image.pixel(x, y)) > 0) {
                if (top < 0) top = y;
                bottom = y;
                break;
            }
    return {top, bottom};
}

// The trace's height in device pixels (top row to bottom row).
int drawnHeight(const QImage& image)
{
    const auto [top, bottom] = drawnRows(image);
    return top < 0 ? 0 : bottom - top;
}

} // namespace

class AmplitudeTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    // Waits for the next render of the plot to be drawn, then returns the channel's height in lanes.
    static double heightInLanes(TracePlot& plot, QSignalSpy& drawn)
    {
        drawn.clear();
        if (!drawn.wait(10000)) return -1;
        const QImage image = plot.traceImage();
        return drawnHeight(image) / (image.height() / 4.0);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-amplitude-test");
        QSettings().clear(); // a remembered amplitude from an earlier run would not start at Auto
    }

    void aTraceSpansItsAmplitudeOverUnitsPerDivision()
    {
        FourLanes lanes;
        QVERIFY(lanes.exposed);
        TracePlot& plot = lanes.plot;
        QSignalSpy& drawn = lanes.drawn;
        plot.setUnitsPerDivision(50);
        plot.setClipToLanes(false); // up to two lanes tall below
        plot.showFrame(squareWave(plot.dataColumns()));
        // 40 uV peak to peak at 50 uV per division: 0.8 of the spacing between two traces.
        double h = heightInLanes(plot, drawn);
        QVERIFY2(std::abs(h - 0.8) < 0.03, qPrintable(QString::number(h)));
        QCOMPARE(plot.unitsPerDivision(1), 50.0);
        QCOMPARE(plot.unitsPerDivision(0), 50.0);
        QVERIFY2(plot.laneLabel(1).endsWith("50 uV/div"), qPrintable(plot.laneLabel(1)));
        // One channel twice as large (Ctrl+Shift+wheel does this): 25 uV/div there, 1.6 divisions; others unchanged.
        plot.scaleChannel(1, 2.0);
        h = heightInLanes(plot, drawn);
        QVERIFY2(std::abs(h - 1.6) < 0.03, qPrintable(QString::number(h)));
        QCOMPARE(plot.unitsPerDivision(1), 25.0);
        QCOMPARE(plot.unitsPerDivision(0), 50.0);
        QVERIFY2(plot.laneLabel(1).endsWith("25 uV/div"), qPrintable(plot.laneLabel(1)));
        // All channels (Ctrl+wheel, Up/Down): a fixed scale stays a plain number per division.
        plot.setGain(plot.gain() * 1.25);
        QCOMPARE(plot.sensitivity().value, 40.0);
        QCOMPARE(plot.unitsPerDivision(1), 20.0);
        h = heightInLanes(plot, drawn);
        QVERIFY2(std::abs(h - 2.0) < 0.03, qPrintable(QString::number(h)));
        // Auto: the channel's extent fills kLaneFill (0.45) of half a lane each side, 0.9 of a division.
        plot.autoScale();
        h = heightInLanes(plot, drawn);
        QVERIFY2(std::abs(h - 0.9) < 0.03, qPrintable(QString::number(h)));
        QVERIFY(plot.sensitivity().isAuto());
        QVERIFY(std::abs(plot.unitsPerDivision(1) - kAmplitude / 0.45) < 1e-9);
    }

    // 40 uV peak to peak at 10 uV/mm is 4 mm on screen: with 5 logical pixels per millimetre (127 dpi), 20 logical
    // pixels, 20 x the scale factor in the trace image (this test runs at scale factors 1 and 2).
    void aSensitivityPerMillimetreIsTrueOnScreen()
    {
        FourLanes lanes;
        QVERIFY(lanes.exposed);
        TracePlot& plot = lanes.plot;
        QSignalSpy& drawn = lanes.drawn;
        plot.setPixelsPerMillimetre(5.0);
        plot.setSensitivity(*lv::widgets::Sensitivity::parse("10 uV/mm"));
        plot.showFrame(squareWave(plot.dataColumns()));
        drawn.clear();
        QVERIFY(drawn.wait(10000));
        const QImage image = plot.traceImage();
        const double dpr = plot.devicePixelRatioF();
        const double mm = drawnHeight(image) / dpr / 5.0;
        QVERIFY2(std::abs(mm - 4.0) <= 1.0 / 5.0, qPrintable(QString("%1 mm at scale factor %2").arg(mm).arg(dpr)));
        QCOMPARE(plot.unitsPerDivision(1), 10.0 * plot.divisionMillimetres());
        QVERIFY2(plot.laneLabel(1).endsWith("  10 uV/mm"), qPrintable(plot.laneLabel(1)));
        // "70 uV/cm" is the same; mV channels read it in their unit.
        plot.setSensitivity(*lv::widgets::Sensitivity::parse("100 uV/cm"));
        QCOMPARE(plot.unitsPerDivision(1), 10.0 * plot.divisionMillimetres());
        // The timebase: the data area's width in millimetres over the page's 10 s.
        QCOMPARE(plot.millimetresPerSecond(), plot.dataColumns() / dpr / 5.0 / 10.0);
    }

    // Clipped (the default), a trace three lanes tall stays inside its lane, flat at the edges; unclipped it
    // overlaps its neighbours.
    void tracesAreClippedToTheirLanes()
    {
        FourLanes lanes;
        QVERIFY(lanes.exposed);
        TracePlot& plot = lanes.plot;
        QSignalSpy& drawn = lanes.drawn;
        plot.setUnitsPerDivision(2 * kAmplitude / 3); // 40 uV peak to peak: 3 lanes
        QVERIFY(plot.clipsToLanes());
        plot.showFrame(squareWave(plot.dataColumns()));
        drawn.clear();
        QVERIFY(drawn.wait(10000));
        QImage image = plot.traceImage();
        const double lane = image.height() / 4.0;
        const auto [top, bottom] = drawnRows(image);
        QVERIFY2(top >= std::floor(lane) && top <= std::ceil(lane) && bottom < 2 * lane && bottom >= 2 * lane - 3,
                 qPrintable(QString("rows %1 to %2, lane 1 is [%3, %4)").arg(top).arg(bottom).arg(lane).arg(2 * lane)));
        plot.setClipToLanes(false); // a picture drawn before may still be on its way: wait for the new one
        QTRY_VERIFY_WITH_TIMEOUT(drawnHeight(plot.traceImage()) > 2 * lane, 10000);
    }

    // A unit the sensitivity does not convert to (a temperature beside EEG) gets one fitted scale for its channels.
    void unitsThatDoNotConvertShareOneFit()
    {
        FourLanes lanes("degC", false);
        TracePlot& plot = lanes.plot;
        plot.setPixelsPerMillimetre(5.0);
        plot.setSensitivity(*lv::widgets::Sensitivity::parse("7 uV/mm"));
        plot.showFrame(squareWave(plot.dataColumns(), kAmplitude, true, true));
        QCOMPARE(plot.unitsPerDivision(1), 7.0 * plot.divisionMillimetres());
        QCOMPARE(plot.unitsPerDivision(3), 10 * kAmplitude / 0.45);
        QVERIFY2(plot.laneLabel(3).endsWith(" degC/div"), qPrintable(plot.laneLabel(3)));
        // Kept while the pages change (a common scale does not follow each page).
        plot.showFrame(squareWave(plot.dataColumns(), 3 * kAmplitude, true, true));
        QCOMPARE(plot.unitsPerDivision(3), 10 * kAmplitude / 0.45);
    }

    // Auto fits every channel to the exact page shown: the same page gives the same scales whether it came first,
    // after another page, or after a coarse picture of itself; a new page refits.
    void autoIsTheSameForTheSamePageReachedTwoWays()
    {
        const auto scalesAfter = [&](const std::vector<lv::widgets::FramePtr>& frames) {
            FourLanes lanes("uV", false);
            TracePlot& plot = lanes.plot;
            plot.autoScale();
            for (const auto& f : frames) plot.showFrame(f);
            return std::pair{plot.unitsPerDivision(1), plot.unitsPerDivision(3)};
        };
        const auto page = [](double amplitude, bool exact) { return squareWave(800, amplitude, exact, true); };
        const auto direct = scalesAfter({page(kAmplitude, true)});
        QCOMPARE(direct.first, kAmplitude / 0.45);
        QCOMPARE(direct.second, 10 * kAmplitude / 0.45);
        QCOMPARE(scalesAfter({page(5 * kAmplitude, true), page(kAmplitude, true)}), direct);
        QCOMPARE(scalesAfter({page(2 * kAmplitude, false), page(kAmplitude, true)}), direct);
        QCOMPARE(scalesAfter({page(kAmplitude, true), page(3 * kAmplitude, false)}), direct); // coarse: kept
        QCOMPARE(scalesAfter({page(kAmplitude, true), page(3 * kAmplitude, true)}).first, 3 * kAmplitude / 0.45);
    }

    void theToolbarSetsEveryChannel()
    {
        QVERIFY(m_dir.isValid());
        const QString session =
            lv::test::makeSynth(m_dir.path(), {"--channels", "3", "--hours", "0.05", "--fs", "128", "--seed", "3"});
        QVERIFY(!session.isEmpty());
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(lv::test::openAndWait(w, session));
        QVERIFY(lv::test::waitSettled(w));
        // The default: a common 7 uV/mm.
        QCOMPARE(w.amplitudeCombo()->currentText(), QString("7 uV/mm"));
        const QString unit = QString::fromStdString(w.loader()->info()->channels[0].unit);
        QCOMPARE(unit, QString("uV"));
        for (std::size_t c = 0; c < 3; ++c)
            QCOMPARE(w.plot()->unitsPerDivision(c), 7.0 * w.plot()->divisionMillimetres());
        QVERIFY2(w.plot()->laneLabel(0).endsWith("  7 uV/mm"), qPrintable(w.plot()->laneLabel(0)));
        // A preset from the list: each channel's own unit per division.
        const int preset = w.amplitudeCombo()->findText("50");
        QVERIFY(preset > 0);
        w.amplitudeCombo()->setCurrentIndex(preset);
        emit w.amplitudeCombo()->activated(preset);
        for (std::size_t c = 0; c < 3; ++c) QCOMPARE(w.plot()->unitsPerDivision(c), 50.0);
        QVERIFY2(w.plot()->laneLabel(0).endsWith("50 " + unit + "/div"), qPrintable(w.plot()->laneLabel(0)));
        // Typed, with a unit after the number: per division of that unit.
        w.amplitudeCombo()->lineEdit()->setText("7.5 uV");
        emit w.amplitudeCombo()->lineEdit()->editingFinished();
        for (std::size_t c = 0; c < 3; ++c) QCOMPARE(w.plot()->unitsPerDivision(c), 7.5);
        QCOMPARE(w.amplitudeCombo()->currentText(), QString("7.5 uV/div"));
        // Nonsense is refused and the combo shows the scale again.
        QVERIFY(!w.setAmplitudeText("loud"));
        QCOMPARE(w.plot()->sensitivity().text(), QString("7.5 uV/div"));
        QCOMPARE(w.amplitudeCombo()->currentText(), QString("7.5 uV/div"));
        // Auto-scale (the A key, the toolbar button) shows Auto again.
        w.plot()->autoScale();
        QVERIFY(w.plot()->sensitivity().isAuto());
        QCOMPARE(w.amplitudeCombo()->currentText(), QString("Auto"));
    }
};

LONGVIEW_WIDGET_TEST(AmplitudeTest)
#include "AmplitudeTest.moc"
