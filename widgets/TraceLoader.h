// Opens recordings and computes view frames off the UI thread: every request gets an id (a JobTracker lane each for
// opening, the on-disk check and frames), a coarse frame from stored extrema comes first, the exact one after its
// blocks are decoded (PageLoader, driven from its own thread); stale work is cancelled and stale results are
// dropped. Results arrive on the UI thread queued; the UI thread takes no engine lock and does no I/O.
#pragma once

#include "GapBands.h"
#include "JobTracker.h"
#include "MontageLanes.h"
#include "TraceFrame.h"

#include "core/Error.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <memory>
#include <utility>

namespace lv::cache {
class PageLoader;
}
namespace lv::view {
class ViewSession;
}

namespace lv::widgets {

class TraceLoader : public QObject {
    Q_OBJECT
public:
    // Pages needing more decoded blocks than this are drawn display-exact from stored extrema and pyramid bins.
    static constexpr std::size_t kMaxPageBlocks = 6000;
    static constexpr std::uint64_t kViewId = 1; // this loader's view in the decode scheduler

    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    // Opens in the background; emits opened() or openFailed(). A newer open() supersedes an older one. The open
    // recording stays (info(), frames) until the new one has opened: a failed open leaves it as it was. With
    // deferCheck a MEF session's snapshot is served unchecked (fast): call checkOnDisk() once the view shows.
    void open(const QString& path, const QString& password, bool deferCheck = false);
    // Compares the open session with its files on a worker thread; emits changedOnDisk() when they differ.
    void checkOnDisk();
    void close(); // the open recording and an open on its way
    bool isOpen() const { return m_session != nullptr; }
    const core::RecordingInfo* info() const;
    const GapBands* bands() const { return m_bands.get(); }
    // What the plot shows: the recording's channels, then the lanes of the montage (when one is set).
    const core::RecordingInfo* displayInfo() const;
    const GapBands* displayBands() const;
    // The montage's derivations drawn as lanes from now on (ids from the recording's channel count up); nullptr:
    // none. Kept until the recording closes or another is set.
    void setMontage(std::shared_ptr<const MontageLanes> montage);
    const std::shared_ptr<const MontageLanes>& montage() const { return m_montage; }
    // The lanes' envelopes for wide views and coarse frames (LaneEnvelopes): computed on a job once asked for (a view
    // wider than the lanes' samples are summed for; once per montage), laneEnvelopesReady follows; nullptr until
    // then. Their job's progress, 0..1.
    void requestLaneEnvelopes();
    const std::shared_ptr<const LaneEnvelopes>& laneEnvelopes() const { return m_envelopes; }
    double laneEnvelopeProgress() const;
    std::shared_ptr<view::ViewSession> session() const { return m_session; }
    QString path() const { return m_path; }
    // The user's own annotations of the open recording (its sidecar's), and why they did not read (empty: they did).
    const std::vector<core::Annotation>& userAnnotations() const { return m_user; }
    QString userAnnotationError() const { return m_userError; }
    void setBuildPyramid(bool on) { m_buildPyramid = on; }
    // Off: every open checks a snapshot against the files first, whatever open() is asked (a one-picture run, which
    // must show the files as they are, not a view that fails until the check after it reloads).
    void setDeferSnapshotChecks(bool on) { m_deferChecks = on; }

    // Asks for the frames of this view; returns the request's id at once (what the page needs is worked out on
    // the page thread). Earlier requests are cancelled.
    std::uint64_t request(core::TimeRange range, const std::vector<std::size_t>& channels, std::size_t columns);
    std::uint64_t currentId() const { return m_jobs.currentId(kFrames); }
    // Channels drawn as bits (a BioSemi Status channel's trigger code) in the requests from now on.
    void setBitViews(std::map<std::size_t, BitView> views) { m_bitViews = std::move(views); }
    const std::map<std::size_t, BitView>& bitViews() const { return m_bitViews; }
    // `channels` (and lanes) drawn through `spec` from now on (zero-phase unless causal, restarted at every gap;
    // views wider than kFilterLimit samples unfiltered), except those sampled too slowly for it (an edge above half
    // the rate) and the lanes whose derivation names its own filter (drawn through that); an empty spec or list:
    // none. Filtered pages are kept until it changes.
    void setDisplayFilter(const filter::FilterSpec& spec, const std::vector<std::size_t>& channels);
    const filter::FilterSpec& displayFilter() const { return m_filter; }
    // The channels drawn filtered: those given whose rate takes the filter.
    const std::map<std::size_t, filter::FilterSpec>& filteredChannels() const { return m_filters; }
    // How irregular channels are drawn (steps or points, the longest pause a step bridges) from now on.
    void setIrregularDrawing(IrregularDrawing drawing) { m_irregular = std::move(drawing); }
    IrregularDrawing irregularDrawing() const { return m_irregular; }

signals:
    void opened(const QString& path);
    void openFailed(const QString& path, const lv::core::Error& error); // the engine's error, as a value
    void frameReady(lv::widgets::FramePtr frame); // only frames of the current request, coarse before exact
    void changedOnDisk(const QString& path);      // the open session's files differ from what it was opened from
    void laneEnvelopesReady();                    // laneEnvelopes() of the montage set

private:
    enum Lane { kOpen, kCheck, kFrames, kEnvelopes, kLanes };
    void releaseSession(); // the open recording, its check and frames (not an open on its way)
    // From any thread (a decode callback, maybe after the loader is gone: then nothing starts): a frame job for
    // `request` on `pool`, its frame delivered to `self` on the UI thread while `job` is current.
    static void startFrame(TraceLoader* self, QThreadPool* pool, const Job& job,
                           std::shared_ptr<view::ViewSession> session, const FrameRequest& request);
    void deliver(FramePtr frame);

    QThreadPool m_pool;         // opening, frame jobs
    QThreadPool m_pagePool;     // one thread: every PageLoader call (it takes the cache's and scheduler's locks)
    QThreadPool m_envelopePool; // one thread: the montage lanes' envelopes
    JobTracker m_jobs;          // after the pools: stops before they go
    std::shared_ptr<view::ViewSession> m_session;
    std::shared_ptr<const GapBands> m_bands;
    std::unique_ptr<cache::PageLoader> m_pages;
    QString m_path;
    std::map<std::size_t, BitView> m_bitViews;
    IrregularDrawing m_irregular;
    filter::FilterSpec m_filter;
    std::vector<std::size_t> m_filterChannels;           // given to setDisplayFilter
    std::map<std::size_t, filter::FilterSpec> m_filters; // per filtered channel
    std::shared_ptr<FilteredTraceCache> m_filtered;
    std::int64_t m_filterMarginUs = 0; // read around a page for its filters to settle
    std::shared_ptr<const MontageLanes> m_montage;
    std::shared_ptr<const LaneEnvelopes> m_envelopes;
    bool m_envelopesAsked = false; // their job started for this montage
    QString m_password;            // the open recording's, for the envelope job's own open
    std::vector<core::Annotation> m_user;
    QString m_userError;
    bool m_exactShown = false;
    bool m_buildPyramid = true;
    bool m_deferChecks = true;
};

} // namespace lv::widgets

Q_DECLARE_METATYPE(lv::widgets::FramePtr)
