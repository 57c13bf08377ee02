// Finds the channels, segments and record files of a MEF 3.0 session in a directory or tar tree.
#pragma once

#include "core/Error.h"
#include "io/FileTree.h"

#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct SegmentFiles {
    std::string base;        // tree path without extension, e.g. "s.mefd/ch1.timd/ch1-000000.segd/ch1-000000"
    std::string recordsBase; // segment-level records base, or empty
};

struct ChannelFiles {
    std::string name;                   // from the directory name, without ".timd"
    std::string dir;                    // tree path of the .timd directory
    std::string recordsBase;            // channel-level records (".rdat"/".ridx" without extension), or empty
    std::vector<SegmentFiles> segments; // sorted by name
};

struct SessionLayout {
    io::FileTreePtr tree;
    std::string sessionDir;             // tree path of the .mefd directory ("" when the tree root is the session)
    std::string recordsBase;            // session-level records base, or empty
    std::vector<ChannelFiles> channels; // sorted by name
    std::vector<std::string> warnings;  // e.g. skipped video channels
};

// One channel folder (tree path `dir`, folder name `dirName`): its segments and records.
core::Result<ChannelFiles> discoverChannel(const io::FileTree& tree, const std::string& dir,
                                           const std::string& dirName);

// Opens PATH: a .mefd directory, a .mefd.tar archive, or a single .timd channel directory.
core::Result<SessionLayout> discoverSession(const std::string& path);

} // namespace lv::formats::mef3
