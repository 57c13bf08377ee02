// Montage lanes where their samples are not summed (views wider than kFilterLimit samples, coarse frames): each
// lane's least and greatest value per chunk over the whole recording (analysis::chunkExtrema of the derivations
// through a MontageRecording of the recording opened again, once per montage on a job), drawn as min/max per column.
#pragma once

#include "MontageLanes.h"
#include "TraceFrame.h"

#include "analysis/ChunkExtrema.h"
#include "core/Recording.h"

#include <memory>
#include <string>

namespace lv::widgets {

struct LaneEnvelopes {
    std::shared_ptr<const MontageLanes> montage; // the lanes these belong to
    analysis::ChunkExtrema extrema;              // per lane, in the montage's order
};

// Grid samples per chunk for lanes of `samples` grid points: 1,024, or the power of two that keeps a lane at most
// 128 Ki chunks (1 MiB).
std::int64_t laneEnvelopeChunk(std::int64_t samples);

// The recording at `path` opened again (its snapshot in `snapshotDirectory`; not through the viewer's block cache,
// whose pages it would evict), the montage's derivations summed and reduced per chunk on control.runner.
core::Result<LaneEnvelopes> computeLaneEnvelopes(const std::string& path, const std::string& password,
                                                 const std::string& snapshotDirectory,
                                                 std::shared_ptr<const MontageLanes> montage,
                                                 const core::ReadControl& control);

// The points of `lane` over grid samples [first, end) of `grid` in `columns` columns (x in seconds from `start`, at
// each column's middle): least and greatest value of the chunks each column touches, NaN where none holds a sample.
// False when a column is narrower than a chunk (the envelope would be coarser than the picture).
bool laneEnvelopePoints(const LaneEnvelopes& envelopes, std::size_t lane, const core::SampleGrid& grid,
                        core::Uutc start, std::int64_t first, std::int64_t end, std::size_t columns, ChannelTrace& t);

} // namespace lv::widgets
