// Channel types from names and units: EDF+ type words, polygraphy names, triggers, voltages as EEG.
#include "core/ChannelType.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

ChannelType typeOf(const std::string& name, const std::string& unit = "uV")
{
    ChannelInfo c;
    c.name = name;
    c.unit = unit;
    return guessChannelType(c);
}

TEST(ChannelType, FromNamesAndUnits)
{
    EXPECT_EQ(typeOf("EEG Fpz-Cz"), ChannelType::Eeg);
    EXPECT_EQ(typeOf("Fp1"), ChannelType::Eeg);
    EXPECT_EQ(typeOf("LA1"), ChannelType::Eeg); // intracranial, in volts
    EXPECT_EQ(typeOf("EOG horizontal"), ChannelType::Eog);
    EXPECT_EQ(typeOf("E1-M2"), ChannelType::Eog);
    EXPECT_EQ(typeOf("LOC"), ChannelType::Eog);
    EXPECT_EQ(typeOf("EMG submental"), ChannelType::Emg);
    EXPECT_EQ(typeOf("Chin1-Chin2"), ChannelType::Emg);
    EXPECT_EQ(typeOf("ECG"), ChannelType::Ecg);
    EXPECT_EQ(typeOf("EKG2"), ChannelType::Ecg);
    EXPECT_EQ(typeOf("Resp oro-nasal"), ChannelType::Respiration);
    EXPECT_EQ(typeOf("Thorax", "mV"), ChannelType::Respiration);
    EXPECT_EQ(typeOf("Airflow", ""), ChannelType::Respiration);
    EXPECT_EQ(typeOf("Status", "Boolean"), ChannelType::Trigger);
    EXPECT_EQ(typeOf("STI 014", ""), ChannelType::Trigger);
    EXPECT_EQ(typeOf("Event marker", ""), ChannelType::Trigger);
    EXPECT_EQ(typeOf("Temp rectal", "DegC"), ChannelType::Other);
    EXPECT_EQ(typeOf("SpO2", "%"), ChannelType::Other);
    EXPECT_EQ(typeOf("x", "degC"), ChannelType::Other);
}

TEST(ChannelType, NamesRoundTrip)
{
    for (ChannelType t : kChannelTypes) EXPECT_EQ(channelTypeFromName(channelTypeName(t)), t);
    EXPECT_FALSE(channelTypeFromName("eeg"));
}

} // namespace
} // namespace lv::core
