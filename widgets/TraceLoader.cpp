// Background open, coarse and exact frame jobs, PageLoader callbacks posted back to the UI thread.
#include "TraceLoader.h"

#include "ThreadPriority.h"
#include "TraceBuilder.h"

#include "cache/PageLoader.h"
#include "common/ErrorText.h"
#include "formats/mef3/Snapshot.h"
#include "view/ViewSession.h"

#include <QMetaObject>
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

void TraceLoader::open(const QString& path, const QString& password)
{
    close();
    const std::uint64_t openId = m_openId;
    m_pool.start([this, openId, path, password] {
        lowerThisThreadPriority();
        view::ViewOptions options;
        options.workerStart = lowerThisThreadPriority;
        options.password = password.toStdString();
        options.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
        auto result = view::ViewSession::open(path.toStdString(), options);
        if (!result) {
            const core::Error e = result.error();
            const bool needsPassword =
                e.code == core::ErrorCode::PasswordRequired || e.code == core::ErrorCode::WrongPassword;
            const QString message = QString::fromStdString(app::errorText(e));
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
                if (m_buildPyramid)
                    m_pagePool.start([session = m_session] {
                        lowerThisThreadPriority();
                        session->buildPyramid();
                    });
                emit opened(path);
            },
            Qt::QueuedConnection);
    });
}

std::uint64_t TraceLoader::request(core::TimeRange range, const std::vector<std::size_t>& channels, std::size_t columns)
{
    if (!m_session) return 0;
    m_cancel->cancel();
    m_cancel = std::make_shared<core::CancelToken>();
    const std::uint64_t id = ++m_id;
    m_exactShown = false;
    const FrameRequest coarse{id, range, channels, columns, false, 0.0};
    startJob(coarse);
    m_pending = coarse;
    m_pending.exact = true;
    // Count the page's blocks by binary search (cheap on this thread); few enough: decode them first through the
    // PageLoader (priority lane, prefetch, pinned), then draw sample-exact from the cache.
    const core::BlockSource& source = *m_session->context().source;
    std::size_t blocks = 0;
    for (std::size_t c : channels) {
        const core::SampleGrid grid = m_session->info().channels.at(c).grid();
        const auto r = cache::blocksCovering(source, c, grid.firstIndexAtOrAfter(range.start),
                                             grid.firstIndexAtOrAfter(range.end));
        blocks += r.end > r.first ? r.end - r.first : 0;
    }
    const std::shared_ptr<std::atomic<std::uint64_t>> latest = m_latest;
    latest->store(id);
    cache::PageLoader* pages = m_pages.get(); // lives until a job queued after this one on the page thread
    if (blocks <= kMaxPageBlocks) {
        m_pending.smear = 0.0;
        std::weak_ptr<Guard> guard = m_guard;
        m_pagePool.start([pages, latest, guard, id, page = cache::Page{channels, range}] {
            lowerThisThreadPriority();
            if (latest->load() != id) return; // the view has moved on before this page was asked for
            pages->show(page, [guard, id](const cache::RequestResult& result) {
                if (result.outcome == cache::Outcome::Cancelled) return;
                const auto g = guard.lock();
                if (!g) return;
                std::lock_guard lock(g->mutex);
                if (TraceLoader* self = g->loader)
                    QMetaObject::invokeMethod(
                        self, [self, id] { self->blocksReady(id); }, Qt::QueuedConnection);
            });
        });
    } else {
        m_pagePool.start([session = m_session] { // the previous page's decodes are not needed any more
            session->scheduler().cancelView(kViewId);
        });
        m_pending.smear = 0.5; // display-exact: peaks at most half a column off
        startJob(m_pending);
    }
    return id;
}

void TraceLoader::blocksReady(std::uint64_t id)
{
    if (id == m_id && m_session) startJob(m_pending);
}

void TraceLoader::startJob(const FrameRequest& request)
{
    m_pool.start([this, session = m_session, cancel = m_cancel, request] {
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
