// Linux nice values are per thread (setpriority on the thread id); elsewhere QThread's priority levels.
#include "ThreadPriority.h"

#include <QThread>
#include <algorithm>

#if defined(__linux__)
#include <cerrno>
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
    if (errno == 0) (void)setpriority(PRIO_PROCESS, tid, std::min(nice + 10, 19));
#else
    if (QThread* t = QThread::currentThread()) t->setPriority(QThread::LowPriority);
#endif
}

} // namespace lv::widgets
