// Label clean-up (type word, reference suffix, case) and the 10-10 name table with the old temporal aliases.
#include "montage/ElectrodeNames.h"

#include "core/AsciiLower.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace lv::montage {

namespace {

constexpr std::string_view kElectrodes[] = {
    "Fp1", "Fpz", "Fp2", "AF7",  "AF3", "AFz", "AF4", "AF8", "F9",  "F7",  "F5",  "F3",  "F1",  "Fz",   "F2",  "F4",
    "F6",  "F8",  "F10", "FT9",  "FT7", "FC5", "FC3", "FC1", "FCz", "FC2", "FC4", "FC6", "FT8", "FT10", "T9",  "T7",
    "C5",  "C3",  "C1",  "Cz",   "C2",  "C4",  "C6",  "T8",  "T10", "TP9", "TP7", "CP5", "CP3", "CP1",  "CPz", "CP2",
    "CP4", "CP6", "TP8", "TP10", "P9",  "P7",  "P5",  "P3",  "P1",  "Pz",  "P2",  "P4",  "P6",  "P8",   "P10", "PO7",
    "PO3", "POz", "PO4", "PO8",  "O1",  "Oz",  "O2",  "Iz",  "A1",  "A2",  "M1",  "M2",  "T3",  "T4",   "T5",  "T6"};

// Reference suffixes after a '-' that leave a single electrode: "Fp1-REF", "Fp1-LE", "Fp1-A1A2".
constexpr std::array<std::string_view, 12> kReferences = {"ref", "le", "re", "ar",   "avg",  "a1",
                                                          "a2",  "m1", "m2", "a1a2", "m1m2", "common"};

std::string trim(std::string s)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    while (!s.empty() && blank(s.back())) s.pop_back();
    std::size_t from = 0;
    while (from < s.size() && blank(s[from])) ++from;
    return s.substr(from);
}

// "eeg fp1-ref" as "fp1": the type word and a reference suffix off, lower case; "" when something else is left.
std::string core10(const std::string& label)
{
    std::string s = trim(core::asciiLower(label));
    for (std::string_view word : {"eeg ", "eeg_", "eeg:"})
        if (s.starts_with(word)) s = trim(s.substr(word.size()));
    if (const std::size_t dash = s.find('-'); dash != std::string::npos) {
        const std::string reference = trim(s.substr(dash + 1));
        if (std::find(kReferences.begin(), kReferences.end(), reference) == kReferences.end()) return {};
        s = trim(s.substr(0, dash));
    }
    return s;
}

std::optional<std::string_view> tableName(const std::string& lower)
{
    for (std::string_view name : kElectrodes)
        if (core::asciiLower(name) == lower) return name;
    return std::nullopt;
}

} // namespace

std::optional<std::string> electrodeAsLabelled(const std::string& label)
{
    const auto name = tableName(core10(label));
    return name ? std::optional<std::string>(std::string(*name)) : std::nullopt;
}

std::optional<std::string> electrodeOf(const std::string& label)
{
    auto name = electrodeAsLabelled(label);
    if (!name) return std::nullopt;
    if (*name == "T3") return "T7";
    if (*name == "T4") return "T8";
    if (*name == "T5") return "P7";
    if (*name == "T6") return "P8";
    return name;
}

std::map<std::string, std::size_t> electrodeChannels(const core::RecordingInfo& info)
{
    std::map<std::string, std::size_t> out;
    for (std::size_t c = 0; c < info.channels.size(); ++c)
        if (!info.channels[c].irregular)
            if (auto e = electrodeOf(info.channels[c].name)) out.emplace(*e, c);
    return out;
}

} // namespace lv::montage
