// An MDF 4.10 file written as a stream: sorted data groups, each a float64 time master and numeric channels with
// invalidation bits, records compressed into transposed-deflate DZ blocks of a few MiB listed by DL blocks under an
// HL (compressed behind the caller on the runner's other threads), events, all under a locked temporary name moved
// into place when complete.
#pragma once

#include "core/BackgroundJobs.h"
#include "core/Error.h"
#include "core/TaskRunner.h"
#include "io/Temporary.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

enum class ValueType { Int16, Int32, Float32, Float64 };

struct ChannelSpec {
    std::string name;
    std::string unit;
    std::string comment;
    ValueType type = ValueType::Int32;
    bool linear = false; // physical = raw * factor + offset (a linear CC); else the raw value itself (no CC)
    double factor = 1.0;
    double offset = 0.0;
};

struct GroupSpec {
    std::string acquisitionName;
    std::string comment;
    std::vector<ChannelSpec> channels; // after the master "time" (float64 seconds since HD's start, at byte 0)
};

struct FileSpec {
    std::uint64_t startNs = 0;     // HD's start, UTC
    std::string comment;           // HD's comment (plain text, put in <HDcomment><TX>)
    std::string program;           // the identification's program (8 characters at most) and FH's tool
    std::string version;           // FH's tool version
    std::uint64_t historyNs = 0;   // FH's time (when the file was written)
    std::vector<GroupSpec> groups; // one data group each, in this order
    // Uncompressed bytes of whole records per DZ block (the last of a group holds what is left); smaller in tests.
    std::uint64_t zipBytes = std::uint64_t{4} << 20;
    bool compress = true; // false: plain DT blocks of zipBytes in DL lists (no HL)
};

// Where each value lies in a group's records: the master at 0, the channels after it, then one invalidation bit per
// channel (bit k of the invalidation bytes for channel k).
struct RecordLayout {
    std::vector<std::uint32_t> offsets; // per channel
    std::vector<std::uint32_t> widths;  // per channel, bytes
    std::uint32_t dataBytes = 0;        // master and channels
    std::uint32_t invalidBytes = 0;

    std::uint32_t recordBytes() const { return dataBytes + invalidBytes; }
};

struct EventSpec {
    enum class Range { Point, Begin, End };
    std::int64_t baseValue = 0; // time in seconds since HD's start = baseValue * factor
    double factor = 1e-6;
    Range range = Range::Point;
    std::size_t begin = 0; // End: the index (in the order added) of its Begin event
    std::string name;
    std::string comment;
    bool byTool = false;                                      // cause "tool" (made by the program) instead of "user"
    std::optional<std::pair<std::size_t, std::size_t>> scope; // (group, channel) the event concerns
};

class Mdf4Writer {
public:
    // Blocks listed per DL block (longer lists are chained).
    static constexpr std::size_t kListEntries = 1024;

    ~Mdf4Writer(); // removes the temporary unless committed
    Mdf4Writer(const Mdf4Writer&) = delete;
    Mdf4Writer& operator=(const Mdf4Writer&) = delete;

    // Creates the locked temporary beside `target` and writes the block tree (channels, names, units, conversions);
    // `runner` compresses blocks on its other threads while the caller goes on (nullptr: on the calling thread).
    static core::Result<std::unique_ptr<Mdf4Writer>> create(const std::string& target, FileSpec spec,
                                                            core::TaskRunner* runner = nullptr);

    const RecordLayout& layout(std::size_t group) const { return m_groups[group].layout; }
    std::uint64_t recordCount(std::size_t group) const { return m_groups[group].records; }

    // Appends whole records (layout(group)) to a group. Records of one group are compressed together: switching to
    // another group first writes out what the previous one holds.
    core::Status append(std::size_t group, std::span<const std::uint8_t> records);
    void addEvent(EventSpec event);

    // Writes the rest of the records, the data lists, the events, the record counts; synced, not yet in place.
    core::Status finish();
    // finish() unless done, then moves the file to the target unless one exists by then.
    core::Status commit();

private:
    struct Group {
        GroupSpec spec;
        RecordLayout layout;
        std::uint64_t dgOffset = 0, cgOffset = 0;
        std::vector<std::uint64_t> cnOffsets; // per channel (the master's not included)
        std::uint64_t records = 0;
        std::uint64_t streamBytes = 0;     // uncompressed bytes written so far
        std::vector<std::uint64_t> blocks; // DZ offsets
        std::vector<std::uint64_t> starts; // their offsets in the uncompressed stream
    };

    // A block of one group's records being compressed on the runner's other threads while the caller goes on.
    struct InFlight {
        std::size_t group = 0;
        std::uint32_t recordBytes = 0;
        std::vector<std::uint8_t> records;
        std::vector<std::uint8_t> zipped;
        bool failed = false;
        core::BackgroundJobs jobs; // last: destroyed first, waiting for a run that uses the rest
    };

    Mdf4Writer() = default;
    core::Status writeTree(const FileSpec& spec);
    core::Status flushPending(bool all);
    std::size_t depth() const;
    core::Status compressBehind(std::vector<std::uint8_t> records);
    bool compressNewestHere();
    core::Status writeOldest();
    core::Status writePlain(std::size_t count, std::uint64_t blockBytes);
    core::Status writeLists(Group& g);
    core::Status writeEvents();
    core::Status put(const std::vector<std::uint8_t>& bytes);
    core::Status putRaw(std::span<const std::uint8_t> bytes);
    core::Status flushOut();
    core::Status patch(std::uint64_t offset, std::uint64_t value);
    core::Error failure(const std::string& what, const io::SystemError& e) const;

    std::string m_target;
    io::Temporary m_temp;
    core::TaskRunner* m_runner = nullptr;
    std::vector<Group> m_groups;
    std::vector<EventSpec> m_events;
    std::uint64_t m_zipBytes = 0;
    bool m_compress = true;
    std::uint64_t m_size = 0;        // bytes of the file so far (written and in m_out)
    std::vector<std::uint8_t> m_out; // bytes not yet written, from m_size - m_out.size()
    std::size_t m_pendingGroup = 0;
    std::vector<std::uint8_t> m_pending;            // records of m_pendingGroup not yet compressed
    std::vector<std::vector<std::uint8_t>> m_spare; // written blocks' buffers, reused
    bool m_finished = false;
    bool m_committed = false;
    std::deque<InFlight> m_inFlight; // oldest first; last: destroyed first, so its compressions end before the rest
};

} // namespace lv::formats::mdf4
