// Derivations resolved to channels, grid shifts and integer weights at creation; reads gather each channel range
// once, then combine sample by sample.
#include "montage/MontageRecording.h"

#include "core/TimeFormat.h"
#include "montage/DerivationPlan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace lv::montage {

core::Result<std::unique_ptr<MontageRecording>> MontageRecording::create(std::unique_ptr<core::Recording> inner,
                                                                         const Montage& montage)
{
    std::unique_ptr<MontageRecording> r(new MontageRecording());
    r->m_inner = std::move(inner);
    r->m_name = montage.name;
    r->m_info = r->m_inner->info();
    r->m_info.channels.clear();
    for (const Derivation& d : montage.derivations) {
        auto plan = planDerivation(r->m_inner->info(), d);
        if (!plan) return plan.error();
        r->m_info.channels.push_back(std::move(plan->channel));
        r->m_plans.push_back({std::move(plan->parts), plan->exact});
    }
    r->m_overflow = std::vector<std::atomic<bool>>(r->m_plans.size());
    return r;
}

// The inner ranges every part of every slice needs, merged per channel where they overlap (an inner read's slices
// must not), read at once; then each slice combined from its views into them.
core::Status MontageRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    struct Need {
        std::int64_t from = 0, to = 0;
        std::size_t buffer = 0;
    };
    std::map<std::size_t, std::vector<Need>> needs; // by inner channel
    const auto range = [&](const core::RawSlice& s, const Part& p) {
        const std::int64_t length = m_inner->info().channels[p.channel].gridLength;
        const std::int64_t from = std::clamp<std::int64_t>(s.firstSample + p.shift, 0, length);
        return std::pair{from, std::clamp<std::int64_t>(s.firstSample + p.shift + std::ssize(s.out), from, length)};
    };
    for (const core::RawSlice& s : slices)
        for (const Part& p : m_plans.at(s.channel).parts) {
            const auto [from, to] = range(s, p);
            if (from < to) needs[p.channel].push_back({from, to});
        }
    std::vector<std::vector<std::int32_t>> buffers;
    std::vector<core::RawSlice> inner;
    for (auto& [channel, list] : needs) {
        std::sort(list.begin(), list.end(), [](const Need& a, const Need& b) { return a.from < b.from; });
        std::vector<Need> merged;
        for (const Need& n : list)
            if (!merged.empty() && n.from <= merged.back().to)
                merged.back().to = std::max(merged.back().to, n.to);
            else
                merged.push_back(n);
        for (Need& n : merged) {
            n.buffer = buffers.size();
            buffers.emplace_back(static_cast<std::size_t>(n.to - n.from));
        }
        list = std::move(merged);
        for (const Need& n : list) inner.push_back({channel, n.from, buffers[n.buffer]});
    }
    LV_TRY(m_inner->readRaw(inner, control));
    std::vector<core::Status> results(slices.size());
    const auto job = [&](std::size_t i) {
        const core::RawSlice& s = slices[i];
        std::vector<std::span<const std::int32_t>> inputs; // per part: the slice's samples, or empty where none
        for (const Part& p : m_plans[s.channel].parts) {
            const auto [from, to] = range(s, p);
            const auto found = std::as_const(needs).find(p.channel); // read only: jobs run side by side
            if (from >= to || found == needs.cend()) {
                inputs.emplace_back(); // no sample of this channel in the slice
                continue;
            }
            const std::int64_t a = from, b = to; // (a lambda cannot take a structured binding)
            const auto it = std::find_if(found->second.begin(), found->second.end(),
                                         [a, b](const Need& n) { return n.from <= a && b <= n.to; });
            inputs.push_back(std::span<const std::int32_t>(buffers[it->buffer])
                                 .subspan(static_cast<std::size_t>(a - it->from), static_cast<std::size_t>(b - a)));
        }
        results[i] = combine(s, inputs);
    };
    core::runEach(control.runner, slices.size(), job);
    for (core::Status& s : results) LV_TRY(std::move(s));
    return {};
}

// out[i] from the parts' samples; a part's input starts at the slice's first sample clipped into its channel.
core::Status MontageRecording::combine(const core::RawSlice& slice,
                                       const std::vector<std::span<const std::int32_t>>& inputs)
{
    const Plan& plan = m_plans[slice.channel];
    const core::ChannelInfo& out = m_info.channels[slice.channel];
    const core::RecordingInfo& source = m_inner->info();
    bool overflow = false;
    for (std::size_t i = 0; i < slice.out.size(); ++i) {
        const std::int64_t at = slice.firstSample + static_cast<std::int64_t>(i);
        __int128 exact = 0; // terms of up to 1e9 x 2^31 each: no int64 sum of a few of them is safe
        double value = 0;
        bool missing = at < 0 || at >= out.gridLength;
        for (std::size_t k = 0; k < plan.parts.size() && !missing; ++k) {
            const Part& p = plan.parts[k];
            const std::int64_t from = std::max<std::int64_t>(0, slice.firstSample + p.shift);
            const std::int64_t j = at + p.shift - from;
            const std::int32_t count =
                j >= 0 && j < std::ssize(inputs[k]) ? inputs[k][static_cast<std::size_t>(j)] : core::kNoSample;
            missing = count == core::kNoSample;
            const core::ChannelInfo& ch = source.channels[p.channel];
            if (missing) break;
            if (plan.exact)
                exact += static_cast<__int128>(p.weight) * count;
            else
                value += p.scale * (count * ch.conversionFactor + ch.offset);
        }
        if (!plan.exact && !missing) {
            const double c = std::nearbyint((value - out.offset) / out.conversionFactor);
            exact = std::isfinite(c) && std::abs(c) < 4e18 ? static_cast<std::int64_t>(c)
                                                           : std::numeric_limits<std::int64_t>::max();
        }
        const bool fits =
            exact > std::numeric_limits<std::int32_t>::min() && exact <= std::numeric_limits<std::int32_t>::max();
        overflow = overflow || (!missing && !fits);
        slice.out[i] = missing || !fits ? core::kNoSample : static_cast<std::int32_t>(exact);
    }
    if (overflow) m_overflow[slice.channel] = true;
    return {};
}

std::vector<std::string> MontageRecording::takeWarnings()
{
    std::vector<std::string> out = m_inner->takeWarnings();
    for (std::size_t d = 0; d < m_overflow.size(); ++d)
        if (m_overflow[d].exchange(false))
            out.push_back("derivation " + m_info.channels[d].name + ": sums beyond 2^31 steps of " +
                          core::formatNumber(m_info.channels[d].conversionFactor, 6) + " " + m_info.channels[d].unit +
                          " are written as missing");
    return out;
}

// A damaged block of a channel is damage to every derivation that sums it, at the derivation's samples.
std::vector<core::DamagedBlock> MontageRecording::takeDamage()
{
    std::vector<core::DamagedBlock> out;
    for (const core::DamagedBlock& b : m_inner->takeDamage())
        for (std::size_t d = 0; d < m_plans.size(); ++d)
            for (const Part& p : m_plans[d].parts)
                if (p.channel == b.channel) {
                    core::DamagedBlock moved = b;
                    moved.channel = d;
                    moved.firstSample = b.firstSample - p.shift;
                    out.push_back(moved);
                }
    return out;
}

std::string MontageRecording::note() const
{
    return "montage " + (m_name.empty() ? std::string("(unnamed)") : m_name) + " (" + std::to_string(m_plans.size()) +
           " derivations)";
}

} // namespace lv::montage
