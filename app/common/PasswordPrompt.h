// What the password dialog says to a user: which password an encrypted recording needs and what each level shows.
#pragma once

#include "core/Error.h"

#include <string>

namespace lv::app {

struct PasswordPrompt {
    std::string title;
    std::string text; // paragraphs separated by blank lines; no file path, no command-line option
    int level = 1;    // the level the recording needs at least (1 or 2)
};

// For an open that failed with PasswordRequired or WrongPassword (MEF 3.0: level 1 protects the channel metadata and
// the samples, level 2 also the subject's section 3: name, ID, recording location and the recording time offset).
// `recordingName` is what the user opened (a file or folder name).
PasswordPrompt passwordPrompt(const core::Error& error, const std::string& recordingName);

} // namespace lv::app
