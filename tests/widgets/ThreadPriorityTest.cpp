// lowerThisThreadPriority: a background thread runs 10 nice levels below the process, and so does a thread started
// from such a thread (it inherits the lowered value; lowering it again must not push it further down).
#include "ThreadPriority.h"
#include "WidgetTestMain.h"

#include <QCoreApplication>
#include <QTest>
#include <thread>

#if defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

#if defined(__linux__)
int threadNice() { return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))); }
int policy() { return sched_getscheduler(0); }
#endif

} // namespace

class ThreadPriorityTest : public QObject {
    Q_OBJECT
private slots:
    void lowersRelativeToTheProcess()
    {
#if !defined(__linux__)
        QSKIP("nice values are Linux's");
#else
        const int process = getpriority(PRIO_PROCESS, static_cast<id_t>(getpid()));
        if (process > 9) QSKIP("the test runs niced above 9: background threads use the idle class then");
        int first = 0, second = 0, firstPolicy = -1, secondPolicy = -1;
        std::thread([&] {
            lv::widgets::lowerThisThreadPriority();
            first = threadNice();
            firstPolicy = policy();
            std::thread([&] { // inherits the lowered value
                lv::widgets::lowerThisThreadPriority();
                second = threadNice();
                secondPolicy = policy();
            })
                .join();
        }).join();
        QCOMPARE(first, process + 10);
        QCOMPARE(second, process + 10);
        QCOMPARE(firstPolicy, SCHED_OTHER);
        QCOMPARE(secondPolicy, SCHED_OTHER);
        QCOMPARE(threadNice(), process); // the calling thread is left alone
#endif
    }

    void backgroundPoolRunsEveryItem()
    {
        std::vector<int> items(100);
        for (int i = 0; i < 100; ++i) items[static_cast<std::size_t>(i)] = i;
        lv::widgets::forEachInBackground(items, [](int& v) { v = v * v; });
        for (int i = 0; i < 100; ++i) QCOMPARE(items[static_cast<std::size_t>(i)], i * i);
    }
};

LONGVIEW_GUILESS_TEST(ThreadPriorityTest)
#include "ThreadPriorityTest.moc"
