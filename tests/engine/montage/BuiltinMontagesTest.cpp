// Built-in montages on a real EDF's 10-20 labels (old temporal names, "EEG " prefixes) and on recordings that lack
// electrodes, mix rates or have bad channels: what is built, in which order, and what is said about the rest.
#include "montage/BuiltinMontages.h"

#include "formats/RecordingOpener.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lv;

namespace {

core::RecordingInfo stimInfo()
{
    auto r = formats::openRecording({(test::testdata() / "edf/test_edf_stim_channel.edf").string(), "", ""});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? (*r)->info() : core::RecordingInfo{};
}

std::vector<std::string> names(const montage::Montage& m)
{
    std::vector<std::string> out;
    for (const montage::Derivation& d : m.derivations) out.push_back(d.name);
    return out;
}

} // namespace

TEST(BuiltinMontages, DoubleBananaOnARealRecordingUsesItsOwnNames)
{
    const montage::MontageBuild b = montage::doubleBanana(stimInfo());
    EXPECT_EQ(b.montage.name, "Double banana");
    EXPECT_TRUE(b.notes.empty()) << b.notes.front();
    EXPECT_EQ(names(b.montage), (std::vector<std::string>{"Fp1-F7", "F7-T3", "T3-T5", "T5-O1", "Fp2-F8", "F8-T4",
                                                          "T4-T6", "T6-O2", "Fp1-F3", "F3-C3", "C3-P3", "P3-O1",
                                                          "Fp2-F4", "F4-C4", "C4-P4", "P4-O2", "Fz-Cz", "Cz-Pz"}));
    const montage::Derivation& first = b.montage.derivations.front();
    EXPECT_EQ(first.terms, (std::vector<montage::Term>{{"EEG Fp1", 1}, {"EEG F7", -1}}));
    EXPECT_EQ(first.unit, "uV");
    EXPECT_EQ(first.type, "EEG");
}

TEST(BuiltinMontages, TransverseRunsLeftToRightRowByRow)
{
    const montage::MontageBuild b = montage::transverseBipolar(stimInfo());
    EXPECT_TRUE(b.notes.empty());
    EXPECT_EQ(names(b.montage), (std::vector<std::string>{"F7-Fp1", "Fp1-Fp2", "Fp2-F8", "F7-F3", "F3-Fz", "Fz-F4",
                                                          "F4-F8", "T3-C3", "C3-Cz", "Cz-C4", "C4-T4", "T5-P3", "P3-Pz",
                                                          "Pz-P4", "P4-T6", "T5-O1", "O1-O2", "O2-T6"}));
}

TEST(BuiltinMontages, WhatCannotBeBuiltIsSaid)
{
    test::MemoryRecording r;
    for (const char* name : {"Fp1", "F7", "T7", "P7", "O1", "Fz", "Cz"}) r.addChannel(name, 256, 0, 10);
    const montage::MontageBuild b = montage::doubleBanana(r.description);
    EXPECT_EQ(names(b.montage), (std::vector<std::string>{"Fp1-F7", "F7-T7", "T7-P7", "P7-O1", "Fz-Cz"}));
    ASSERT_EQ(b.notes.size(), 13u);
    EXPECT_EQ(b.notes[0], "Fp2-F8: no channel for Fp2");
    EXPECT_EQ(b.notes[1], "F8-T8: no channel for F8");
    EXPECT_EQ(b.notes.back(), "Cz-Pz: no channel for Pz");
}

TEST(BuiltinMontages, AverageReferenceExcludesOtherTypesRatesAndBadChannels)
{
    test::MemoryRecording r;
    for (const char* name : {"Fp1", "Fp2", "Cz", "O1"}) r.addChannel(name, 256, 0, 10);
    r.addChannel("ECG", 256, 0, 10);
    r.addChannel("Pz", 512, 0, 20);
    const montage::MontageBuild b = montage::averageReference(r.description, {"O1"});
    EXPECT_EQ(names(b.montage), (std::vector<std::string>{"Fp1-Avg", "Fp2-Avg", "Cz-Avg"}));
    EXPECT_EQ(b.notes, (std::vector<std::string>{"O1: marked bad, left out of the average",
                                                 "Pz: sampled at 512 Hz, not at the average's 256 Hz, left out"}));
    const double third = 1.0 / 3;
    EXPECT_EQ(b.montage.derivations[1].terms,
              (std::vector<montage::Term>{{"Fp1", -third}, {"Fp2", 1 - third}, {"Cz", -third}}));
    const montage::MontageBuild real = montage::averageReference(stimInfo());
    for (const montage::Derivation& d : real.montage.derivations)
        for (const montage::Term& t : d.terms)
            EXPECT_TRUE(t.channel.starts_with("EEG ") || t.channel.starts_with("REF_EEG")) << t.channel;
    EXPECT_EQ(real.montage.derivations.size(), real.montage.derivations.front().terms.size());
    EXPECT_GE(real.montage.derivations.size(), 19u);
}

TEST(BuiltinMontages, ReferentialIsEveryGridChannelAsRecorded)
{
    test::MemoryRecording r;
    r.addChannel("Fp1", 256, 0, 10);
    r.addChannel("ECG", 128, 0, 5);
    const montage::MontageBuild b = montage::referential(r.description);
    ASSERT_EQ(b.montage.derivations.size(), 2u);
    EXPECT_EQ(b.montage.derivations[1].name, "ECG");
    EXPECT_EQ(b.montage.derivations[1].type, "ECG");
    EXPECT_EQ(b.montage.derivations[1].terms, (std::vector<montage::Term>{{"ECG", 1}}));
    EXPECT_EQ(montage::builtinFromWord("double-banana"), montage::Builtin::DoubleBanana);
    EXPECT_EQ(montage::builtinFromWord("banana"), std::nullopt);
}
