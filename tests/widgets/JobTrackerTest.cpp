// JobTracker: a superseded request is never delivered and its token is set, a destroyed receiver gets nothing, results
// arrive on the receiver's (UI) thread, many rapid requests deliver only the last, lanes are independent.
#include "JobTracker.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using lv::widgets::Job;
using lv::widgets::JobTracker;

namespace {

// Spins the calling worker until `open` is set (a job held in flight while the test acts).
void waitFor(const std::atomic<bool>& open)
{
    while (!open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Runs the UI thread's queued deliveries after every job has finished.
void settle(QThreadPool& pool)
{
    QVERIFY(pool.waitForDone(10000));
    QCoreApplication::processEvents();
    QTest::qWait(20);
}

// A receiver whose delivery writes into itself: delivered after its destruction, ASan reports a use after free.
class Receiver : public QObject {
public:
    explicit Receiver(QThreadPool* pool) : tracker(this, pool) {}
    std::vector<int> values;
    JobTracker tracker;
};

} // namespace

class JobTrackerTest : public QObject {
    Q_OBJECT
    QThreadPool m_pool;

private slots:
    void init() { m_pool.setMaxThreadCount(2); }
    void cleanup() { QVERIFY(m_pool.waitForDone(10000)); }

    void aSupersededRequestIsNeverDeliveredAndItsTokenIsSet()
    {
        QObject receiver;
        JobTracker tracker(&receiver, &m_pool);
        std::vector<int> delivered;
        const auto deliver = [&delivered](int v) { delivered.push_back(v); };

        // Superseded while its work runs.
        std::atomic<bool> open{false};
        const Job running = tracker.run(
            0,
            [&open](const Job&) {
                waitFor(open);
                return 1;
            },
            deliver);
        const Job second = tracker.run(
            0, [](const Job&) { return 2; }, deliver);
        QVERIFY(running.cancelToken().cancelled());
        QVERIFY(!running.isCurrent());
        QVERIFY(!second.cancelToken().cancelled());
        open = true;
        settle(m_pool);
        QCOMPARE(delivered, std::vector<int>{2});

        // Superseded after its result was posted, before the UI thread ran the delivery.
        delivered.clear();
        const Job posted = tracker.run(
            0, [](const Job&) { return 3; }, deliver);
        QVERIFY(m_pool.waitForDone(10000)); // posted, not delivered: no event processed yet
        QVERIFY(delivered.empty());
        const Job fourth = tracker.run(
            0, [](const Job&) { return 4; }, deliver);
        QVERIFY(posted.cancelToken().cancelled());
        settle(m_pool);
        QCOMPARE(delivered, std::vector<int>{4});

        // drop(): no new request, the current one's results dropped too.
        delivered.clear();
        const Job dropped = tracker.run(
            0, [](const Job&) { return 5; }, deliver);
        QVERIFY(m_pool.waitForDone(10000));
        tracker.drop();
        QVERIFY(dropped.cancelToken().cancelled());
        settle(m_pool);
        QVERIFY(delivered.empty());
    }

    void aDestroyedReceiverGetsNothing()
    {
        // The receiver owns its tracker (the widgets' way) and goes while the work runs, then after it posted.
        for (const bool afterPost : {false, true}) {
            auto* receiver = new Receiver(&m_pool);
            std::atomic<bool> open{afterPost};
            auto delivered = std::make_shared<std::atomic<int>>(0);
            receiver->tracker.run(
                0,
                [&open](const Job&) {
                    waitFor(open);
                    return 7;
                },
                [receiver, delivered](int v) {
                    ++*delivered;
                    receiver->values.push_back(v); // a use after free if it ever runs
                });
            if (afterPost) QVERIFY(m_pool.waitForDone(10000));
            delete receiver;
            open = true;
            settle(m_pool);
            QCOMPARE(delivered->load(), 0);
        }
        // The receiver goes while its tracker lives on.
        for (const bool afterPost : {false, true}) {
            auto* receiver = new QObject;
            JobTracker tracker(receiver, &m_pool);
            std::atomic<bool> open{afterPost};
            auto delivered = std::make_shared<std::atomic<int>>(0);
            const Job job = tracker.run(
                0,
                [&open](const Job&) {
                    waitFor(open);
                    return 8;
                },
                [delivered](int) { ++*delivered; });
            if (afterPost) QVERIFY(m_pool.waitForDone(10000));
            delete receiver;
            open = true;
            settle(m_pool);
            QCOMPARE(delivered->load(), 0);
            QVERIFY(job.isCurrent()); // nothing superseded it: only its receiver is gone
        }
    }

    void resultsArriveOnTheReceiversThread()
    {
        QObject receiver;
        JobTracker tracker(&receiver, &m_pool);
        QThread* const ui = QThread::currentThread();
        std::atomic<bool> workedOnUi{true};
        std::vector<bool> deliveredOnUi; // pool threads are gone after waitForDone: compare, never print them
        tracker.start(0, [&, ui](const Job& job) {
            workedOnUi = QThread::currentThread() == ui;
            for (int k = 0; k < 3; ++k) // several results of one request
                job.post([&deliveredOnUi, ui] { deliveredOnUi.push_back(QThread::currentThread() == ui); });
        });
        settle(m_pool);
        QVERIFY(!workedOnUi);
        QCOMPARE(deliveredOnUi, std::vector<bool>(3, true));
    }

    void manyRapidRequestsDeliverOnlyTheLast()
    {
        QObject receiver;
        JobTracker tracker(&receiver, &m_pool);
        std::vector<int> delivered;
        std::vector<Job> jobs;
        constexpr int kRequests = 500;
        for (int k = 0; k < kRequests; ++k) {
            jobs.push_back(tracker.run(
                0,
                [k](const Job&) {
                    std::this_thread::sleep_for(std::chrono::microseconds(k % 7 * 100));
                    return k;
                },
                [&delivered](int v) { delivered.push_back(v); }));
        }
        settle(m_pool);
        QCOMPARE(delivered, std::vector<int>{kRequests - 1});
        for (int k = 0; k + 1 < kRequests; ++k) QVERIFY(jobs[static_cast<std::size_t>(k)].cancelToken().cancelled());
        QVERIFY(!jobs.back().cancelToken().cancelled());
        QCOMPARE(tracker.currentId(), jobs.back().id());
    }

    void lanesAreIndependentAndCancelStillDelivers()
    {
        QObject receiver;
        JobTracker tracker(&receiver, &m_pool, 2);
        std::vector<int> delivered;
        const auto deliver = [&delivered](int v) { delivered.push_back(v); };
        std::atomic<bool> open{false};
        const Job a = tracker.run(
            0,
            [&open](const Job& job) {
                waitFor(open);
                job.setProgress(0.5);
                return job.cancelToken().cancelled() ? -1 : 1;
            },
            deliver);
        const Job b = tracker.run(
            1, [](const Job&) { return 2; }, deliver);
        QVERIFY(!a.cancelToken().cancelled()); // another lane: not superseded
        tracker.cancel(0);                     // asked to stop, still current: its answer arrives
        QVERIFY(a.cancelToken().cancelled() && a.isCurrent() && b.isCurrent());
        open = true;
        settle(m_pool);
        std::sort(delivered.begin(), delivered.end());
        QCOMPARE(delivered, (std::vector<int>{-1, 2}));
        QCOMPARE(tracker.progress(0), 0.5);
    }

    void aStoppedTrackerStartsAndDeliversNothing()
    {
        QObject receiver;
        JobTracker tracker(&receiver, &m_pool);
        int delivered = 0;
        std::atomic<bool> open{false};
        std::atomic<int> ran{0};
        const Job job = tracker.start(0, [&](const Job& job) {
            waitFor(open);
            job.post([&delivered] { ++delivered; });
        });
        tracker.stop();
        job.spawn(&m_pool, [&ran](const Job&) { ++ran; }); // e.g. a decode callback after the owner is gone
        open = true;
        settle(m_pool);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        QCOMPARE(delivered, 0);
        QCOMPARE(ran.load(), 0);
        QVERIFY(job.cancelToken().cancelled());
    }
};

QTEST_GUILESS_MAIN(JobTrackerTest)
#include "JobTrackerTest.moc"
