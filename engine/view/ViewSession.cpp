// Opening for viewing: recording, cache id, pyramid file beside the snapshot, scheduler threads.
#include "view/ViewSession.h"

#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Snapshot.h"

#include <chrono>
#include <filesystem>

namespace lv::view {

namespace {

std::uint64_t nextRecordingId()
{
    static std::atomic<std::uint64_t> id{1};
    return id++;
}

} // namespace

core::Result<std::unique_ptr<ViewSession>> ViewSession::open(const std::string& path, const ViewOptions& options)
{
    auto recording =
        formats::openRecording({path, options.password, options.snapshotDirectory, options.deferSnapshotCheck});
    if (!recording) return recording.error();
    const core::BlockSource* source = (*recording)->blockSource();
    if (!source)
        return core::makeError(core::ErrorCode::Unsupported, "this format cannot be viewed block by block yet", path);
    auto s = std::unique_ptr<ViewSession>(new ViewSession());
    s->m_recording = std::move(*recording);
    s->m_cache = options.cache ? options.cache : std::make_shared<cache::BlockCache>(options.cacheBytes);
    s->m_pyramid = std::make_unique<cache::Pyramid>(*source, s->info().channels.size());
    const std::uint64_t id = nextRecordingId();
    s->m_pyramid->chargeTo(*s->m_cache, id); // the pyramid counts in the cache budget
    if (!options.snapshotDirectory.empty() && options.password.empty()) {
        s->m_pyramidFile = std::filesystem::path(formats::mef3::snapshotFile(options.snapshotDirectory, path))
                               .replace_extension(".lvpyr")
                               .string();
        // Checking the file against the block lists decodes every channel's snapshot blocks: not on the open path.
        // None yet, damaged or stale: built again as blocks decode.
        s->m_pyramidLoad =
            std::async(std::launch::async, [p = s->m_pyramid.get(), f = s->m_pyramidFile] { (void)p->load(f); });
    }
    const std::size_t threads = options.threads ? options.threads : decode::ThreadPool::defaultThreadCount();
    s->m_scheduler = std::make_unique<cache::BlockScheduler>(
        cache::ViewContext{source, s->m_cache.get(), id, s->m_pyramid.get(), s->m_damaged.get(), s->m_recording.get()},
        threads, options.workerStart, options.backgroundWorkerStart);
    return s;
}

ViewSession::~ViewSession()
{
    const std::uint64_t id = m_scheduler ? m_scheduler->view().recording : 0;
    m_scheduler.reset(); // joins the workers before the pyramid and recording go
    waitForPyramid();
    (void)savePyramid();
    if (m_cache) m_cache->forget(id);
}

DiskCheck ViewSession::checkOnDisk() const
{
    const auto* mef = dynamic_cast<const formats::mef3::MefRecording*>(m_recording.get());
    if (!mef) return DiskCheck::Unknown;
    const formats::mef3::SnapshotCheck check = mef->checkSnapshot();
    if (check.state == formats::mef3::SnapshotCheck::State::Unknown) return DiskCheck::Unknown;
    return check.fresh() ? DiskCheck::Unchanged : DiskCheck::Changed;
}

void ViewSession::waitForPyramid() const
{
    if (m_pyramidLoad.valid()) m_pyramidLoad.wait();
}

bool ViewSession::pyramidLoaded() const
{
    return !m_pyramidLoad.valid() || m_pyramidLoad.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

core::Status ViewSession::savePyramid() const
{
    waitForPyramid();
    if (m_pyramidFile.empty() || !m_pyramid || m_pyramid->builtBlocks() == 0) return {};
    return m_pyramid->save(m_pyramidFile);
}

core::Result<std::vector<cache::EnvelopeColumn>> ViewSession::envelope(std::size_t channel, core::TimeRange range,
                                                                       std::size_t columns, double smear,
                                                                       const core::ReadControl& control)
{
    if (info().channels.at(channel).irregular)
        return core::makeError(core::ErrorCode::Unsupported,
                               "channel " + info().channels[channel].name + " is irregular: see irregularEnvelope");
    const core::SampleGrid grid = info().channels.at(channel).grid();
    const cache::EnvelopeRequest request{context().recording,
                                         channel,
                                         grid.firstIndexAtOrAfter(range.start),
                                         grid.firstIndexAtOrAfter(range.end),
                                         columns,
                                         smear};
    return cache::computeEnvelope(context(), request, control);
}

core::Result<cache::IrregularEnvelope> ViewSession::irregularEnvelope(std::size_t channel, core::TimeRange range,
                                                                      std::size_t columns, double maxGapFactor,
                                                                      const core::ReadControl& control)
{
    const cache::IrregularRequest request{channel, range, columns,
                                          cache::maxGapNs(info().channels.at(channel).fs, maxGapFactor)};
    return cache::computeIrregularEnvelope(context(), request, control);
}

void ViewSession::buildPyramid(std::function<void(const cache::RequestResult&)> done)
{
    waitForPyramid();
    cache::BlockRequest request{0, cache::Lane::Export, {}, false, std::move(done)};
    const core::BlockSource& source = *context().source;
    for (std::size_t c = 0; c < info().channels.size(); ++c)
        for (std::size_t b = 0; b < source.blocks(c).size(); ++b)
            if (!m_pyramid->find(c, b)) request.blocks.push_back({static_cast<std::uint32_t>(c), b});
    m_scheduler->submit(std::move(request));
}

} // namespace lv::view
