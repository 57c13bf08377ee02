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
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, tid);
    if (errno != 0) return;
    if (nice <= 9) {
        (void)setpriority(PRIO_PROCESS, tid, nice + 10);
    } else { // already niced (e.g. `nice -n 19`): only the idle class still ranks below the UI thread
        sched_param param{};
        (void)sched_setscheduler(0, SCHED_IDLE, &param); // 0: the calling thread
    }
#else
    if (QThread* t = QThread::currentThread()) t->setPriority(QThread::LowPriority);
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
