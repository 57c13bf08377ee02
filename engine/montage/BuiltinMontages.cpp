// Built-in montages: chains of electrode pairs looked up by 10-10 name, and the average over the EEG channels.
#include "montage/BuiltinMontages.h"

#include "core/ChannelType.h"
#include "core/TimeFormat.h"
#include "montage/ElectrodeNames.h"

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <utility>

namespace lv::montage {

namespace {

using Pair = std::pair<const char*, const char*>;

constexpr Pair kDoubleBanana[] = {{"Fp1", "F7"}, {"F7", "T7"}, {"T7", "P7"},  {"P7", "O1"},  {"Fp2", "F8"},
                                  {"F8", "T8"},  {"T8", "P8"}, {"P8", "O2"},  {"Fp1", "F3"}, {"F3", "C3"},
                                  {"C3", "P3"},  {"P3", "O1"}, {"Fp2", "F4"}, {"F4", "C4"},  {"C4", "P4"},
                                  {"P4", "O2"},  {"Fz", "Cz"}, {"Cz", "Pz"}};

constexpr Pair kTransverse[] = {{"F7", "Fp1"}, {"Fp1", "Fp2"}, {"Fp2", "F8"}, {"F7", "F3"}, {"F3", "Fz"}, {"Fz", "F4"},
                                {"F4", "F8"},  {"T7", "C3"},   {"C3", "Cz"},  {"Cz", "C4"}, {"C4", "T8"}, {"P7", "P3"},
                                {"P3", "Pz"},  {"Pz", "P4"},   {"P4", "P8"},  {"P7", "O1"}, {"O1", "O2"}, {"O2", "P8"}};

// The 10-10 name an old-style recording writes for an electrode: "T3" where the recording labels T7 so.
std::string shown(const core::RecordingInfo& info, std::size_t channel)
{
    return electrodeAsLabelled(info.channels[channel].name).value_or(info.channels[channel].name);
}

MontageBuild chains(const core::RecordingInfo& info, std::string name, std::span<const Pair> pairs)
{
    MontageBuild out;
    out.montage.name = std::move(name);
    const std::map<std::string, std::size_t> electrodes = electrodeChannels(info);
    for (const auto& [a, b] : pairs) {
        const auto ia = electrodes.find(a), ib = electrodes.find(b);
        if (ia == electrodes.end() || ib == electrodes.end()) {
            out.notes.push_back(std::string(a) + "-" + b + ": no channel for " + (ia == electrodes.end() ? a : b));
            continue;
        }
        const core::ChannelInfo &ca = info.channels[ia->second], &cb = info.channels[ib->second];
        Derivation d;
        d.name = shown(info, ia->second) + "-" + shown(info, ib->second);
        d.unit = ca.unit;
        d.type = "EEG";
        d.terms = {{ca.name, 1}, {cb.name, -1}};
        out.montage.derivations.push_back(std::move(d));
    }
    return out;
}

} // namespace

std::string builtinName(Builtin builtin)
{
    switch (builtin) {
    case Builtin::Referential:
        return "Referential";
    case Builtin::DoubleBanana:
        return "Double banana";
    case Builtin::Transverse:
        return "Transverse bipolar";
    case Builtin::AverageReference:
        return "Average reference";
    }
    return {};
}

std::optional<Builtin> builtinFromWord(const std::string& word)
{
    if (word == "referential") return Builtin::Referential;
    if (word == "double-banana" || word == "longitudinal") return Builtin::DoubleBanana;
    if (word == "transverse") return Builtin::Transverse;
    if (word == "average" || word == "car") return Builtin::AverageReference;
    return std::nullopt;
}

MontageBuild referential(const core::RecordingInfo& info)
{
    MontageBuild out;
    out.montage.name = builtinName(Builtin::Referential);
    for (const core::ChannelInfo& ch : info.channels) {
        if (ch.irregular) {
            out.notes.push_back(ch.name + ": sampled at irregular times, left out");
            continue;
        }
        out.montage.derivations.push_back(
            {ch.name, ch.unit, std::string(core::channelTypeName(core::guessChannelType(ch))), {{ch.name, 1}}, {}});
    }
    return out;
}

MontageBuild doubleBanana(const core::RecordingInfo& info)
{
    return chains(info, builtinName(Builtin::DoubleBanana), kDoubleBanana);
}

MontageBuild transverseBipolar(const core::RecordingInfo& info)
{
    return chains(info, builtinName(Builtin::Transverse), kTransverse);
}

MontageBuild averageReference(const core::RecordingInfo& info, const std::vector<std::string>& bad)
{
    MontageBuild out;
    out.montage.name = builtinName(Builtin::AverageReference);
    std::map<double, int> rates; // of the EEG channels
    for (const core::ChannelInfo& ch : info.channels)
        if (!ch.irregular && core::guessChannelType(ch) == core::ChannelType::Eeg) ++rates[ch.fs];
    if (rates.empty()) {
        out.notes.push_back("average reference: no EEG channel");
        return out;
    }
    const double fs =
        std::max_element(rates.begin(), rates.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    std::vector<std::size_t> set;
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        if (ch.irregular || core::guessChannelType(ch) != core::ChannelType::Eeg) continue;
        if (std::find(bad.begin(), bad.end(), ch.name) != bad.end()) {
            out.notes.push_back(ch.name + ": marked bad, left out of the average");
        } else if (ch.fs != fs) {
            out.notes.push_back(ch.name + ": sampled at " + core::formatNumber(ch.fs, 6) +
                                " Hz, not at the average's " + core::formatNumber(fs, 6) + " Hz, left out");
        } else {
            set.push_back(c);
        }
    }
    const double share = 1.0 / static_cast<double>(set.size());
    for (std::size_t c : set) {
        Derivation d;
        const std::string label = electrodeAsLabelled(info.channels[c].name).value_or(info.channels[c].name);
        d.name = label + "-Avg";
        d.unit = info.channels[c].unit;
        d.type = "EEG";
        for (std::size_t k : set) d.terms.push_back({info.channels[k].name, (k == c ? 1.0 : 0.0) - share});
        out.montage.derivations.push_back(std::move(d));
    }
    return out;
}

MontageBuild buildMontage(Builtin builtin, const core::RecordingInfo& info, const std::vector<std::string>& bad)
{
    switch (builtin) {
    case Builtin::Referential:
        return referential(info);
    case Builtin::DoubleBanana:
        return doubleBanana(info);
    case Builtin::Transverse:
        return transverseBipolar(info);
    case Builtin::AverageReference:
        return averageReference(info, bad);
    }
    return {};
}

} // namespace lv::montage
