// View > Spectrum on real EDF data: the page's density equals Welch's estimate of the page's values computed here,
// a sine's band power equals its mean square within 1 %, the dock follows the page, a montage lane's spectrum is
// that of the channels' difference, the whole channel is computed in the background with its segments counted, and
// band powers are numbers in the table. With LONGVIEW_SPECTRUM_SHOT=FILE.png the window is saved with the dock.
#include "SpectrumDock.h"
#include "MainWindow.h"
#include "TraceLoader.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "view/ViewSession.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <cmath>

using lv::widgets::MainWindow;
using lv::widgets::SpectrumDock;

namespace {

std::vector<double> valuesOf(lv::view::ViewSession& s, std::size_t channel, std::int64_t from, std::int64_t to)
{
    const lv::core::ChannelInfo& ch = s.info().channels[channel];
    std::vector<std::int32_t> raw(static_cast<std::size_t>(to - from));
    const lv::core::RawSlice slice{channel, from, raw};
    if (!s.recording().readRaw({&slice, 1}, {}).ok()) return {};
    std::vector<double> v(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) v[i] = raw[i] * ch.conversionFactor + ch.offset;
    return v;
}

bool waitComputed(SpectrumDock& dock)
{
    QSignalSpy spy(&dock, &SpectrumDock::computed);
    return spy.wait(20000);
}

} // namespace

class SpectrumDockTest : public QObject {
    Q_OBJECT
    const QString m_file = lv::test::testdata("edf/test_generator.edf");

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-spectrum-test");
        QSettings().clear();
    }

    void thePagesSpectrumIsWelchsOfItsValuesAndFollowsThePage()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1600, 1000);
        w.show();
        w.setInitialView({"+100", 10, ""});
        QVERIFY(lv::test::openAndWait(w, m_file));
        lv::view::ViewSession& s = *w.loader()->session();
        const auto sine = static_cast<std::size_t>(s.info().channelIndex("sine 8 Hz"));
        SpectrumDock& dock = *w.spectrum();
        dock.show();
        dock.setChannel(sine);
        dock.setWelch(2, 50, lv::spectrum::Window::Hann);
        dock.recompute();
        QVERIFY(waitComputed(dock));
        const lv::spectrum::Psd& psd = dock.psd();
        QCOMPARE(psd.segments, std::size_t{9}); // 10 s in 2 s segments, half overlapping
        QVERIFY2(dock.statusText().startsWith("sine 8 Hz, the page (10 s): 9 segments averaged, 10 s of data used"),
                 qPrintable(dock.statusText()));
        const std::vector<double> page = valuesOf(s, sine, 20000, 22000); // 100 s to 110 s at 200 Hz
        const auto expected = lv::spectrum::welch(page, 200, {400, 0.5, lv::spectrum::Window::Hann});
        QVERIFY(expected.ok());
        QCOMPARE(psd.power.size(), expected->power.size());
        for (std::size_t i = 0; i < psd.power.size(); ++i) QCOMPARE(psd.power[i], expected->power[i]);
        double mean = 0, square = 0;
        for (double v : page) mean += v / static_cast<double>(page.size());
        for (double v : page) square += (v - mean) * (v - mean) / static_cast<double>(page.size());
        QVERIFY2(std::abs(lv::spectrum::bandPower(psd, 6, 10) / square - 1) < 0.01,
                 qPrintable(QString::number(lv::spectrum::bandPower(psd, 6, 10) / square)));
        QTableWidget* bands = dock.bandTable();
        QCOMPARE(bands->rowCount(), 5);
        QCOMPARE(bands->item(2, 0)->text(), QString("alpha"));
        const auto share = [bands](int row) { return bands->item(row, 3)->text().chopped(2).toDouble(); };
        QVERIFY2(share(2) > 75, qPrintable(bands->item(2, 3)->text())); // 8 Hz is alpha (the window leaks some
        QVERIFY2(share(1) + share(2) > 99, qPrintable(bands->item(1, 3)->text())); // into theta's 7.5 Hz bin)

        w.pageBy(1); // 110 s to 120 s
        QVERIFY(waitComputed(dock));
        const auto next =
            lv::spectrum::welch(valuesOf(s, sine, 22000, 24000), 200, {400, 0.5, lv::spectrum::Window::Hann});
        for (std::size_t i = 0; i < dock.psd().power.size(); ++i) QCOMPARE(dock.psd().power[i], next->power[i]);

        dock.setSpan(SpectrumDock::Span::Whole);
        QVERIFY(waitComputed(dock));
        QCOMPARE(dock.psd().segments, std::size_t{599}); // (120000 - 400) / 200 + 1: 2 s segments, 1 s apart
        QVERIFY(!dock.setBands("alpha=13-8"));
        QVERIFY(dock.setBands("low=1-7,peak=7-9"));
        QCOMPARE(bands->rowCount(), 2);
        dock.setSpan(SpectrumDock::Span::Page);
        QVERIFY(waitComputed(dock));
        if (const QByteArray shot = qgetenv("LONGVIEW_SPECTRUM_SHOT"); !shot.isEmpty())
            QVERIFY(w.grab().save(QString::fromLocal8Bit(shot)));
    }

    void aMontageLanesSpectrumIsThatOfTheDifference()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1400, 900);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_file));
        lv::view::ViewSession& s = *w.loader()->session();
        const std::size_t n = s.info().channels.size();
        lv::montage::Montage m{"pair", {{"8-17", "", "", {{"sine 8 Hz", 1}, {"sine 17 Hz", -1}}, {}}}};
        w.saveMontage(m);
        QVERIFY(w.setMontage("saved:pair"));
        QVERIFY(lv::test::waitSettled(w));
        SpectrumDock& dock = *w.spectrum();
        dock.show();
        dock.setChannel(n);
        dock.recompute();
        QVERIFY(waitComputed(dock));
        QVERIFY2(dock.statusText().startsWith("8-17, the page"), qPrintable(dock.statusText()));
        std::vector<double> a = valuesOf(s, s.info().channelIndex("sine 8 Hz"), 0, 2000);
        const std::vector<double> b = valuesOf(s, s.info().channelIndex("sine 17 Hz"), 0, 2000);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
        const auto expected = lv::spectrum::welch(a, 200, {400, 0.5, lv::spectrum::Window::Hann});
        QCOMPARE(dock.psd().power.size(), expected->power.size());
        for (std::size_t i = 0; i < expected->power.size(); ++i) QCOMPARE(dock.psd().power[i], expected->power[i]);
    }
};

LONGVIEW_WIDGET_TEST(SpectrumDockTest)
#include "SpectrumDockTest.moc"
