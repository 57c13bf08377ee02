// The EDF+ patient and recording fields (subfields separated by spaces, "X" for unknown) to and from the model.
#pragma once

#include "core/RecordingInfo.h"
#include "core/Time.h"

#include <string>
#include <string_view>

namespace lv::formats::edf {

// EDF+ "code sex birthdate name ..." into `subject` (also in plain EDF when the field has that shape, as many
// writers do); other plain EDF text becomes the subject's id.
core::SubjectInfo readPatientField(std::string_view field, bool edfPlus);
// EDF+ "Startdate dd-MMM-yyyy admincode technician equipment ..."; plain EDF free text becomes adminCode.
core::SiteInfo readRecordingField(std::string_view field, bool edfPlus);

// The 80-character EDF+ patient field of `subject`: each subfield US-ASCII with spaces as '_', "X" when empty;
// the name is shortened to fit.
std::string patientField(const core::SubjectInfo& subject);
// "Startdate dd-MMM-yyyy admincode technician equipment" (UTC date of `start`), at most 80 characters. Exactly
// five subfields: MNE takes the four-digit year only then (so the location has no place).
// With `dateKnown` false the date is "X" (EDF+'s unknown start date).
std::string recordingField(core::Uutc start, const core::SiteInfo& site, bool dateKnown = true);

} // namespace lv::formats::edf
