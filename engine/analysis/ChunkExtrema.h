// The least and greatest physical value of channels per chunk of grid samples over a whole recording: the envelope
// of channels that have no stored extrema (a montage's derivations), for views too wide to decode.
#pragma once

#include "core/Recording.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace lv::analysis {

struct ChunkExtrema {
    std::int64_t chunk = 0; // grid samples per chunk: chunk k holds samples [k * chunk, (k + 1) * chunk)
    // Per channel asked for, per chunk: {least, greatest} physical value, both NaN where no sample is present.
    std::vector<std::vector<std::pair<float, float>>> channels;
};

// Reads each channel whole (all channels side by side, `window` chunks at a time, on control.runner) and keeps
// only each chunk's extrema; progress in samples; an error of code Cancelled when control.cancel is set.
core::Result<ChunkExtrema> chunkExtrema(core::Recording& recording, std::span<const std::size_t> channels,
                                        std::int64_t chunk, const core::ReadControl& control,
                                        std::int64_t window = 256);

} // namespace lv::analysis
