// The filter dialog draws the response the display applies: zero-phase as the magnitude squared with no phase,
// causal as the filter's own; the notch and the pass band where they belong; a spec that is no filter at the rate
// is said in words and cannot be accepted.
#include "FilterDialog.h"
#include "WidgetTestMain.h"

#include "filter/FilterSpec.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QTest>
#include <cmath>
#include <numbers>

using namespace lv;

namespace {

// The smallest magnitude drawn between lo and hi Hz.
double lowest(const widgets::FilterDialog& d, double lo, double hi)
{
    double m = 1e9;
    for (int i = 0; i < d.frequencies().size(); ++i)
        if (d.frequencies()[i] >= lo && d.frequencies()[i] <= hi) m = std::min(m, d.magnitudeDb()[i]);
    return m;
}

} // namespace

class FilterDialogTest : public QObject {
    Q_OBJECT
private slots:
    void zeroPhaseIsTheMagnitudeSquaredWithNoPhase()
    {
        widgets::FilterDialog d("hp=0.5,lp=70,notch=50", 256);
        QVERIFY(d.problem().isEmpty());
        QCOMPARE(d.frequencies().size(), 403); // 400 log-spaced, the two edges and the notch
        QCOMPARE(d.frequencies().front(), 256.0 / 20000);
        QCOMPARE(d.frequencies().back(), 128.0);
        const filter::Sos sos = *filter::designFilter(*filter::parseFilterSpec("hp=0.5,lp=70,notch=50"), 256);
        for (int i = 0; i < d.frequencies().size(); ++i) {
            const double h = std::abs(filter::response(sos, d.frequencies()[i], 256));
            QVERIFY(std::abs(d.magnitudeDb()[i] - 20 * std::log10(std::max(h * h, 1e-12))) < 1e-9);
            QCOMPARE(d.phaseDegrees()[i], 0.0);
        }
        QVERIFY(std::abs(lowest(d, 9, 11)) < 0.1);                      // alpha passes
        QVERIFY(lowest(d, 45, 55) < -40);                               // the notch
        QVERIFY(lowest(d, 0.01, 0.05) < -60);                           // the drift is gone
        if (qEnvironmentVariableIsSet("LONGVIEW_FILTER_DIALOG_SHOT")) { // a picture to look at
            d.resize(640, 420);
            d.show();
            QVERIFY(QTest::qWaitForWindowExposed(&d));
            d.grab().save(qEnvironmentVariable("LONGVIEW_FILTER_DIALOG_SHOT"));
        }
        // A Butterworth edge is its -3 dB point: zero-phase, the curve crosses -6 dB there.
        d.setSpec("lp=30,order=4");
        int crossings = 0;
        for (int i = 1; i < d.frequencies().size(); ++i)
            if (d.magnitudeDb()[i - 1] > -6.02 && d.magnitudeDb()[i] <= -6.02) {
                ++crossings;
                QVERIFY(d.frequencies()[i - 1] < 30 && d.frequencies()[i] >= 30);
            }
        QCOMPARE(crossings, 1);
    }

    void causalDrawsTheFiltersOwnMagnitudeAndPhase()
    {
        widgets::FilterDialog d("hp=1,causal", 200);
        const filter::Sos sos = *filter::designFilter(*filter::parseFilterSpec("hp=1"), 200);
        bool turned = false;
        for (int i = 0; i < d.frequencies().size(); ++i) {
            const std::complex<double> h = filter::response(sos, d.frequencies()[i], 200);
            QVERIFY(std::abs(d.magnitudeDb()[i] - 20 * std::log10(std::max(std::abs(h), 1e-12))) < 1e-9);
            QVERIFY(std::abs(d.phaseDegrees()[i] - std::arg(h) * 180 / std::numbers::pi) < 1e-9);
            turned = turned || std::abs(d.phaseDegrees()[i]) > 45;
        }
        QVERIFY(turned); // a high-pass leads the phase below its edge
    }

    void aSpecThatIsNoFilterIsSaidAndCannotBeAccepted()
    {
        widgets::FilterDialog d("lp=200", 256);
        QCOMPARE(d.problem(), QString("a filter edge at 200 Hz must lie between 0 and half the sample rate (128 Hz)"));
        QVERIFY(d.frequencies().isEmpty());
        auto* ok = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        d.setRate(512); // the same words at a rate that takes them
        QVERIFY(d.problem().isEmpty());
        QVERIFY(ok->isEnabled());
        d.setSpec("hp=fast");
        QVERIFY(d.problem().startsWith("filter \"hp=fast\": "));
        QVERIFY(!ok->isEnabled());
    }
};

LONGVIEW_WIDGET_TEST(FilterDialogTest)
#include "FilterDialogTest.moc"
