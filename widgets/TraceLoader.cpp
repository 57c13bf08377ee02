// Background open, coarse and exact frame jobs, PageLoader callbacks posted back to the UI thread.
#include "TraceLoader.h"

#include "FilteredTrace.h"
#include "LaneEnvelopes.h"

#include "ThreadPriority.h"
#include "TraceBuilder.h"

#include "annotations/AnnotationSidecar.h"
#include "cache/PageLoader.h"
#include "cache/SampleTimes.h"
#include "formats/mef3/Snapshot.h"
#include "view/ViewSession.h"

#include <QThreadPool>
#include <atomic>

namespace lv::widgets {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), m_jobs(this, &m_pool, kLanes)
{
    qRegisterMetaType<FramePtr>();
    m_pool.setMaxThreadCount(2);
    m_pagePool.setMaxThreadCount(1);
    m_envelopePool.setMaxThreadCount(1);
}

TraceLoader::~TraceLoader()
{
    m_jobs.stop(); // no job starts or delivers from now on
    close();
    m_pagePool.waitForDone();
    m_envelopePool.waitForDone();
    m_pool.waitForDone();
}

const core::RecordingInfo* TraceLoader::info() const { return m_session ? &m_session->info() : nullptr; }

const core::RecordingInfo* TraceLoader::displayInfo() const { return m_montage ? &m_montage->info : info(); }

const GapBands* TraceLoader::displayBands() const { return m_montage ? &m_montage->bands : bands(); }

void TraceLoader::setMontage(std::shared_ptr<const MontageLanes> montage)
{
    if (!m_session) return;
    m_jobs.drop(kFrames); // frames of the old lanes are not drawn
    m_montage = std::move(montage);
    m_envelopes.reset();
    m_envelopesAsked = false;
    m_jobs.drop(kEnvelopes);
    setDisplayFilter(m_filter, m_filterChannels);
}

void TraceLoader::requestLaneEnvelopes()
{
    if (!m_montage || m_envelopes || m_envelopesAsked) return;
    m_envelopesAsked = true;
    m_jobs.start(
        kEnvelopes, m_envelopePool,
        [self = this, path = m_path.toStdString(), password = m_password.toStdString(),
         lanes = m_montage](const Job& job) {
            lowerThisThreadPriority(); // one thread below the UI and the frames: for views no page turn waits on
            core::ReadControl control;
            control.cancel = &job.cancelToken();
            control.progress = [&job](std::uint64_t done, std::uint64_t all) {
                job.setProgress(all ? static_cast<double>(done) / static_cast<double>(all) : 0);
            };
            auto made = computeLaneEnvelopes(path, password, formats::mef3::defaultSnapshotDirectory(), lanes, control);
            if (!made) return;
            job.post([self, made = std::make_shared<const LaneEnvelopes>(std::move(*made))] {
                if (made->montage != self->m_montage) return;
                self->m_envelopes = made;
                emit self->laneEnvelopesReady();
            });
        });
}

double TraceLoader::laneEnvelopeProgress() const { return m_jobs.progress(kEnvelopes); }

void TraceLoader::close()
{
    m_jobs.drop(kOpen); // an open on its way is not wanted either
    releaseSession();
}

void TraceLoader::releaseSession()
{
    m_jobs.drop(kCheck);
    m_jobs.drop(kFrames);
    m_jobs.drop(kEnvelopes);
    m_envelopes.reset();
    m_envelopesAsked = false;
    m_bands.reset();
    m_path.clear();
    m_bitViews.clear();
    m_filters.clear();
    m_filtered.reset();
    m_filterMarginUs = 0;
    m_filterChannels.clear();
    m_montage.reset();
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

namespace {

struct Opened {
    std::shared_ptr<view::ViewSession> session; // nullptr: failed
    std::shared_ptr<const GapBands> bands;
    core::Error error;                  // when it failed
    std::vector<core::Annotation> user; // the user's own, from the sidecar
    QString userError;                  // why the sidecar did not read
};

} // namespace

void TraceLoader::open(const QString& path, const QString& password, bool deferCheck)
{
    m_jobs.run( // supersedes an open on its way; the open recording stays until this one has opened
        kOpen,
        [path, password, deferCheck = deferCheck && m_deferChecks](const Job&) {
            view::ViewOptions options;
            options.workerStart = lowerThisThreadPriority;
            options.backgroundWorkerStart = idleThisThread; // the pyramid build never slows a page turn
            options.password = password.toStdString();
            options.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
            options.deferSnapshotCheck = deferCheck;
            auto session = view::ViewSession::open(path.toStdString(), options);
            Opened opened;
            if (!session) {
                opened.error = session.error();
                return opened;
            }
            opened.session = std::shared_ptr<view::ViewSession>(std::move(*session));
            opened.bands = std::make_shared<const GapBands>(computeGapBands(opened.session->info()));
            auto user = annotations::loadUserAnnotations(opened.session->info(), path.toStdString(),
                                                         annotations::defaultDataDirectory());
            if (user)
                opened.user = std::move(*user);
            else
                opened.userError = QString::fromStdString(user.error().describe());
            return opened;
        },
        [this, path, password](Opened result) { // while this open is current; else the session is let go on the pool
            if (!result.session) return emit openFailed(path, result.error);
            releaseSession();
            m_session = std::move(result.session);
            m_bands = std::move(result.bands);
            m_user = std::move(result.user);
            m_userError = std::move(result.userError);
            m_path = path;
            m_password = password;
            m_pages = std::make_unique<cache::PageLoader>(m_session->scheduler(), m_session->info(), kViewId);
            if (m_buildPyramid) // waits for the saved pyramid to be read: never on the page thread
                m_pool.start([session = m_session] {
                    lowerThisThreadPriority();
                    session->buildPyramid();
                });
            emit opened(path);
        });
}

void TraceLoader::checkOnDisk()
{
    if (!m_session) return;
    m_jobs.start(kCheck, [this, session = m_session, path = m_path](const Job& job) {
        if (session->checkOnDisk() == view::DiskCheck::Changed) job.post([this, path] { emit changedOnDisk(path); });
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
        const core::ChannelInfo& ch = session.info().channels.at(c);
        std::int64_t from = 0, to = 0;
        if (ch.irregular) { // no grid: its samples from its times
            const auto span = cache::samplesOf(session.context().times, ch, c, r.range);
            if (!span) continue;
            from = span->first;
            to = span->first + span->count;
        } else {
            from = ch.grid().firstIndexAtOrAfter(r.range.start);
            to = ch.grid().firstIndexAtOrAfter(r.range.end);
        }
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

void TraceLoader::setDisplayFilter(const filter::FilterSpec& spec, const std::vector<std::size_t>& channels)
{
    m_filter = spec;
    m_filterChannels = channels;
    m_filters.clear();
    m_filterMarginUs = 0;
    m_filtered = std::make_shared<FilteredTraceCache>(); // also the lanes' sums
    const core::RecordingInfo* shown = displayInfo();
    if (!shown) return;
    std::map<std::size_t, filter::FilterSpec> chosen;
    if (spec.any())
        for (std::size_t c : channels) chosen[c] = spec;
    if (m_montage) // a derivation's own filter wins
        for (std::size_t lane : m_montage->lanes())
            if (auto own = filter::parseFilterSpec(m_montage->derivations[lane - m_montage->first].display.filter);
                own && own->any())
                chosen[lane] = *own;
    std::vector<double> rates;
    for (const auto& [c, s] : chosen)
        if (c < shown->channels.size() && !shown->channels[c].irregular &&
            filter::designFilter(s, shown->channels[c].fs)) { // an edge above half its rate: unfiltered
            m_filters[c] = s;
            const std::int64_t margin = filterMarginUs(s, {shown->channels[c].fs});
            m_filterMarginUs = std::max(m_filterMarginUs, margin);
        }
}

std::uint64_t TraceLoader::request(core::TimeRange range, const std::vector<std::size_t>& channels, std::size_t columns)
{
    if (!m_session) return 0;
    const Job job = m_jobs.begin(kFrames); // the previous request's token is set, its frames dropped
    m_exactShown = false;
    const FrameRequest coarse{job.id(),   range,       channels,  columns,    false,     0.0,
                              m_bitViews, m_irregular, m_filters, m_filtered, m_montage, m_envelopes};
    const core::TimeRange decoded{range.start - m_filterMarginUs, range.end + m_filterMarginUs}; // filters settle
    cache::PageLoader* pages = m_pages.get(); // lives until a job queued after this one on the page thread
    job.spawn(&m_pagePool, [self = this, pool = &m_pool, pages, session = m_session, coarse, decoded](const Job& job) {
        if (!job.isCurrent()) return; // the view has moved on before this page was asked for
        FrameRequest exact = coarse;
        exact.exact = true;
        FrameRequest recorded = coarse; // the recorded channels it reads (a lane's, for a montage)
        if (coarse.montage) recorded.channels = coarse.montage->sourcesOf(coarse.channels);
        const PageShape shape = shapeOf(*session, recorded);
        if (shape.blocks > kMaxPageBlocks || shape.narrow) {
            session->scheduler().cancelView(kViewId); // the previous page's decodes are not needed any more
            exact.smear = 0.5;                        // display-exact: peaks at most half a column off
            if (!shape.narrow) startFrame(self, pool, job, session, coarse);
            startFrame(self, pool, job, session, exact);
            return;
        }
        // Decode the page first through the PageLoader (priority lane, prefetch, pinned), then draw it sample-exact
        // from the cache; a coarse picture only while blocks are decoding.
        auto ready = std::make_shared<std::atomic<bool>>(false);
        // The callback runs on a scheduler worker: it must not own the session, or dropping the last reference
        // there would destroy the scheduler from one of its own threads.
        pages->show({recorded.channels, decoded}, [self, pool, job, weak = std::weak_ptr<view::ViewSession>(session),
                                                   exact, ready](const auto& result) {
            if (result.outcome == cache::Outcome::Cancelled) return;
            ready->store(true);
            if (auto s = weak.lock()) startFrame(self, pool, job, std::move(s), exact);
        });
        if (!ready->load()) startFrame(self, pool, job, session, coarse);
    });
    return job.id();
}

void TraceLoader::startFrame(TraceLoader* self, QThreadPool* pool, const Job& job,
                             std::shared_ptr<view::ViewSession> session, const FrameRequest& request)
{
    // The session is moved into the job (no reference stays on a scheduler worker); when the loader is gone, spawn
    // lets go of it on a pool thread.
    job.spawn(pool, [self, session = std::move(session), request](const Job& job) {
        FramePtr frame = buildFrame(*session, request, job.cancelToken());
        if (frame) job.post([self, frame] { self->deliver(frame); });
    });
}

void TraceLoader::deliver(FramePtr frame)
{
    if (!frame->exact && m_exactShown) return; // the exact frame of this request is shown already
    m_exactShown = m_exactShown || frame->exact;
    emit frameReady(std::move(frame));
}

} // namespace lv::widgets
