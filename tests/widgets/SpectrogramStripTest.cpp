// View > Spectrogram: the strip's spectrogram equals the engine's of the same channel over the recording, columns
// in a gap are empty and drawn blank, a second look comes from the cache beside the pyramid with the same values,
// a montage lane's is its derivation's, and a click centres the view there. With LONGVIEW_SPECTROGRAM_SHOT=FILE.png
// the window is saved (LONGVIEW_SPECTROGRAM_INPUT names another recording, its first channel shown).
#include "SpectrogramStrip.h"
#include "MainWindow.h"
#include "Theme.h"
#include "TraceLoader.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include "convert/MefExport.h"
#include "spectrum/Spectrogram.h"
#include "support/MemoryRecording.h"
#include "view/ViewSession.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using lv::widgets::MainWindow;
using lv::widgets::SpectrogramStrip;

namespace {

bool waitComputed(SpectrogramStrip& strip)
{
    QSignalSpy spy(&strip, &SpectrogramStrip::computed);
    return spy.wait(60000);
}

lv::spectrum::Spectrogram engineSpectrogram(lv::view::ViewSession& s, std::size_t channel)
{
    lv::spectrum::SpectrogramOptions o;
    o.columnSeconds = SpectrogramStrip::kColumnSeconds;
    o.welch.segment = static_cast<std::size_t>(SpectrogramStrip::kSegmentSeconds * s.info().channels[channel].fs);
    return *lv::spectrum::computeSpectrogram(s.recording(), channel, {s.info().start, s.info().end}, o, {});
}

// 60 s at 256 Hz with a gap from 20 s to 40 s, as a MEF session in `dir`.
QString sessionWithAGap(const QTemporaryDir& dir)
{
    lv::test::MemoryRecording m;
    m.addChannel("A", 256, 1'600'000'000'000'000, 15360, 7, 5120, 10240);
    const std::string path = dir.filePath("gap.mefd").toStdString();
    lv::convert::MefExportOptions options;
    options.range = {m.description.start, m.description.end};
    return lv::convert::exportMef(m, options, path, {}).ok() ? QString::fromStdString(path) : QString();
}

} // namespace

class SpectrogramStripTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_snapshots;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("LongviewTest");
        QCoreApplication::setApplicationName("longview-spectrogram-test");
        QSettings().clear();
        // A snapshot folder of this run's own: the first look must compute, whatever an earlier run left.
        QVERIFY(m_snapshots.isValid());
        qputenv("LONGVIEW_SNAPSHOT_DIR", m_snapshots.path().toUtf8());
    }

    void theStripIsTheEnginesSpectrogramAndIsKept()
    {
        for (int look = 0; look < 2; ++look) {
            MainWindow w;
            w.setInteractive(false);
            w.resize(1400, 900);
            w.show();
            QVERIFY(lv::test::openAndWait(w, lv::test::testdata("edf/test_generator.edf")));
            lv::view::ViewSession& s = *w.loader()->session();
            const auto sine = static_cast<std::size_t>(s.info().channelIndex("sine 8.5 Hz"));
            SpectrogramStrip& strip = *w.spectrogram();
            w.setSpectrogramShown(true);
            strip.setChannel(sine);
            if (!strip.spectrogram()) QVERIFY(waitComputed(strip));
            QVERIFY2(strip.spectrogram(), qPrintable(strip.statusText()));
            QCOMPARE(strip.fromCache(), look == 1);
            const lv::spectrum::Spectrogram expected = engineSpectrogram(s, sine);
            QCOMPARE(strip.spectrogram()->columns.size(), std::size_t{150}); // 600 s in 4 s columns
            QCOMPARE(strip.spectrogram()->frequencies, expected.frequencies);
            QCOMPARE(strip.spectrogram()->columns, expected.columns);
            QVERIFY2(strip.statusText().startsWith("150 columns of 4 s, 0-30 Hz"), qPrintable(strip.statusText()));

            QSignalSpy centred(&strip, &SpectrogramStrip::centerRequested);
            const QRect map = strip.mapRect();
            QTest::mouseClick(&strip, Qt::LeftButton, {}, QPoint(map.left() + map.width() / 4, map.center().y()));
            QCOMPARE(centred.size(), 1);
            const qint64 t = centred.at(0).at(0).toLongLong();
            QVERIFY(std::abs(t - (s.info().start + (s.info().end - s.info().start) / 4)) <= 600'000'000 / map.width());
            QVERIFY(lv::test::waitSettled(w));
            QVERIFY(std::abs(w.view().range().start + w.view().span() / 2 - t) < 1'000'000);
        }
    }

    void gapColumnsAreEmptyAndBlank()
    {
        MainWindow w;
        w.setInteractive(false);
        w.resize(1400, 900);
        w.show();
        QTemporaryDir dir;
        const QString session = sessionWithAGap(dir);
        QVERIFY(!session.isEmpty());
        QVERIFY(lv::test::openAndWait(w, session));
        const lv::core::ChannelInfo& ch = w.loader()->info()->channels[0];
        QVERIFY(!ch.gaps.empty());
        SpectrogramStrip& strip = *w.spectrogram();
        w.setSpectrogramShown(true);
        strip.setChannel(0);
        if (!strip.spectrogram()) QVERIFY(waitComputed(strip));
        QVERIFY2(strip.spectrogram(), qPrintable(strip.statusText()));
        const lv::spectrum::Spectrogram& s = *strip.spectrogram();
        std::size_t empty = 0;
        for (std::size_t c = 0; c < s.columns.size(); ++c) {
            const lv::core::TimeRange column{s.start + static_cast<qint64>(c) * s.columnUs,
                                             s.start + static_cast<qint64>(c + 1) * s.columnUs};
            const bool inGap = ch.gaps[0].start <= column.start && column.end <= ch.gaps[0].end;
            if (inGap) QVERIFY2(s.columns[c].empty(), qPrintable(QString("column %1 in the gap").arg(c)));
            empty += s.columns[c].empty();
        }
        QCOMPARE(empty, std::size_t{5}); // 20 s to 40 s: columns 5 to 9
        QVERIFY(lv::test::waitSettled(w));
        const QImage shot = strip.grab().toImage();
        const QRect map = strip.mapRect();
        const lv::core::RecordingInfo& info = *w.loader()->info();
        const auto middle = ch.gaps[0].start + ch.gaps[0].duration() / 2;
        const int x =
            static_cast<int>(static_cast<double>(middle - info.start) / (info.end - info.start) * map.width());
        QCOMPARE(shot.pixelColor(x, map.center().y()), lv::widgets::Theme::named(w.themeName()).plotBackground);
        const QColor gap = shot.pixelColor(x, map.center().y());
        const QColor data = shot.pixelColor(map.left() + 2, map.center().y());
        QVERIFY2(gap != data, "the gap is drawn like data");

        if (const QByteArray file = qgetenv("LONGVIEW_SPECTROGRAM_SHOT"); !file.isEmpty()) {
            const QByteArray input = qgetenv("LONGVIEW_SPECTROGRAM_INPUT");
            if (!input.isEmpty()) {
                QVERIFY(lv::test::openAndWait(w, QString::fromLocal8Bit(input)));
                QElapsedTimer t;
                t.start();
                strip.setChannel(0);
                if (!strip.spectrogram()) QVERIFY(waitComputed(strip));
                qInfo("spectrogram of %s: %lld ms (%s)", input.constData(), static_cast<long long>(t.elapsed()),
                      qPrintable(strip.statusText()));
                QVERIFY(lv::test::waitSettled(w));
            }
            QVERIFY(w.grab().save(QString::fromLocal8Bit(file)));
        }
    }
};

LONGVIEW_WIDGET_TEST(SpectrogramStripTest)
#include "SpectrogramStripTest.moc"
