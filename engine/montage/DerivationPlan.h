// A derivation resolved against a recording: its channels, their grid shifts and weights, and the channel it makes.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "montage/Derivation.h"

#include <cstdint>
#include <vector>

namespace lv::montage {

struct DerivationPart {
    std::size_t channel = 0; // in the recording
    std::int64_t shift = 0;  // the channel's sample = the derivation's sample + shift
    std::int64_t weight = 0; // when exact: count = sum of weight x the channel's count
    double scale = 0;        // the term's weight: value = sum of scale x the channel's physical value
};

struct DerivationPlan {
    core::ChannelInfo channel; // name, unit, grid where every part has one, gaps where any part has one
    std::vector<DerivationPart> parts;
    bool exact = true; // counts of channel.conversionFactor are whole sums of the parts' counts
};

// InvalidArgument naming the derivation when it sums no channel, when a term names no channel of `source`, when
// its channels have different rates ("channels of different rates cannot be combined"), are not on one grid, or are
// sampled at irregular times.
core::Result<DerivationPlan> planDerivation(const core::RecordingInfo& source, const Derivation& derivation);

} // namespace lv::montage
