// Background threads (decoding, frames, rendering) run below the UI thread's priority, so that on a busy machine
// the UI thread is scheduled first and never waits behind them.
#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

namespace lv::widgets {

// Lowers the calling thread's priority (Linux: this thread only, to the process's nice value + 10, or the idle
// scheduling class when the process is niced above 9); once per thread, idempotent.
void lowerThisThreadPriority();
// Puts the calling thread below every other thread of the machine (Linux: the idle scheduling class), for bulk work
// nobody waits for (a pyramid build); elsewhere as lowerThisThreadPriority.
void idleThisThread();

// Low-priority threads (one per core) for work split into disjoint parts: a frame's channels, a picture's stripes.
QThreadPool& backgroundPool();

// Calls f(item) for every item side by side on the background pool and the calling thread; returns when all are
// done. Every thread that runs a part runs below the UI thread.
template <typename Sequence, typename F>
void forEachInBackground(Sequence& items, F&& f)
{
    QtConcurrent::blockingMap(&backgroundPool(), items, [&f](auto& item) {
        lowerThisThreadPriority();
        f(item);
    });
}

} // namespace lv::widgets
