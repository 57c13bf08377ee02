// Linux nice values and scheduling classes are per thread (setpriority on the thread id); elsewhere QThread's
// priority levels.
#include "ThreadPriority.h"

#include <QThread>
#include <algorithm>

#if defined(__linux__)
#include <cerrno>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lv::widgets {

void lowerThisThreadPriority()
{
    thread_local bool lowered = false;
    if (lowered) return;
    lowered = true;
#if defined(__linux__)
    // Relative to the process (its main thread), not to this thread: a thread started by a lowered thread inherits
    // its nice value, and lowering it again would push it to the idle class, starved by any other process.
    errno = 0;
    const int processNice = getpriority(PRIO_PROCESS, static_cast<id_t>(getpid()));
    if (errno != 0) return;
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    if (processNice <= 9) {
        (void)setpriority(PRIO_PROCESS, tid, processNice + 10);
    } else { // the process is niced already (e.g. `nice -n 19`): only the idle class still ranks below the UI thread
        sched_param param{};
        (void)sched_setscheduler(0, SCHED_IDLE, &param); // 0: the calling thread
    }
#else
    if (QThread* t = QThread::currentThread()) t->setPriority(QThread::LowPriority);
#endif
}

void idleThisThread()
{
#if defined(__linux__)
    sched_param param{};
    (void)sched_setscheduler(0, SCHED_IDLE, &param); // 0: the calling thread
#else
    lowerThisThreadPriority();
#endif
}

QThreadPool& backgroundPool()
{
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool; // never destroyed: jobs may run until the process ends
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        return p;
    }();
    return *pool;
}

} // namespace lv::widgets
