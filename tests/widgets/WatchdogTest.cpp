// A watchdog thread posts a stamped event to the UI thread every 5 ms; the longest delay before one is handled that
// the UI thread is to blame for is the longest UI-thread stall. A script pages, jumps and zooms through a synthetic
// 64-channel 12-hour session: no stall may exceed 50 ms, and the last view must still be drawn exactly. A stall seen
// in one pass of the script only (the machine's doing, not ours) is printed, and the script runs once more.
#include "MainWindow.h"
#include "TracePlot.h"
#include "WidgetTestMain.h"
#include "WidgetTestSupport.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMutex>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using Interval = std::pair<qint64, qint64>; // [start, end) in ns on one clock

// How long one thread has so far been runnable but waiting for a CPU (ns; Linux /proc schedstat, second field).
qint64 queuedNs(pid_t tid)
{
    qint64 ranNs = 0;
    qint64 waitedNs = 0;
    std::ifstream("/proc/self/task/" + std::to_string(tid) + "/schedstat") >> ranNs >> waitedNs;
    return waitedNs;
}

// How long the hypervisor has so far run something else on this machine's virtual CPUs (ns; /proc/stat's steal
// time, all CPUs). Steal accounting leaves that time out of a thread's run time and queue time alike
// (CONFIG_PARAVIRT_TIME_ACCOUNTING): a UI thread whose CPU was taken away would otherwise seem to have stalled.
qint64 stolenNs()
{
    std::ifstream stat("/proc/stat");
    std::string cpu;
    qint64 ticks[8] = {}; // user nice system idle iowait irq softirq steal
    stat >> cpu;
    for (qint64& t : ticks) stat >> t;
    return ticks[7] * (1'000'000'000 / sysconf(_SC_CLK_TCK));
}

// One late event: when it was posted and handled, how long the UI thread waited for a CPU in between, and how much
// CPU time the hypervisor took in between.
struct Delay {
    Interval span;
    qint64 queuedNs;
    qint64 stolenNs;
};

// Times the UI thread cannot be blamed for: a thread that only sleeps 2 ms at a time, at the UI thread's priority,
// records every wake-up that came more than 10 ms late. When it was not scheduled either, the whole machine stood
// still (a virtual machine's stolen time, another process at a higher priority), and a UI delay that overlaps such a
// pause is counted without it. A UI thread that computes, blocks on a lock or waits for the disk is still caught:
// the sleeper runs on the other core, above the decoding threads.
class MachinePauses : public QThread {
public:
    explicit MachinePauses(const QElapsedTimer& clock) : m_clock(clock) {}
    void stop()
    {
        m_stop = true;
        wait();
    }
    std::vector<Interval> pauses() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_pauses;
    }

protected:
    void run() override
    {
        constexpr qint64 kSleepNs = 2'000'000;
        constexpr qint64 kLateNs = 10'000'000;
        while (!m_stop) {
            const qint64 before = m_clock.nsecsElapsed();
            QThread::usleep(kSleepNs / 1000);
            const qint64 after = m_clock.nsecsElapsed();
            if (after - before > kSleepNs + kLateNs) {
                const QMutexLocker lock(&m_mutex);
                m_pauses.emplace_back(before + kSleepNs, after);
            }
        }
    }

private:
    const QElapsedTimer& m_clock;
    std::atomic<bool> m_stop{false};
    mutable QMutex m_mutex;
    std::vector<Interval> m_pauses;
};

// Posts a stamped event to the UI thread every 5 ms and records every delay of 10 ms or more before one is handled.
class Watchdog : public QThread {
public:
    Watchdog(QObject* ui, pid_t uiThread, const QElapsedTimer& clock) : m_ui(ui), m_uiThread(uiThread), m_clock(clock)
    {}
    void stop()
    {
        m_stop = true;
        wait();
    }
    std::vector<Delay> delays() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_delays;
    }

protected:
    void run() override
    {
        while (!m_stop) {
            const qint64 queuedBefore = queuedNs(m_uiThread);
            const qint64 stolenBefore = stolenNs();
            const qint64 posted = m_clock.nsecsElapsed();
            QMetaObject::invokeMethod(
                m_ui,
                [this, posted, queuedBefore, stolenBefore] {
                    const qint64 handled = m_clock.nsecsElapsed();
                    if (handled - posted < 10'000'000) return;
                    const qint64 queued = queuedNs(m_uiThread) - queuedBefore;
                    const qint64 stolen = stolenNs() - stolenBefore;
                    const QMutexLocker lock(&m_mutex);
                    m_delays.push_back({{posted, handled}, queued, stolen});
                },
                Qt::QueuedConnection);
            QThread::msleep(5);
        }
    }

private:
    QObject* m_ui;
    pid_t m_uiThread;
    const QElapsedTimer& m_clock;
    std::atomic<bool> m_stop{false};
    mutable QMutex m_mutex;
    std::vector<Delay> m_delays;
};

qint64 overlapNs(const Interval& a, const Interval& b)
{
    return std::max<qint64>(0, std::min(a.second, b.second) - std::max(a.first, b.first));
}

// One delay taken apart (ms): its length, the machine's pauses in it, the CPU time the hypervisor took in it, the UI
// thread's wait for a CPU in it, and the rest, which the UI thread is to blame for: the time it ran or slept (on a
// lock, the disk), not the time it stood in the queue for a CPU nor the time its CPU or the whole machine was taken
// away. Pauses and steal are the same time seen twice when both CPUs were taken: the larger counts.
struct Stall {
    qint64 wholeMs = 0;
    qint64 pausedMs = 0;
    qint64 stolenMs = 0;
    qint64 queuedMs = 0;
    qint64 ownMs = 0;
};

Stall stallOf(const Delay& d, const std::vector<Interval>& pauses)
{
    qint64 paused = 0;
    for (const Interval& p : pauses) paused += overlapNs(d.span, p); // pauses never overlap each other
    const qint64 whole = d.span.second - d.span.first;
    const qint64 away = std::max(paused, d.stolenNs);
    return {whole / 1'000'000, paused / 1'000'000, d.stolenNs / 1'000'000, d.queuedNs / 1'000'000,
            std::max<qint64>(0, whole - away - d.queuedNs) / 1'000'000};
}

// The longest delay (first) and the one the UI thread owns most of (second).
std::pair<Stall, Stall> worstStalls(const std::vector<Delay>& delays, const std::vector<Interval>& pauses)
{
    Stall longest;
    Stall owned;
    for (const Delay& d : delays) {
        const Stall s = stallOf(d, pauses);
        if (s.wholeMs > longest.wholeMs) longest = s;
        if (s.ownMs > owned.ownMs) owned = s;
    }
    return {longest, owned};
}

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

        Stall owned = runScript(w, all);
        if (QTest::currentTestFailed()) return;
        if (owned.ownMs >= kMaxStallMs) {
            qWarning("a stall of the UI thread's own %lld ms in the first pass; the script runs once more",
                     static_cast<long long>(owned.ownMs));
            w.goTo(all.start); // where the first pass began, 10 s a page
            QVERIFY(lv::test::waitSettled(w, 60000));
            owned = runScript(w, all);
            if (QTest::currentTestFailed()) return;
        }
        QVERIFY2(owned.ownMs < kMaxStallMs,
                 qPrintable(QString("longest stall of the UI thread's own %1 ms").arg(owned.ownMs)));
    }

private:
    // One pass of the script under the watchdog; the view drawn exactly at its end. Returns the stall the UI thread
    // owned most of.
    Stall runScript(lv::widgets::MainWindow& w, const lv::core::TimeRange& all)
    {
        QElapsedTimer clock;
        clock.start();
        MachinePauses machine(clock);
        machine.start();
        Watchdog dog(&w, ::gettid(), clock);
        dog.start();
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
        machine.stop();
        const std::vector<Interval> pauses = machine.pauses();
        const auto [longest, owned] = worstStalls(dog.delays(), pauses);
        qint64 pausedMs = 0;
        for (const Interval& p : pauses) pausedMs += (p.second - p.first) / 1'000'000;
        qInfo("script took %lld ms; the machine paused %zu times, %lld ms in all; longest UI-thread stall %lld ms; the "
              "one the UI thread owned most of: %lld ms, %lld ms of it paused, %lld ms stolen, %lld ms waiting for a "
              "CPU, %lld ms its own",
              static_cast<long long>(clock.elapsed()), pauses.size(), static_cast<long long>(pausedMs),
              static_cast<long long>(longest.wholeMs), static_cast<long long>(owned.wholeMs),
              static_cast<long long>(owned.pausedMs), static_cast<long long>(owned.stolenMs),
              static_cast<long long>(owned.queuedMs), static_cast<long long>(owned.ownMs));
        [&] {
            QVERIFY(settled);
            QCOMPARE(w.plot()->drawnRange(), w.view().range());
        }();
        return owned;
    }
};

LONGVIEW_WIDGET_TEST(WatchdogTest)
#include "WatchdogTest.moc"
