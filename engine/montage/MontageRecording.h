// A recording whose channels are a montage's derivations of another recording's channels: what the viewer pages
// through and what conversions write with --montage.
#pragma once

#include "core/Recording.h"
#include "montage/DerivationPlan.h"
#include "montage/Montage.h"

#include <atomic>
#include <memory>
#include <vector>

namespace lv::montage {

// Each derivation is the weighted sum of its terms' physical values, sample by sample on the terms' common grid,
// missing wherever any term is (a gap or a NaN run in one channel is a gap of the derivation, never a zero).
// Stored as counts of the finest step that keeps it exact where the weights allow (Fp1-F3: the channels' own
// step; an average of 19: a 19th of it), else of 1/16 of the finest term's step.
class MontageRecording final : public core::Recording {
public:
    // InvalidArgument naming the derivation when a term names no channel of `inner`, when its channels have
    // different rates ("channels of different rates cannot be combined"), are not on one grid, or are sampled
    // at irregular times.
    static core::Result<std::unique_ptr<MontageRecording>> create(std::unique_ptr<core::Recording> inner,
                                                                  const Montage& montage);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    std::vector<core::DamagedBlock> takeDamage() override;

    // "montage Double banana (18 derivations)": for an output's provenance.
    std::string note() const;

private:
    using Part = DerivationPart;
    struct Plan {
        std::vector<Part> parts;
        bool exact = true;
    };

    MontageRecording() = default;
    core::Status combine(const core::RawSlice& slice, const std::vector<std::span<const std::int32_t>>& inputs);

    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info;
    std::string m_name;
    std::vector<Plan> m_plans;                 // per derivation
    std::vector<std::atomic<bool>> m_overflow; // per derivation: a sum beyond a count was written as missing
};

} // namespace lv::montage
