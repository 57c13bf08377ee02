// One recording opened for viewing: the recording (from its snapshot when there is one), the shared block cache,
// the decode scheduler, the min/max pyramid (loaded from and saved next to the snapshot) and envelopes over time.
#pragma once

#include "cache/BlockScheduler.h"
#include "cache/Envelope.h"
#include "cache/IrregularEnvelope.h"
#include "cache/PageLoader.h"
#include "cache/Pyramid.h"
#include "core/Recording.h"

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <string>

namespace lv::view {

struct ViewOptions {
    std::string password;
    std::string snapshotDirectory;            // metadata snapshots and pyramids; empty: neither is kept
    std::shared_ptr<cache::BlockCache> cache; // shared by every recording of the process; null: a new one
    std::size_t cacheBytes = 512u << 20;      // budget of a new cache
    std::size_t threads = 0;                  // decode threads; 0: every core
    std::function<void()> workerStart = {};   // run first on each decode thread (e.g. lower its priority)
    // When set, the pyramid build (the Export lane) runs on a decode thread of its own that runs this after
    // workerStart (e.g. to drop to the idle class): it then never takes a core from the page being looked at.
    std::function<void()> backgroundWorkerStart = {};
    // MEF 3.0 with a snapshot: open from it without checking it against the session first (fast); call
    // checkOnDisk() later, off the UI thread, and open again (without deferring) when it reports Changed.
    bool deferSnapshotCheck = false;
};

enum class DiskCheck { Unchanged, Changed, Unknown }; // Unknown: not opened from a snapshot folder, or not MEF

class ViewSession {
public:
    static core::Result<std::unique_ptr<ViewSession>> open(const std::string& path, const ViewOptions& options);
    ~ViewSession(); // cancels queued decodes, saves the pyramid

    core::Recording& recording() { return *m_recording; }
    const core::RecordingInfo& info() const { return m_recording->info(); }
    cache::BlockCache& cache() { return *m_cache; }
    cache::BlockScheduler& scheduler() { return *m_scheduler; }
    cache::Pyramid& pyramid() { return *m_pyramid; }
    const cache::ViewContext& context() const { return m_scheduler->view(); }
    // Blocks found damaged while decoding for viewing (drawn as damaged, never as data), with their reasons.
    cache::DamagedBlocks& damaged() { return *m_damaged; }
    const std::string& pyramidFile() const { return m_pyramidFile; }
    // Whether the recording's files changed since what it was opened from (a few system calls per channel; not on
    // the UI thread). Thread-safe.
    DiskCheck checkOnDisk() const;

    // Per column of `columns`, the envelope of channel `channel` over [range.start, range.end) (uUTC); smear as
    // in cache::EnvelopeRequest. Grid channels only (Unsupported for an irregular one).
    core::Result<std::vector<cache::EnvelopeColumn>> envelope(std::size_t channel, core::TimeRange range,
                                                              std::size_t columns, double smear = 0.0,
                                                              const core::ReadControl& control = {});
    // The same for an irregular channel: per column the extrema of the samples whose times fall in it, and the
    // step joins of samples at most maxGapFactor median intervals (1 / fs) apart.
    core::Result<cache::IrregularEnvelope> irregularEnvelope(std::size_t channel, core::TimeRange range,
                                                             std::size_t columns,
                                                             double maxGapFactor = core::kIrregularGapFactor,
                                                             const core::ReadControl& control = {});
    // Queues every block not yet summarised on the export lane, uncached (the pyramid builds in the background).
    void buildPyramid(std::function<void(const cache::RequestResult&)> done = {});
    core::Status savePyramid() const;
    // Waits until the saved pyramid has been read (open starts that in the background).
    void waitForPyramid() const;
    bool pyramidLoaded() const; // whether that is done (never waits)

private:
    ViewSession() = default;

    std::unique_ptr<core::Recording> m_recording;
    std::shared_ptr<cache::BlockCache> m_cache;
    std::unique_ptr<cache::Pyramid> m_pyramid;
    std::unique_ptr<cache::DamagedBlocks> m_damaged = std::make_unique<cache::DamagedBlocks>();
    std::unique_ptr<cache::BlockScheduler> m_scheduler;
    std::string m_pyramidFile;
    mutable std::future<void>
        m_pyramidLoad; // the saved pyramid is read in the background: opening does not wait for it
};

} // namespace lv::view
