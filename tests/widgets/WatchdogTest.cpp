// A watchdog thread posts a stamped event to the UI thread every 5 ms; the longest delay before one is handled is
// the longest UI-thread stall. A script pages, jumps and zooms through a synthetic 64-channel 12-hour session:
// no stall may exceed 50 ms, and the last view must still be drawn exactly.
#include "MainWindow.h"
#include "TracePlot.h"
#include "WidgetTestSupport.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>

namespace {

class Watchdog : public QThread {
public:
    explicit Watchdog(QObject* ui) : m_ui(ui) { m_clock.start(); }
    void stop()
    {
        m_stop = true;
        wait();
    }
    qint64 longestStallMs() const { return m_longest.load(); }
    void reset() { m_longest = 0; }

protected:
    void run() override
    {
        while (!m_stop) {
            const qint64 posted = m_clock.nsecsElapsed();
            QMetaObject::invokeMethod(
                m_ui,
                [this, posted] {
                    const qint64 ms = (m_clock.nsecsElapsed() - posted) / 1'000'000;
                    qint64 seen = m_longest.load();
                    while (ms > seen && !m_longest.compare_exchange_weak(seen, ms)) {}
                },
                Qt::QueuedConnection);
            QThread::msleep(5);
        }
    }

private:
    QObject* m_ui;
    QElapsedTimer m_clock;
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_longest{0};
};

constexpr qint64 kMaxStallMs = 50;

} // namespace

class WatchdogTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_session;

private slots:
    void initTestCase()
    {
        const QString shared = "/tmp/longview-bench/synth-64ch-12h-256Hz-seg600min-v1/s.mefd"; // read only
        if (QFileInfo(shared).isDir()) {
            m_session = shared;
        } else {
            m_session = lv::test::makeSynth(m_dir.path(), {"--channels", "64", "--hours", "12", "--fs", "256"});
        }
        QVERIFY(!m_session.isEmpty());
    }

    void noUiStallWhilePagingJumpingAndZooming()
    {
        lv::widgets::MainWindow w;
        w.setInteractive(false);
        w.setInitialView({"", 10, ""});
        w.resize(1600, 900);
        w.show();
        QVERIFY(lv::test::openAndWait(w, m_session));
        QVERIFY(lv::test::waitSettled(w, 60000));
        QCOMPARE(w.plot()->channels().size(), std::size_t(64));
        const lv::core::TimeRange all = w.view().bounds();
        QVERIFY(all.duration() >= 12LL * 3600 * 1'000'000 - 1'000'000);

        Watchdog dog(&w);
        dog.start();
        QElapsedTimer clock;
        clock.start();
        const auto act = [&](auto&& step, int waitMs) {
            step();
            QTest::qWait(waitMs);
        };
        for (int i = 0; i < 30; ++i) act([&] { w.pageBy(1); }, 40); // holding PgDn
        for (int i = 0; i < 10; ++i) act([&] { w.stepBy(-0.1); }, 30);
        for (int k = 1; k <= 8; ++k) act([&] { w.goTo(all.start + all.duration() * k / 9); }, 60); // jumps
        for (int i = 0; i < 6; ++i) act([&] { w.zoomAroundCenter(2.0); }, 60);                     // out to minutes
        act([&] { w.setPageLength(0); }, 200);                                                     // the whole 12 h
        for (int i = 0; i < 12; ++i) act([&] { w.zoomAroundCenter(0.5); }, 60);                    // back in
        act([&] { w.setPageLength(3'600'000'000); }, 100);
        for (int i = 0; i < 5; ++i) act([&] { w.pageBy(1); }, 80);
        act([&] { w.setPageLength(10'000'000); }, 50);
        const bool settled = lv::test::waitSettled(w, 60000);
        dog.stop();
        qInfo("script took %lld ms; longest UI-thread stall %lld ms", static_cast<long long>(clock.elapsed()),
              static_cast<long long>(dog.longestStallMs()));
        QVERIFY(settled);
        QCOMPARE(w.plot()->drawnRange(), w.view().range());
        QVERIFY2(dog.longestStallMs() < kMaxStallMs,
                 qPrintable(QString("longest stall %1 ms").arg(dog.longestStallMs())));
    }
};

QTEST_MAIN(WatchdogTest)
#include "WatchdogTest.moc"
