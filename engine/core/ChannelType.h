// What a channel records (EEG, EOG, EMG, ECG, respiration, trigger/status, other), guessed from its name and unit
// as EDF+ labels ("EEG Fpz-Cz", "EOG horizontal"), 10-20 names, BioSemi's Status and common polygraphy names
// give it; the viewer colours and scales by it.
#pragma once

#include "core/RecordingInfo.h"

#include <optional>
#include <string>
#include <string_view>

namespace lv::core {

enum class ChannelType { Eeg, Eog, Emg, Ecg, Respiration, Trigger, Other };

inline constexpr ChannelType kChannelTypes[] = {ChannelType::Eeg,  ChannelType::Eog,         ChannelType::Emg,
                                                ChannelType::Ecg,  ChannelType::Respiration, ChannelType::Trigger,
                                                ChannelType::Other};

ChannelType guessChannelType(const ChannelInfo& channel);
// "EEG", "EOG", "EMG", "ECG", "Resp", "Trigger", "Other".
std::string_view channelTypeName(ChannelType type);
std::optional<ChannelType> channelTypeFromName(std::string_view name);

} // namespace lv::core
