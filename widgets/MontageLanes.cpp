// Each derivation planned on its own (one that fails is a note, not the montage's end); lane bands are the
// derivation's gaps outside the recording-wide ones, as computeGapBands makes a channel's.
#include "MontageLanes.h"

#include <algorithm>
#include <numeric>

namespace lv::widgets {

std::vector<std::size_t> MontageLanes::lanes() const
{
    std::vector<std::size_t> ids(plans.size());
    std::iota(ids.begin(), ids.end(), first);
    return ids;
}

std::vector<std::size_t> MontageLanes::sourcesOf(const std::vector<std::size_t>& ids) const
{
    std::vector<std::size_t> out;
    for (std::size_t id : ids) {
        if (!isLane(id)) {
            out.push_back(id);
            continue;
        }
        for (const montage::DerivationPart& p : plan(id).parts) out.push_back(p.channel);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::shared_ptr<const MontageLanes> makeMontageLanes(const core::RecordingInfo& source, const GapBands& bands,
                                                     const montage::Montage& montage, std::vector<std::string> notes)
{
    auto lanes = std::make_shared<MontageLanes>();
    lanes->name = montage.name;
    lanes->first = source.channels.size();
    lanes->info = source;
    lanes->bands = bands;
    lanes->notes = std::move(notes);
    for (const montage::Derivation& d : montage.derivations) {
        auto plan = montage::planDerivation(source, d);
        if (!plan) {
            lanes->notes.push_back(plan.error().message);
            continue;
        }
        lanes->info.channels.push_back(plan->channel);
        lanes->bands.channels.push_back(subtractRanges(unionRanges(plan->channel.gaps), bands.recording));
        lanes->plans.push_back(std::move(*plan));
        lanes->derivations.push_back(d);
    }
    return lanes;
}

} // namespace lv::widgets
