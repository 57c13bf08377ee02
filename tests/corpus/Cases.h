// Corruption corpus: the damaged copies. Each case names one file of a source (a MEF session, a .mefd.tar, an
// EDF/BDF file), one change to its bytes and whether the MEF/tar checksums are then made to match again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lv::corpus {

enum class SourceKind { Mef, Tar, Edf, Mdf4, BrainVision, Cdf };

// One clean input: `root` (a folder or file in the run's clean area) is what the commands are given (BrainVision:
// root is the folder of one file set "<root name>.vhdr/.vmrk/.eeg", and the commands are given the header).
struct Source {
    std::string name;
    SourceKind kind = SourceKind::Mef;
    std::filesystem::path root;
};

enum class Checksums {
    Left,      // the change is all: CRCs and tar checksums are left wrong
    Recomputed // MEF header/body/block/record CRCs or the tar header checksum recomputed after the change
};

struct Case {
    std::size_t index = 0;
    const Source* source = nullptr;
    std::filesystem::path file; // relative to the source's root (empty when the source is one file)
    std::string what;           // e.g. "field samplingFrequency@8720=1e300"
    std::size_t truncateTo = SIZE_MAX;
    std::size_t offset = 0;
    std::vector<std::uint8_t> bytes; // written at `offset` (no truncation)
    Checksums checksums = Checksums::Left;
    // The change cannot be told from data (EDF/BDF samples have no checksum): changed values are no finding.
    bool undetectable = false;
    // Only commands that read the samples can tell (FieldEdit's Seen::ByReads): `info` is not asked to.
    bool onlyReadsSee = false;
    // A MEF file inside a tar: its bytes [memberStart, memberStart + memberSize), kind by `memberType`.
    std::size_t memberStart = 0;
    std::size_t memberSize = 0;
    std::string memberType;

    std::string id() const;
};

// Every case for every file of `source`, in a fixed order.
std::vector<Case> casesFor(const Source& source);

// The cases for one file's bytes (`type`: "tmet", "tidx", "tdat", "rdat", "ridx", "edf", "tar", "mdf4", "cdf"); `file`
// and `source` are left for the caller to set.
std::vector<Case> casesForBytes(const std::vector<std::uint8_t>& bytes, const std::string& type);

// MEF file type of a path by its extension ("tmet", ...), or empty.
std::string mefType(const std::filesystem::path& file);

// Recomputes the CRCs of a MEF file of `type` held in `bytes` after a change at `offset` (header CRC, the
// body CRC of .tmet/.tidx/.ridx, the block CRC of the .tdat block or the record CRC of the .rdat record there).
void fixMefCrcs(std::uint8_t* bytes, std::size_t size, const std::string& type, std::size_t offset);

// Applies the case to the copy of its source whose root is `root` (the file is rewritten in place).
void applyCase(const Case& c, const std::filesystem::path& root);

} // namespace lv::corpus
