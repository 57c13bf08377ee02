// Requests share their tracker's state: per lane the current id (an atomic the workers read), and under a lock the
// receiver (cleared when it is destroyed) and whether the tracker has stopped, so a worker never posts to a dead
// receiver or starts work on a pool that is going away. Posting and spawning only read them, under a shared lock:
// the UI thread's request never waits for a low-priority worker that holds the lock while it posts or spawns (a
// priority inversion that held the UI thread for up to 119 ms under strace).
#include "JobTracker.h"

#include "ThreadPriority.h"

#include <QMetaObject>
#include <QThread>
#include <atomic>
#include <mutex>
#include <shared_mutex>

namespace lv::widgets {

namespace detail {

struct TrackerState {
    explicit TrackerState(int laneCount) : lanes(laneCount), current(new std::atomic<std::uint64_t>[laneCount]) {}

    const int lanes;
    std::unique_ptr<std::atomic<std::uint64_t>[]> current; // per lane: the current request's id (0: none)
    std::shared_mutex mutex;                               // guards receiver and stopped
    QObject* receiver = nullptr;                           // nullptr once destroyed or stopped
    bool stopped = false;
    QThreadPool* pool = nullptr; // the receiver's thread only: where dropped deliveries are destroyed
};

struct JobRequest {
    JobRequest(std::shared_ptr<TrackerState> s, std::uint64_t i, int l) : state(std::move(s)), id(i), lane(l) {}

    bool current() const { return state->current[lane].load(std::memory_order_acquire) == id; }

    const std::shared_ptr<TrackerState> state;
    const std::uint64_t id;
    const int lane;
    core::CancelToken cancel;
    std::atomic<double> progress{0.0};
};

} // namespace detail

namespace {

// What a dropped delivery holds may be heavy to destroy (a recording joins its decoders): never on the UI thread.
void destroyOffThread(const detail::TrackerState& state, std::function<void()> f)
{
    QThreadPool* pool = state.pool ? state.pool : QThreadPool::globalInstance();
    pool->start([f = std::move(f)] {});
}

const core::CancelToken& cancelledToken()
{
    static const core::CancelToken* token = [] {
        auto* t = new core::CancelToken;
        t->cancel();
        return t;
    }();
    return *token;
}

} // namespace

std::uint64_t Job::id() const { return m_request ? m_request->id : 0; }

int Job::lane() const { return m_request ? m_request->lane : -1; }

const core::CancelToken& Job::cancelToken() const { return m_request ? m_request->cancel : cancelledToken(); }

bool Job::isCurrent() const { return m_request && m_request->current(); }

void Job::setProgress(double fraction) const
{
    if (m_request) m_request->progress.store(fraction, std::memory_order_relaxed);
}

void Job::post(std::function<void()> deliver) const
{
    if (!isCurrent()) return; // dropped here, on the worker
    detail::TrackerState& state = *m_request->state;
    const std::shared_lock lock(state.mutex);
    if (!state.receiver) return;
    QMetaObject::invokeMethod(
        state.receiver,
        [request = m_request, deliver = std::move(deliver)]() mutable {
            if (request->current()) return deliver();
            destroyOffThread(*request->state, std::move(deliver));
        },
        Qt::QueuedConnection);
}

void Job::spawn(QThreadPool* pool, std::function<void(const Job&)> work) const
{
    if (!m_request) return;
    detail::TrackerState& state = *m_request->state;
    std::shared_lock lock(state.mutex);
    if (state.stopped) { // `pool` may be gone: only let go of what the work holds, off this thread
        lock.unlock();
        QThreadPool::globalInstance()->start([work = std::move(work)] {});
        return;
    }
    pool->start([job = *this, work = std::move(work)] {
        lowerThisThreadPriority();
        work(job);
    });
}

JobTracker::JobTracker(QObject* receiver, QThreadPool* pool, int lanes)
    : m_state(std::make_shared<detail::TrackerState>(std::max(lanes, 1)))
    , m_current(static_cast<std::size_t>(m_state->lanes))
{
    for (int k = 0; k < m_state->lanes; ++k) m_state->current[k].store(0);
    m_state->receiver = receiver;
    m_state->pool = pool ? pool : &backgroundPool();
    m_destroyed = QObject::connect(receiver, &QObject::destroyed, [state = m_state] {
        std::lock_guard lock(state->mutex);
        state->receiver = nullptr;
    });
}

JobTracker::~JobTracker()
{
    stop();
    QObject::disconnect(m_destroyed);
}

Job JobTracker::begin(int lane)
{
    Q_ASSERT(lane >= 0 && lane < m_state->lanes);
    auto request = std::make_shared<detail::JobRequest>(m_state, ++m_nextId, lane);
    m_state->current[lane].store(request->id, std::memory_order_release);
    std::shared_ptr<detail::JobRequest>& current = m_current[static_cast<std::size_t>(lane)];
    if (current) current->cancel.cancel();
    current = request;
    return Job(std::move(request));
}

Job JobTracker::start(int lane, std::function<void(const Job&)> work)
{
    return start(lane, *m_state->pool, std::move(work));
}

Job JobTracker::start(int lane, QThreadPool& pool, std::function<void(const Job&)> work)
{
    Job job = begin(lane);
    job.spawn(&pool, std::move(work));
    return job;
}

void JobTracker::cancel(int lane)
{
    if (const auto& current = m_current.at(static_cast<std::size_t>(lane))) current->cancel.cancel();
}

void JobTracker::drop(int lane)
{
    m_state->current[lane].store(++m_nextId, std::memory_order_release); // no request has this id
    std::shared_ptr<detail::JobRequest>& current = m_current.at(static_cast<std::size_t>(lane));
    if (current) current->cancel.cancel();
    current.reset();
}

void JobTracker::dropAll()
{
    for (int k = 0; k < m_state->lanes; ++k) drop(k);
}

void JobTracker::stop()
{
    dropAll();
    std::lock_guard lock(m_state->mutex);
    m_state->stopped = true;
    m_state->receiver = nullptr;
    m_state->pool = nullptr;
}

std::uint64_t JobTracker::currentId(int lane) const { return m_state->current[lane].load(std::memory_order_relaxed); }

double JobTracker::progress(int lane) const
{
    const auto& current = m_current.at(static_cast<std::size_t>(lane));
    return current ? current->progress.load(std::memory_order_relaxed) : 0.0;
}

} // namespace lv::widgets
