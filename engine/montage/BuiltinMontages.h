// The montages every EEG reader expects, built from the electrode names a recording has: referential (as
// recorded), longitudinal bipolar (the "double banana"), transverse bipolar and common average reference.
#pragma once

#include "core/RecordingInfo.h"
#include "montage/Montage.h"

#include <string>
#include <vector>

namespace lv::montage {

enum class Builtin { Referential, DoubleBanana, Transverse, AverageReference };

// A montage and what could not go into it ("F7-T7: no channel for T7"; "average reference: ECG left out, ...").
struct MontageBuild {
    Montage montage;
    std::vector<std::string> notes;
};

// "Referential", "Double banana", "Transverse bipolar", "Average reference".
std::string builtinName(Builtin builtin);

// The CLI's words for a built-in montage: "referential", "double-banana", "transverse", "average"; nullopt else.
std::optional<Builtin> builtinFromWord(const std::string& word);

// Every grid channel as recorded.
MontageBuild referential(const core::RecordingInfo& info);

// The ACNS 18 derivations: the four temporal and parasagittal chains Fp-to-O on each side, then Fz-Cz, Cz-Pz.
MontageBuild doubleBanana(const core::RecordingInfo& info);

// Left to right across the head: F7-Fp1, Fp1-Fp2, Fp2-F8, then the F, C, P and O rows (18 derivations).
MontageBuild transverseBipolar(const core::RecordingInfo& info);

// Each EEG channel minus the mean of all EEG channels at the most common EEG rate, `bad` channels (by name)
// left out of the mean and of the montage.
MontageBuild averageReference(const core::RecordingInfo& info, const std::vector<std::string>& bad = {});

MontageBuild buildMontage(Builtin builtin, const core::RecordingInfo& info, const std::vector<std::string>& bad = {});

} // namespace lv::montage
