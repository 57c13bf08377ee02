// Background open, coarse and exact frame jobs, PageLoader callbacks posted back to the UI thread.
#include "TraceLoader.h"

#include "ThreadPriority.h"
#include "TraceBuilder.h"

#include "cache/PageLoader.h"
#include "common/ErrorText.h"
#include "formats/mef3/Snapshot.h"
#include "view/ViewSession.h"

#include <QMetaObject>
#include <QThreadPool>
#include <mutex>

namespace lv::widgets {

// Lets scheduler callbacks (any thread, any time) reach the loader only while it lives.
struct TraceLoader::Guard {
    std::mutex mutex;
    TraceLoader* loader = nullptr;
};

TraceLoader::TraceLoader(QObject* parent)
    : QObject(parent)
    , m_guard(std::make_shared<Guard>())
    , m_cancel(std::make_shared<core::CancelToken>())
{
    qRegisterMetaType<FramePtr>();
    m_guard->loader = this;
    m_pool.setMaxThreadCount(2);
    m_pagePool.setMaxThreadCount(1);
}

TraceLoader::~TraceLoader()
{
    {
        std::lock_guard lock(m_guard->mutex);
        m_guard->loader = nullptr;
    }
    close();
    m_pagePool.waitForDone();
    m_pool.waitForDone();
}

const core::RecordingInfo* TraceLoader::info() const { return m_session ? &m_session->info() : nullptr; }

void TraceLoader::close()
{
    ++m_openId;
    ++m_id;
    m_cancel->cancel();
    m_cancel = std::make_shared<core::CancelToken>();
    m_bands.reset();
    m_path.clear();
    if (m_session) // after the page thread's queued calls; the session's destructor joins decoders and saves the
                   // pyramid: not on the UI thread
        m_pagePool.start(
            [pages = std::shared_ptr<cache::PageLoader>(std::move(m_pages)), session = std::move(m_session)]() mutable {
                pages.reset();
                session.reset();
            });
    m_pages.reset();
    m_session.reset();
}

void TraceLoader::open(const QString& path, const QString& password, bool deferCheck)
{
    close();
    const std::uint64_t openId = m_openId;
    m_pool.start([this, openId, path, password, deferCheck] {
        lowerThisThreadPriority();
        view::ViewOptions options;
        options.workerStart = lowerThisThreadPriority;
        options.password = password.toStdString();
        options.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
        options.deferSnapshotCheck = deferCheck;
        auto result = view::ViewSession::open(path.toStdString(), options);
        if (!result) {
            const core::Error e = result.error();
            const bool needsPassword =
                e.code == core::ErrorCode::PasswordRequired || e.code == core::ErrorCode::WrongPassword;
            const QString message = QString::fromStdString(app::errorText(e, app::Audience::Gui));
            QMetaObject::invokeMethod(
                this,
                [this, openId, path, message, needsPassword] {
                    if (openId == m_openId) emit openFailed(path, message, needsPassword);
                },
                Qt::QueuedConnection);
            return;
        }
        std::shared_ptr<view::ViewSession> session(std::move(*result));
        auto bands = std::make_shared<const GapBands>(computeGapBands(session->info()));
        QMetaObject::invokeMethod(
            this,
            [this, openId, path, session, bands]() mutable {
                if (openId != m_openId) {
                    m_pool.start([s = std::move(session)]() mutable { s.reset(); });
                    return;
                }
                m_session = std::move(session);
                m_bands = std::move(bands);
                m_path = path;
                m_pages = std::make_unique<cache::PageLoader>(m_session->scheduler(), m_session->info(), kViewId);
                if (m_buildPyramid) // waits for the saved pyramid to be read: never on the page thread
                    m_pool.start([session = m_session] {
                        lowerThisThreadPriority();
                        session->buildPyramid();
                    });
                emit opened(path);
            },
            Qt::QueuedConnection);
    });
}

void TraceLoader::checkOnDisk()
{
    if (!m_session) return;
    m_pool.start([this, openId = m_openId, session = m_session, path = m_path] {
        lowerThisThreadPriority();
        if (session->checkOnDisk() != view::DiskCheck::Changed) return;
        QMetaObject::invokeMethod(
            this,
            [this, openId, path] {
                if (openId == m_openId) emit changedOnDisk(path);
            },
            Qt::QueuedConnection);
    });
}

namespace {

struct PageShape {
    std::size_t blocks = 0; // blocks the page covers, over its channels
    bool narrow = true;     // every block narrower than half a column: envelopes need no decoding
};

// By binary search over each channel's blocks; the first look at a channel may decode its block list from the
// snapshot: never on the UI thread.
PageShape shapeOf(const view::ViewSession& session, const FrameRequest& r)
{
    PageShape shape;
    const core::BlockSource& source = *session.context().source;
    for (std::size_t c : r.channels) {
        const core::SampleGrid grid = session.info().channels.at(c).grid();
        const std::int64_t from = grid.firstIndexAtOrAfter(r.range.start), to = grid.firstIndexAtOrAfter(r.range.end);
        const auto blocks = cache::blocksCovering(source, c, from, to);
        if (blocks.end <= blocks.first) continue;
        shape.blocks += blocks.end - blocks.first;
        const double perColumn =
            static_cast<double>(to - from) / static_cast<double>(std::max<std::size_t>(r.columns, 1));
        shape.narrow = shape.narrow && source.blocks(c)[blocks.first].count <= 0.5 * perColumn;
    }
    return shape;
}

} // namespace

std::uint64_t TraceLoader::request(core::TimeRange range, const std::vector<std::size_t>& channels, std::size_t columns)
{
    if (!m_session) return 0;
    m_cancel->cancel();
    m_cancel = std::make_shared<core::CancelToken>();
    const std::uint64_t id = ++m_id;
    m_exactShown = false;
    const FrameRequest coarse{id, range, channels, columns, false, 0.0};
    m_latest->store(id);
    cache::PageLoader* pages = m_pages.get(); // lives until a job queued after this one on the page thread
    m_pagePool.start([pages, latest = m_latest, guard = std::weak_ptr<Guard>(m_guard), session = m_session,
                      cancel = m_cancel, coarse] {
        lowerThisThreadPriority();
        if (latest->load() != coarse.id) return; // the view has moved on before this page was asked for
        FrameRequest exact = coarse;
        exact.exact = true;
        const PageShape shape = shapeOf(*session, coarse);
        if (shape.blocks > kMaxPageBlocks || shape.narrow) {
            session->scheduler().cancelView(kViewId); // the previous page's decodes are not needed any more
            exact.smear = 0.5;                        // display-exact: peaks at most half a column off
            if (!shape.narrow) startFromAnyThread(guard, session, cancel, coarse);
            startFromAnyThread(guard, session, cancel, exact);
            return;
        }
        // Decode the page first through the PageLoader (priority lane, prefetch, pinned), then draw it sample-exact
        // from the cache; a coarse picture only while blocks are decoding.
        auto ready = std::make_shared<std::atomic<bool>>(false);
        // The callback runs on a scheduler worker: it must not own the session, or dropping the last reference
        // there would destroy the scheduler from one of its own threads.
        pages->show({exact.channels, exact.range}, [guard, weak = std::weak_ptr<view::ViewSession>(session), cancel,
                                                    exact, ready](const auto& result) {
            if (result.outcome == cache::Outcome::Cancelled) return;
            ready->store(true);
            if (auto s = weak.lock()) startFromAnyThread(guard, std::move(s), cancel, exact);
        });
        if (!ready->load()) startFromAnyThread(guard, session, cancel, coarse);
    });
    return id;
}

void TraceLoader::startFromAnyThread(const std::weak_ptr<Guard>& guard, std::shared_ptr<view::ViewSession> session,
                                     std::shared_ptr<core::CancelToken> cancel, const FrameRequest& request)
{
    const auto g = guard.lock();
    std::unique_lock lock = g ? std::unique_lock(g->mutex) : std::unique_lock<std::mutex>();
    if (TraceLoader* self = g ? g->loader : nullptr) {
        self->run(std::move(session), std::move(cancel), request);
        return;
    }
    // The loader is gone: let a pool thread drop what may be the session's last reference (never a scheduler
    // worker, which cannot join itself).
    QThreadPool::globalInstance()->start([session = std::move(session)] {});
}

void TraceLoader::run(std::shared_ptr<view::ViewSession> session, std::shared_ptr<core::CancelToken> cancel,
                      const FrameRequest& request)
{
    m_pool.start([this, session = std::move(session), cancel, request] { // moved: no reference left on this thread
        lowerThisThreadPriority();
        std::shared_ptr<const TraceFrame> frame = buildFrame(*session, request, *cancel);
        if (!frame) return;
        QMetaObject::invokeMethod(
            this, [this, frame] { deliver(frame); }, Qt::QueuedConnection);
    });
}

void TraceLoader::deliver(FramePtr frame)
{
    if (!frame || frame->id != m_id) return; // stale: the view has moved on
    if (!frame->exact && m_exactShown) return;
    m_exactShown = m_exactShown || frame->exact;
    emit frameReady(std::move(frame));
}

} // namespace lv::widgets
