// Test support for de-identification: recordings that carry identifying strings everywhere their format has room
// (an EDF+ file and a MEF 3.0 session), and the list of those strings an anonymized output must not hold.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lv::cli::test {

// 2002-03-02T10:00:00Z, the sources' start.
inline constexpr std::int64_t kSourceStart = 1'015'063'200'000'000;

// DIR/Haagse_Harry_2002.edf: EDF+ whose patient field is "MCH-0234567 F 02-MAY-1951 Haagse_Harry" and recording
// field "Startdate 02-MAR-2002 EMG561 BK/JOP Sony", two channels, annotations naming the patient. Its path.
std::filesystem::path writeIdentifyingEdf(const std::filesystem::path& dir);

// DIR/Haagse_Harry_2002.mefd, written by formats::mef3::SessionWriter: subject name, ID and location in section 3,
// a session description, channel descriptions, session and channel records with texts naming the patient. Its path.
std::filesystem::path writeIdentifyingMef(const std::filesystem::path& dir);

// What identifies the patient in either source: name (any case), ID, birth date, technician, equipment, admin
// code, location, descriptions, annotation texts, the recording date (ISO, EDF+ and EDF header forms), the start
// in seconds, the source file name.
struct Identifying {
    std::string text;
    bool anyCase = false;
};
std::vector<Identifying> identifyingStrings();

// The first identifying string found in `bytes`, or empty.
std::string findIdentifying(const std::vector<std::uint8_t>& bytes);

} // namespace lv::cli::test
