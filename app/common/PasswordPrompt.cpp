// The needed level read from the engine's message ("... needs the level-2 password"), the words for each case.
#include "common/PasswordPrompt.h"

namespace lv::app {

PasswordPrompt passwordPrompt(const core::Error& error, const std::string& recordingName)
{
    PasswordPrompt prompt;
    const std::string& m = error.message;
    prompt.level = m.find("needs the level-2 password") != std::string::npos ? 2 : 1;
    const std::string name = "\u201c" + recordingName + "\u201d";
    const std::string which = prompt.level == 2 ? "its level-2 password" : "its level-1 or level-2 password";
    if (error.code == core::ErrorCode::WrongPassword && m.find("gives level-1 access") != std::string::npos) {
        prompt.title = "Level-2 password needed";
        prompt.text = "That password is the level-1 password of " + name + ", but this recording keeps its channels " +
                      "under level 2: enter its level-2 password.";
    } else if (error.code == core::ErrorCode::WrongPassword) {
        prompt.title = "Wrong password";
        prompt.text = "That password does not open " + name + ": it is neither its level-1 nor its level-2 password. " +
                      "Enter " + which + ".";
    } else {
        prompt.title = "Password needed";
        prompt.text = name + " is encrypted. Enter " + which + " to open it.";
    }
    if (prompt.level == 2)
        prompt.text += "\n\nThis recording keeps even its signals under level 2: a level-1 password does not open it.";
    else
        prompt.text +=
            "\n\nLevel 1 shows the signals: every channel's samples and the annotations not kept for level 2, with "
            "times counted from the start of the recording. It hides the subject's identifying data (name, ID, where "
            "it was recorded) and the true date and time of the recording."
            "\n\nLevel 2 shows everything, those included.";
    prompt.text += "\n\nThe password is kept until Longview closes, never saved.";
    return prompt;
}

} // namespace lv::app
