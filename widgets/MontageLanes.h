// A montage as the viewer draws it: its derivations as lanes after the recording's channels (their ids run on from
// the channel count), each resolved to the recorded channels it sums, with what could not be built.
#pragma once

#include "GapBands.h"

#include "core/RecordingInfo.h"
#include "montage/DerivationPlan.h"
#include "montage/Montage.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::widgets {

struct MontageLanes {
    std::string name;
    std::size_t first = 0;                        // the first lane's id: the recording's channel count
    std::vector<montage::DerivationPlan> plans;   // per lane
    std::vector<montage::Derivation> derivations; // per lane, as the montage gave them (type, display settings)
    core::RecordingInfo info;                     // the recording's channels, then the lanes
    GapBands bands;                               // the recording's, then the lanes'
    std::vector<std::string> notes;               // what was left out, and why

    bool isLane(std::size_t id) const { return id >= first && id < first + plans.size(); }
    const montage::DerivationPlan& plan(std::size_t id) const { return plans.at(id - first); }
    std::vector<std::size_t> lanes() const; // every lane's id, in the montage's order
    // The recorded channels that `ids` (channels and lanes) read, in ascending order, each once.
    std::vector<std::size_t> sourcesOf(const std::vector<std::size_t>& ids) const;
};

// The derivations of `montage` that can be built on `source` (each one that cannot is a note, after `notes`).
std::shared_ptr<const MontageLanes> makeMontageLanes(const core::RecordingInfo& source, const GapBands& bands,
                                                     const montage::Montage& montage,
                                                     std::vector<std::string> notes = {});

} // namespace lv::widgets
