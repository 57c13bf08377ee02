// MDF 4.10 blocks serialised for writing: the identification, HD, FH, TX/MD, DG, CG, CN, CC, EV, DZ, DL and HL
// layouts as byte vectors, each a multiple of 8 bytes long, plus the field offsets a writer patches afterwards.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::mdf4 {

using Bytes = std::vector<std::uint8_t>;

// Sizes of the fixed blocks (header, links and data).
inline constexpr std::uint64_t kIdentificationBytes = 64;
inline constexpr std::uint64_t kHdBytes = 104;
inline constexpr std::uint64_t kFhBytes = 56;
inline constexpr std::uint64_t kDgBytes = 64;
inline constexpr std::uint64_t kCgBytes = 104;
inline constexpr std::uint64_t kCnBytes = 160;
inline constexpr std::uint64_t kCcLinearBytes = 96;
inline constexpr std::uint64_t kHlBytes = 40;
inline constexpr std::uint64_t kDzHeaderBytes = 48; // header and DZ fields before the compressed bytes

// Where a writer patches a block after writing it (bytes from the block's start).
inline constexpr std::uint64_t kHdEventLinkAt = 24 + 4 * 8; // hd_ev_first
inline constexpr std::uint64_t kDgDataLinkAt = 24 + 2 * 8;  // dg_data
inline constexpr std::uint64_t kCgCycleCountAt = 24 + 6 * 8 + 8;

// The size of a TX or MD block holding `text` (with its NUL, padded to 8 bytes).
std::uint64_t textBlockBytes(std::string_view text);
// The size of an EV block with `scopes` scope links.
std::uint64_t eventBlockBytes(std::size_t scopes);
// The size of a DL block listing `count` blocks (with their offsets).
std::uint64_t dataListBytes(std::size_t count);
// `n` rounded up to a multiple of 8 (blocks start on the 8-byte grid).
inline std::uint64_t aligned8(std::uint64_t n) { return (n + 7) / 8 * 8; }

// `text` with &, <, >, " and ' as XML entities; control characters other than tab and line breaks dropped.
std::string xmlEscape(std::string_view text);
// "<TAG><TX>text</TX></TAG>" (an MD block's XML for a comment with only a text).
std::string commentXml(std::string_view tag, std::string_view text);

// The 64-byte identification: "MDF     ", "4.10    ", `program` (8 characters at most), version 410.
Bytes identificationBlock(std::string_view program);

struct HeaderFields {
    std::uint64_t firstDataGroup = 0, firstHistory = 0, firstEvent = 0, comment = 0;
    std::uint64_t startNs = 0; // UTC (time flags 0: not local time, no zone offsets)
};
Bytes headerBlock(const HeaderFields& f);

// A file history entry at `timeNs` (UTC) whose MD comment is at `comment`.
Bytes historyBlock(std::uint64_t comment, std::uint64_t timeNs);

// A TX block (plain UTF-8) or an MD block (XML).
Bytes textBlock(std::string_view text);
Bytes metadataBlock(std::string_view xml);

// A data group with record id size 0 (sorted: one channel group).
Bytes dataGroupBlock(std::uint64_t next, std::uint64_t firstChannelGroup, std::uint64_t data);

struct ChannelGroupFields {
    std::uint64_t next = 0, firstChannel = 0, acquisitionName = 0, comment = 0;
    std::uint64_t cycleCount = 0;
    std::uint32_t dataBytes = 0, invalidBytes = 0;
};
Bytes channelGroupBlock(const ChannelGroupFields& f);

// cn_type, cn_sync_type and cn_data_type values used here.
inline constexpr std::uint8_t kChannelData = 0, kChannelMaster = 2;
inline constexpr std::uint8_t kSyncNone = 0, kSyncTime = 1;
inline constexpr std::uint8_t kUintLe = 0, kIntLe = 2, kFloatLe = 4;
inline constexpr std::uint32_t kInvalidationBitValid = 1u << 1;

struct ChannelFields {
    std::uint64_t next = 0, name = 0, conversion = 0, unit = 0, comment = 0;
    std::uint8_t type = kChannelData, sync = kSyncNone, dataType = kIntLe;
    std::uint32_t byteOffset = 0, bitCount = 0, flags = 0, invalidBit = 0;
};
Bytes channelBlock(const ChannelFields& f);

// A linear conversion: physical = raw * factor + offset (cc_val = {offset, factor}).
Bytes linearConversionBlock(double offset, double factor);

// ev_type, ev_range_type and ev_cause values used here.
inline constexpr std::uint8_t kEventMarker = 6;
inline constexpr std::uint8_t kRangePoint = 0, kRangeBegin = 1, kRangeEnd = 2;
inline constexpr std::uint8_t kCauseTool = 2, kCauseUser = 4;

struct EventFields {
    std::uint64_t next = 0, range = 0, name = 0, comment = 0; // range: an end's begin event
    std::vector<std::uint64_t> scopes;                        // CN or CG blocks the event concerns
    std::uint8_t type = kEventMarker, rangeType = kRangePoint, cause = kCauseUser;
    std::int64_t baseValue = 0; // time in s since HD's start = baseValue * factor
    double factor = 1.0;
};
Bytes eventBlock(const EventFields& f);

// The header of a DZ block holding `zippedBytes` of zlib data that inflate to `originalBytes` of a DT block;
// `columns` > 0: transposed first (rows of `columns` bytes), 0: deflate only. The block's length is exact (the
// writer pads after the compressed bytes).
Bytes zippedHeader(std::uint64_t originalBytes, std::uint64_t zippedBytes, std::uint32_t columns);
// The 24-byte header of a DT block of `bytes` record bytes (which follow it).
Bytes plainHeader(std::uint64_t bytes);

// A DL block listing `blocks`, whose data starts at `offsets` of the uncompressed stream; `next` continues the list.
Bytes dataListBlock(std::uint64_t next, std::span<const std::uint64_t> blocks, std::span<const std::uint64_t> offsets);

// An HL block over the DL list at `firstList` whose DZ blocks use `zipType` (0 deflate, 1 transposed deflate).
Bytes headerListBlock(std::uint64_t firstList, std::uint8_t zipType);

} // namespace lv::formats::mdf4
