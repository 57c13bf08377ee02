// Corruption corpus: the fields each file type holds at known offsets and the absurd values tried in them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lv::corpus {

// Which commands can tell an edit from the clean file.
enum class Seen {
    Always,
    ByReads, // only those that read the samples (not `info`): EDF digital range narrowed below the samples
    Never,   // the file is a valid file of another recording (EDF has no checksum; a level-1 copy has no offset)
};

// One value to write at one offset: `bytes` are what lands there, `what` names field and value.
struct FieldEdit {
    std::string what;
    std::size_t offset = 0;
    std::vector<std::uint8_t> bytes;
    Seen seen = Seen::Always;
};

// Edits for a MEF file of `type` ("tmet", "tidx", "tdat", "rdat", "ridx"): the universal header's fields and
// the type's own (metadata sections 2 and 3 when plain, index entries, RED block headers, record headers).
std::vector<FieldEdit> mefFieldEdits(const std::vector<std::uint8_t>& file, const std::string& type);

// Edits of an EDF/BDF header: record count and duration, header size, signal count, dates, and for the first
// and last signal samples per record and the physical and digital ranges.
std::vector<FieldEdit> edfFieldEdits(const std::vector<std::uint8_t>& file);

// Edits of a ustar archive's member headers (size, name, type flag) for the first members and the last.
// MDF 4: links outside the file, loops, absurd counts and sizes in the first DG, CG, CN, DZ, DL, CC and EV blocks.
std::vector<FieldEdit> mdf4FieldEdits(const std::vector<std::uint8_t>& file);
// The first block with this id ("##CG") at an 8-byte boundary after the identification, or 0.
std::size_t mdf4Block(const std::vector<std::uint8_t>& file, const char* id);
std::vector<FieldEdit> tarFieldEdits(const std::vector<std::uint8_t>& file);
// BrainVision header (`type` "vhdr") or marker file ("vmrk"): absurd values written over the value of a key=value
// line (padded with blanks, so only values no longer than the one there are tried).
std::vector<FieldEdit> brainVisionFieldEdits(const std::vector<std::uint8_t>& file, const std::string& type);

// CDF 3 (uncompressed): the CDR's GDR offset, the GDR's z VDR head, attribute and variable counts, the first zVDR's
// type, last record, VXR head and element count.
std::vector<FieldEdit> cdfFieldEdits(const std::vector<std::uint8_t>& file);

// Structure boundaries where a truncation is interesting (end of header, of a first entry, block or record).
std::vector<std::size_t> boundaries(const std::vector<std::uint8_t>& file, const std::string& type);

} // namespace lv::corpus
