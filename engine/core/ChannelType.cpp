// Name rules, first match wins: the EDF+ type word, then trigger, ECG, EOG, EMG and respiration names, then a
// voltage is EEG (scalp or intracranial) and anything else is Other.
#include "core/ChannelType.h"

#include "core/AsciiLower.h"

#include <algorithm>
#include <array>

namespace lv::core {

namespace {

bool startsWithAny(const std::string& s, std::initializer_list<std::string_view> prefixes)
{
    return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.starts_with(p); });
}

bool containsAny(const std::string& s, std::initializer_list<std::string_view> parts)
{
    return std::any_of(parts.begin(), parts.end(), [&](std::string_view p) { return s.find(p) != std::string::npos; });
}

// EDF+ labels start with a type word (EDF+ specification, "Signals"): "EEG Fpz-Cz", "Resp oro-nasal".
std::optional<ChannelType> edfTypeWord(const std::string& name)
{
    const std::string word = name.substr(0, name.find_first_of(" _-:"));
    if (word == "eeg" || word == "meg") return ChannelType::Eeg;
    if (word == "eog" || word == "erg") return ChannelType::Eog;
    if (word == "emg") return ChannelType::Emg;
    if (word == "ecg" || word == "ekg" || word == "mcg") return ChannelType::Ecg;
    if (word == "resp") return ChannelType::Respiration;
    if (word == "event" || word == "dig" || word == "trig" || word == "status") return ChannelType::Trigger;
    if (word == "temp" || word == "sao2" || word == "spo2" || word == "light" || word == "sound")
        return ChannelType::Other;
    return std::nullopt;
}

bool isVoltage(const std::string& unit)
{
    return unit == "v" || unit == "mv" || unit == "uv" || unit == "nv" || unit == "\xc2\xb5v";
}

} // namespace

ChannelType guessChannelType(const ChannelInfo& channel)
{
    const std::string name = asciiLower(channel.name), unit = asciiLower(channel.unit);
    if (const auto t = edfTypeWord(name)) return *t;
    if (name == "status" || unit == "boolean" || startsWithAny(name, {"sti", "trig", "marker", "event"}))
        return ChannelType::Trigger;
    if (containsAny(name, {"ecg", "ekg"})) return ChannelType::Ecg;
    if (containsAny(name, {"eog"}) || startsWithAny(name, {"loc", "roc", "e1-", "e2-"})) return ChannelType::Eog;
    if (containsAny(name, {"emg", "chin", "ment", "tib", "leg"})) return ChannelType::Emg;
    if (containsAny(name, {"resp", "thor", "abd", "flow", "nasal", "snore"})) return ChannelType::Respiration;
    return isVoltage(unit) ? ChannelType::Eeg : ChannelType::Other;
}

std::string_view channelTypeName(ChannelType type)
{
    switch (type) {
    case ChannelType::Eeg:
        return "EEG";
    case ChannelType::Eog:
        return "EOG";
    case ChannelType::Emg:
        return "EMG";
    case ChannelType::Ecg:
        return "ECG";
    case ChannelType::Respiration:
        return "Resp";
    case ChannelType::Trigger:
        return "Trigger";
    case ChannelType::Other:
        return "Other";
    }
    return "Other";
}

std::optional<ChannelType> channelTypeFromName(std::string_view name)
{
    for (ChannelType t : kChannelTypes)
        if (channelTypeName(t) == name) return t;
    return std::nullopt;
}

} // namespace lv::core
