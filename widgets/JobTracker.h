// Background work for one QObject: an id and a cancel token per request, a newer request in a lane superseding the
// older one (token set, results dropped), work on a thread pool, results delivered queued to the receiver's thread
// only while their request is current and the receiver lives.
#pragma once

#include "core/TaskRunner.h"

#include <QObject>
#include <QThreadPool>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace lv::widgets {

namespace detail {
struct TrackerState;
struct JobRequest;
} // namespace detail

// One request, as the work sees it: a cheap handle, safe to copy to and use from any thread.
class Job {
public:
    Job() = default;

    std::uint64_t id() const;
    int lane() const;
    const core::CancelToken& cancelToken() const;
    // Not superseded, dropped or stopped; reads an atomic (any thread).
    bool isCurrent() const;
    // 0..1, read on the UI thread with JobTracker::progress().
    void setProgress(double fraction) const;
    // Queues `deliver` to the receiver's thread. It runs there only if this request is still current then and the
    // receiver still lives; a dropped `deliver` (and what it holds) is destroyed on a pool thread, never the UI thread.
    void post(std::function<void()> deliver) const;
    // Runs work(*this) on `pool` (below the UI thread's priority), or, once the tracker has stopped, only destroys it
    // on a pool thread without touching `pool` (which may be gone then). For a request's later stages, from any
    // thread (e.g. a decode callback).
    void spawn(QThreadPool* pool, std::function<void(const Job&)> work) const;

private:
    friend class JobTracker;
    explicit Job(std::shared_ptr<detail::JobRequest> request) : m_request(std::move(request)) {}
    std::shared_ptr<detail::JobRequest> m_request;
};

// Owned by its receiver (or outliving nothing of it). Every member function is for the receiver's (UI) thread.
class JobTracker {
public:
    // `pool`: where start() and run() put the work and where dropped results are destroyed (nullptr: the background
    // pool). `lanes`: independent request streams (one kind of work each: lane k supersedes only lane k).
    explicit JobTracker(QObject* receiver, QThreadPool* pool = nullptr, int lanes = 1);
    ~JobTracker(); // stop()
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // A new request in `lane`, its work not started: the lane's current request is superseded.
    Job begin(int lane = 0);
    // begin(lane), then work(job) on the tracker's pool (or `pool`).
    Job start(int lane, std::function<void(const Job&)> work);
    Job start(int lane, QThreadPool& pool, std::function<void(const Job&)> work);
    // start(), with the value work(job) returns handed to deliver(value) on the receiver's thread (if still current).
    template <typename Work, typename Deliver>
    Job run(int lane, Work work, Deliver deliver)
    {
        return start(lane, [work = std::move(work), deliver = std::move(deliver)](const Job& job) mutable {
            auto result = work(job);
            job.post([result = std::move(result), deliver]() mutable { deliver(std::move(result)); });
        });
    }

    // Asks the lane's current request to stop: its token is set; what it still posts is delivered.
    void cancel(int lane = 0);
    // Supersedes the lane's current request without a new one: token set, results dropped.
    void drop(int lane = 0);
    void dropAll();
    // dropAll(), and from now on nothing is posted and Job::spawn starts nothing (call before the pools go).
    void stop();

    std::uint64_t currentId(int lane = 0) const; // changes with every begin() and drop()
    double progress(int lane = 0) const;         // the current request's Job::setProgress

private:
    std::shared_ptr<detail::TrackerState> m_state;
    std::vector<std::shared_ptr<detail::JobRequest>> m_current; // per lane; nullptr after drop()
    std::uint64_t m_nextId = 0;
    QMetaObject::Connection m_destroyed;
};

} // namespace lv::widgets
