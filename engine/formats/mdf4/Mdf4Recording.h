// An MDF 4 file opened as a core::Recording: channel groups on a fixed raster become grid channels, the others
// irregular channels (their times kept from the open); read on demand in blocks of whole records (DZ leaves
// inflated once and kept in a small cache).
#pragma once

#include "core/BlockSource.h"
#include "core/Raster.h"
#include "core/Recording.h"
#include "formats/mdf4/Mdf4Stream.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

class Mdf4Recording final : public core::Recording, public core::BlockSource {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    const core::BlockSource* blockSource() const override { return this; }
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;
    std::string valueLabel(std::size_t channel, std::int32_t count) const override;
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override;
    // Blocks carry extrema where a sample reduction (SR) gives them.
    bool storesExtrema() const override { return !m_extremaBlocks.empty(); }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;

    const Structure& structure() const { return m_structure; }
    // The warnings of info() that say what this reader leaves out or rounds (irregular groups, texts, float steps),
    // not what is wrong with the file.
    const std::vector<std::string>& limits() const { return m_limits; }
    // Bytes of inflated DZ blocks kept for the next reads.
    std::uint64_t cachedLeafBytes() const;

private:
    friend class Mdf4Opener;
    friend class GroupScanner;
    friend core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file,
                                                                 core::TaskRunner* runner);
    Mdf4Recording() = default;

    // How a channel's samples become counts.
    enum class Mapping : std::uint8_t {
        Counts,    // integer raw values that fit int32, with an identity or linear conversion
        Quantized, // physical values rounded to multiples of the channel's conversion factor
    };
    struct Group {
        std::size_t dataGroup = 0, channelGroup = 0;
        DataStream stream;
        std::uint64_t recordBytes = 0; // record id included (sorted groups)
        std::uint8_t idBytes = 0;
        std::shared_ptr<const std::vector<std::uint8_t>> ownRecords; // unsorted groups: this group's, ids removed
        std::vector<core::BlockSpan> blocks;
        std::vector<std::int64_t> blockRecord; // first record of each block
        // An irregular group's record times (ns since 1970), its channels' samples numbered as its records.
        std::shared_ptr<const std::vector<std::int64_t>> timesNs;
    };
    struct ChannelRef {
        std::size_t group = 0;
        std::size_t channel = 0; // in its channel group
        Mapping mapping = Mapping::Counts;
        std::uint32_t extrema = kNoExtrema; // its blocks with extrema in m_extremaBlocks, or kNoExtrema
    };
    static constexpr std::uint32_t kNoExtrema = 0xFFFFFFFFu;
    // What one slice of a readRaw takes from one block.
    struct Piece {
        std::size_t slice = 0;
        std::int64_t from = 0, to = 0; // grid range of the slice inside the block
    };
    // Whether the DZ block at `key` is neither cached nor being inflated.
    bool leafPending(std::uint64_t key) const;
    std::vector<std::pair<std::size_t, std::size_t>>
    leavesAhead(const std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::vector<Piece>>>& jobs) const;
    core::Status readRecords(const Group& group, std::int64_t first, std::int64_t count,
                             core::UninitializedBytes& out) const;
    // Channel `channel`'s counts from `records` (record numbers firstRecord...), one per element of `out`.
    void extract(std::size_t channel, const std::uint8_t* records, std::int64_t firstRecord,
                 std::span<std::int32_t> out) const;
    // extract() for byte-aligned little-endian 8, 16 and 32-bit integers held as counts; false for other layouts.
    bool takeAligned(const Group& group, const ChannelGroup& cg, const Channel& c, const std::uint8_t* records,
                     std::span<std::int32_t> out) const;
    using Bytes = std::shared_ptr<const core::UninitializedBytes>;
    Bytes leafBytes(const Group& group, std::size_t leaf) const;
    // ReadControl::forwardOnly: drops the cached leaves that end before where the slices end in their groups.
    void dropLeavesBehind(std::span<const core::RawSlice> slices) const;
    void warnOnce(std::size_t channel, const std::string& what) const;

    io::ByteSourcePtr m_file;
    Structure m_structure;
    core::RecordingInfo m_info;
    std::vector<Group> m_groups;
    std::vector<ChannelRef> m_channels;
    std::vector<std::vector<core::BlockSpan>> m_extremaBlocks; // a group's blocks with a channel's SR extrema
    std::vector<std::string> m_limits;

    mutable std::mutex m_mutex;                                     // guards the leaf cache and the warnings
    mutable std::list<std::pair<std::uint64_t, Bytes>> m_leafCache; // DZ block offset -> inflated bytes, newest first
    mutable std::map<std::uint64_t, std::shared_future<Bytes>> m_inflating; // blocks being inflated, by offset
    mutable std::uint64_t m_leafCacheBytes = 0;
    // A reader that goes across all channels a time range at a time needs every group's current DZ block: the
    // budget holds two of each group's largest (64 MiB to 512 MiB; see Mdf4Open).
    std::uint64_t m_leafCacheBudget = std::uint64_t{64} << 20;
    mutable std::vector<std::string> m_warnings;
    mutable std::vector<bool> m_warned;
};

// Opens an MDF 4 file: the block tree, then every channel group's master times (to find its raster) and, for
// channels stored as floats, a first look at their values (to choose the count size). Channel groups off a raster
// become irregular channels; channels that hold no numbers are left out with a warning.
core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const std::string& path);
// The same from any byte source (a tar member, memory); a file of 8 MiB or more is opened on a pool of its own.
core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file);
// The same with the tree read and the data groups scanned side by side on `runner` (nullptr: this thread only).
core::Result<std::unique_ptr<Mdf4Recording>> openMdf4(const io::ByteSourcePtr& file, core::TaskRunner* runner);

// A file that starts with MDF's identification ("MDF     ").
bool looksLikeMdf4(const std::string& path);

} // namespace lv::formats::mdf4
