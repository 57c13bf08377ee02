// Labels as electrodes: type words, reference suffixes and case are not part of the name; old temporal names are
// the new ones; a bipolar label or a non-EEG name is no electrode.
#include "montage/ElectrodeNames.h"

#include <gtest/gtest.h>

using namespace lv;

TEST(ElectrodeNames, ReadTheElectrodeOutOfCommonLabels)
{
    EXPECT_EQ(montage::electrodeOf("EEG Fp1"), "Fp1");
    EXPECT_EQ(montage::electrodeOf("FP1-REF"), "Fp1");
    EXPECT_EQ(montage::electrodeOf("EEG FP1-REF"), "Fp1"); // TUH
    EXPECT_EQ(montage::electrodeOf("Fp1-LE"), "Fp1");
    EXPECT_EQ(montage::electrodeOf(" cz "), "Cz");
    EXPECT_EQ(montage::electrodeOf("EEG FCz-A1A2"), "FCz");
    EXPECT_EQ(montage::electrodeOf("O2-M1"), "O2");
}

TEST(ElectrodeNames, OldTemporalNamesAreTheNewElectrodes)
{
    EXPECT_EQ(montage::electrodeOf("EEG T3"), "T7");
    EXPECT_EQ(montage::electrodeOf("T4"), "T8");
    EXPECT_EQ(montage::electrodeOf("t5"), "P7");
    EXPECT_EQ(montage::electrodeOf("T6-REF"), "P8");
    EXPECT_EQ(montage::electrodeAsLabelled("EEG T3"), "T3"); // derivation names keep the recording's words
    EXPECT_EQ(montage::electrodeAsLabelled("EEG FP2"), "Fp2");
}

TEST(ElectrodeNames, DerivationsAndOtherSignalsAreNoElectrode)
{
    EXPECT_EQ(montage::electrodeOf("Fp1-F7"), std::nullopt);
    EXPECT_EQ(montage::electrodeOf("ECG ECG1"), std::nullopt);
    EXPECT_EQ(montage::electrodeOf("EOG VEOG_I"), std::nullopt);
    EXPECT_EQ(montage::electrodeOf("Fp12"), std::nullopt);
    EXPECT_EQ(montage::electrodeOf(""), std::nullopt);
}

TEST(ElectrodeNames, TheFirstChannelOfAnElectrodeWins)
{
    core::RecordingInfo info;
    for (const char* name : {"EEG Fp1", "Fp1-REF", "EEG T3", "ECG"}) {
        core::ChannelInfo c;
        c.name = name;
        info.channels.push_back(c);
    }
    const auto map = montage::electrodeChannels(info);
    ASSERT_EQ(map.size(), 2u);
    EXPECT_EQ(map.at("Fp1"), 0u);
    EXPECT_EQ(map.at("T7"), 2u);
}
