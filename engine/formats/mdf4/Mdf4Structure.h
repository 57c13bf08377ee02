// The block tree of an MDF 4 file as read at open: the identification, the header (start time, zones), data groups,
// channel groups, channels and their conversions. No sample data is read here.
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
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

struct Conversion {
    ConversionKind kind = ConversionKind::Identity;
    std::string unit;                // the CC's own unit (used when the channel has none)
    std::vector<double> values;      // cc_val
    std::vector<std::uint64_t> refs; // cc_ref links (texts, nested conversions)
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
    Conversion conversion;
    std::uint64_t dataLink = 0; // VLSD: the SD/DL or the VLSD channel group
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

// Reads the identification and the block tree. A file that is not MDF 4 is Unsupported; a broken tree (a link
// outside the file, a loop, a block of the wrong kind, an absurd size) is Corrupt, naming the block's offset.
core::Result<Structure> readStructure(const io::ByteSource& file);

const char* dataTypeName(DataType type);         // "uint_le", "float_be", ... (mdf-check's words)
const char* conversionName(ConversionKind kind); // "identity", "linear", "table_interp", ...
const char* channelKindName(ChannelKind kind);   // "data", "master", "virtual_master", "vlsd", ...

} // namespace lv::formats::mdf4
