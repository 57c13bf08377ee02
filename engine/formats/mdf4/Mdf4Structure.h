// The block tree of an MDF 4 file as read at open: the identification, the header (start time, zones), data groups,
// channel groups, channels, their conversions (with the texts and nested conversions they refer to), sources (SI),
// sample reductions (SR, listed) and channel array dimensions (CA, listed). No sample data is read here.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"
#include "formats/mdf4/Mdf4Formula.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

// cn_type, cn_sync_type, cn_data_type and cc_type as the specification numbers them.
enum class ChannelKind : std::uint8_t { Data, Vlsd, Master, VirtualMaster, Sync, MaxLengthData, VirtualData };
enum class SyncKind : std::uint8_t { None, Time, Angle, Distance, Index };
enum class DataType : std::uint8_t {
    UintLe,
    UintBe,
    IntLe,
    IntBe,
    FloatLe,
    FloatBe,
    StringLatin1,
    StringUtf8,
    StringUtf16Le,
    StringUtf16Be,
    ByteArray,
    MimeSample,
    MimeStream,
    CanOpenDate,
    CanOpenTime,
    ComplexLe,
    ComplexBe
};
enum class ConversionKind : std::uint8_t {
    Identity,
    Linear,
    Rational,
    Algebraic,
    TableInterp,
    Table,
    RangeToValue,
    ValueToText,
    RangeToText,
    TextToValue,
    TextToText,
    BitfieldToText
};

struct Conversion;

// What one cc_ref link of a conversion leads to, read at open: a text (TX/MD, up to its first NUL), a nested
// conversion, or nothing (link 0: an empty text for value/range-to-text, "keep the input" for text-to-text).
struct ConversionRef {
    std::string text;
    std::vector<Conversion> nested; // the nested CC (one), or empty
    bool isNil = false;

    const Conversion* conversion() const { return nested.empty() ? nullptr : nested.data(); }
};

struct Conversion {
    ConversionKind kind = ConversionKind::Identity;
    std::string name;                   // cc_tx_name (bitfield-to-text: the name of a part)
    std::string unit;                   // the CC's own unit (used when the channel has none)
    std::vector<double> values;         // cc_val (bitfield-to-text: masks, their bits as stored)
    std::vector<std::uint64_t> refs;    // cc_ref links (texts, nested conversions)
    std::vector<ConversionRef> targets; // what each of `refs` leads to (for the kinds that read their refs)
    std::string formulaText;            // algebraic: the formula as stored
    Formula formula;                    // algebraic: the formula parsed, or empty when not understood
    std::string formulaProblem;         // algebraic: why it was not understood
    bool rawIsFloat = false;            // the raw values are floats: range ends are then exclusive (mdf-check, asammdf)
    std::uint64_t offset = 0;
};

// A source (SI block): the ECU, bus or tool that acquired a channel or channel group.
struct Source {
    bool present = false;
    std::string name;
    std::string path;
    std::string comment;
    std::uint8_t type = 0;    // si_type: 0 other, 1 ECU, 2 bus, 3 I/O, 4 tool, 5 user
    std::uint8_t busType = 0; // si_bus_type: 0 none, 1 other, 2 CAN, 3 LIN, 4 MOST, 5 FlexRay, 6 K-Line, ...
    std::uint64_t offset = 0;

    // "name (path)", "name", "path" or "": what the session browser shows.
    std::string label() const;
};

// A sample reduction (SR block) of a channel group: stored min/max/mean per interval (the data is not read).
struct Reduction {
    std::uint64_t cycleCount = 0;
    double interval = 0;
    std::uint8_t syncType = 0; // 1 time (s), 2 angle, 3 distance, 4 index (samples)
    std::uint8_t flags = 0;    // bit 0: invalidation bytes present; bit 1: dominant invalidation bit
    std::uint64_t dataLink = 0;
    std::uint64_t offset = 0;
};

// A channel array (CA block) listed, never decoded.
struct ArrayInfo {
    std::uint8_t type = 0;    // ca_type: 0 array, 1 scaling axis, 2 look-up, 3 interval axis, 4 classification
    std::uint8_t storage = 0; // ca_storage: 0 CN template, 1 CG template, 2 DG template
    std::vector<std::uint64_t> dimensions;
    std::uint64_t offset = 0;
};

struct Channel {
    std::string name;
    std::string unit; // the channel's unit, else its conversion's
    std::string comment;
    ChannelKind kind = ChannelKind::Data;
    SyncKind sync = SyncKind::None;
    DataType dataType = DataType::UintLe;
    std::uint8_t bitOffset = 0;
    std::uint32_t byteOffset = 0;
    std::uint32_t bitCount = 0;
    std::uint32_t flags = 0;
    std::uint32_t invalidBit = 0; // position in the record's invalidation bytes
    bool hasConversion = false;
    std::shared_ptr<const Conversion> conversion; // set when hasConversion; shared by the channels that link it
    std::uint64_t dataLink = 0;                   // VLSD: the SD/DL or the VLSD channel group
    Source source;
    std::string composition;       // "CA", "CN" (a structure) or "" (cn_composition)
    std::vector<ArrayInfo> arrays; // the CA blocks of the composition (nested arrays in order), listed
    std::uint64_t offset = 0;

    bool isMaster() const { return kind == ChannelKind::Master || kind == ChannelKind::VirtualMaster; }
    bool allInvalid() const { return flags & 1u; }
    bool hasInvalidationBit() const { return (flags & 2u) && !allInvalid(); }
};

struct ChannelGroup {
    std::string acquisitionName;
    std::string comment;
    std::uint64_t recordId = 0;
    std::uint64_t cycleCount = 0;
    std::uint16_t flags = 0;
    std::uint32_t dataBytes = 0;
    std::uint32_t invalidBytes = 0;
    std::vector<Channel> channels;
    Source source;
    std::vector<Reduction> reductions; // SR blocks, in list order
    std::uint64_t offset = 0;

    bool isVlsd() const { return flags & 1u; }
};

struct DataGroup {
    std::uint8_t recordIdBytes = 0;
    std::uint64_t dataLink = 0; // DT, DZ, DL, HL or 0
    std::vector<ChannelGroup> groups;
    std::uint64_t offset = 0;
};

struct Structure {
    std::string version; // "4.10"
    std::string program;
    bool unfinished = false; // "UnFinMF": a writer did not finish the file
    std::uint16_t unfinishedFlags = 0;
    std::uint64_t startNs = 0; // hd_start_time_ns
    std::int16_t tzOffsetMin = 0;
    std::int16_t dstOffsetMin = 0;
    std::uint8_t timeFlags = 0;
    std::string comment;
    std::vector<DataGroup> dataGroups;
    std::uint64_t eventLink = 0;

    std::size_t channelCount() const;
};

// Reads the identification and the block tree, the data groups' subtrees side by side on `runner` when given. A
// file that is not MDF 4 is Unsupported; a broken tree (a link outside the file, a loop, a block of the wrong kind,
// an absurd size) is Corrupt, naming the block's offset.
core::Result<Structure> readStructure(const io::ByteSource& file, core::TaskRunner* runner = nullptr);

const char* dataTypeName(DataType type);         // "uint_le", "float_be", ... (mdf-check's words)
const char* conversionName(ConversionKind kind); // "identity", "linear", "table_interp", ...
const char* channelKindName(ChannelKind kind);   // "data", "master", "virtual_master", "vlsd", ...

} // namespace lv::formats::mdf4
