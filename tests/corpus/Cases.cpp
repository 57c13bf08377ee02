// Case generation of the corruption corpus: truncations, bit flips, runs of 0x00/0xFF and field edits per file,
// each MEF change once with the CRCs left wrong and once recomputed; all positions are fixed by the file's
// name and size, so a run gives the same cases every time.
#include "Cases.h"

#include "CaseFields.h"
#include "formats/mef3/Crc32.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

namespace lv::corpus {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kHeader = 1024;

std::vector<std::uint8_t> readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& p, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::uint64_t fnv1a(const std::string& s)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::uint64_t splitmix(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint32_t load32(const std::uint8_t* p)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

void store32(std::uint8_t* p, std::uint32_t v) { std::memcpy(p, &v, 4); }

std::uint32_t crc(const std::uint8_t* p, std::size_t n) { return formats::mef3::crc32({p, n}); }

// The CRC of the RED block (type "tdat") or record ("rdat") holding `offset`, walking from the first one.
void fixEntryCrc(std::uint8_t* b, std::size_t size, const std::string& type, std::size_t offset)
{
    const std::size_t headerBytes = type == "tdat" ? 304 : 24;
    for (std::size_t at = kHeader; at + headerBytes <= size;) {
        const std::uint32_t field = load32(b + at + (type == "tdat" ? 36 : 12));
        const std::size_t end = type == "tdat" ? at + field : at + headerBytes + field;
        if (end <= at + 4 || end > size) return;
        if (offset < end) {
            store32(b + at, crc(b + at + 4, end - at - 4));
            return;
        }
        at = end;
    }
}

void truncations(std::vector<Case>& out, const std::vector<std::uint8_t>& f, const std::string& type)
{
    const std::size_t n = f.size();
    std::vector<std::size_t> at = {0, 1, n / 4, n / 2, 3 * n / 4, n - 1};
    const std::vector<std::size_t> more = boundaries(f, type);
    at.insert(at.end(), more.begin(), more.end());
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    for (std::size_t size : at) {
        if (size >= n) continue;
        Case c;
        c.what = "truncate@" + std::to_string(size);
        c.truncateTo = size;
        out.push_back(c);
    }
}

void flips(std::vector<Case>& out, const std::vector<std::uint8_t>& f, const std::string& type)
{
    std::uint64_t state = fnv1a(type + std::to_string(f.size()));
    const bool mef = !mefType("x." + type).empty();
    for (int i = 0; i < 10; ++i) {
        // Half in the header (MEF: the universal header and what follows; EDF/tar: the first 512 bytes).
        const std::size_t span = (i % 2 == 0) ? std::min<std::size_t>(f.size(), mef ? 2048 : 512) : f.size();
        const std::size_t at = static_cast<std::size_t>(splitmix(state) % span);
        const std::uint8_t bit = static_cast<std::uint8_t>(1u << (splitmix(state) % 8));
        Case c;
        c.what = "flip@" + std::to_string(at) + "^" + std::to_string(bit);
        c.offset = at;
        c.bytes = {static_cast<std::uint8_t>(f[at] ^ bit)};
        out.push_back(c);
    }
}

void runs(std::vector<Case>& out, const std::vector<std::uint8_t>& f, const std::string& type)
{
    const bool mef = !mefType("x." + type).empty();
    const std::size_t body = mef ? kHeader : (type == "edf" ? 256 : type == "mdf4" || type == "cdf" ? 64 : 512);
    const std::vector<std::pair<std::size_t, std::size_t>> where = {
        {0, 16}, {body, 512}, {f.size() / 2, 512}, {f.size() > 64 ? f.size() - 64 : 0, 64}};
    for (const auto& [at, len] : where) {
        for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
            if (at >= f.size()) continue;
            Case c;
            c.offset = at;
            c.bytes.assign(std::min(len, f.size() - at), value);
            c.what =
                std::string(value ? "ff" : "00") + "-run@" + std::to_string(at) + "+" + std::to_string(c.bytes.size());
            out.push_back(c);
        }
    }
}

void fields(std::vector<Case>& out, const std::vector<std::uint8_t>& f, const std::string& type)
{
    std::vector<FieldEdit> edits;
    if (type == "edf")
        edits = edfFieldEdits(f);
    else if (type == "tar")
        edits = tarFieldEdits(f);
    else if (type == "mdf4")
        edits = mdf4FieldEdits(f);
    else if (type == "cdf")
        edits = cdfFieldEdits(f);
    else if (type == "vhdr" || type == "vmrk")
        edits = brainVisionFieldEdits(f, type);
    else if (type == "eeg")
        return;
    else
        edits = mefFieldEdits(f, type);
    for (FieldEdit& e : edits) {
        Case c;
        c.what = std::move(e.what);
        c.offset = e.offset;
        c.bytes = std::move(e.bytes);
        c.undetectable = e.seen == Seen::Never;
        c.onlyReadsSee = e.seen == Seen::ByReads;
        out.push_back(std::move(c));
    }
}

std::vector<fs::path> filesOf(const Source& source)
{
    if (source.kind == SourceKind::BrainVision) {
        const std::string stem = source.root.filename().string();
        return {stem + ".eeg", stem + ".vhdr", stem + ".vmrk"};
    }
    if (source.kind != SourceKind::Mef) return {fs::path()};
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(source.root))
        if (e.is_regular_file() && !mefType(e.path()).empty()) files.push_back(fs::relative(e.path(), source.root));
    std::sort(files.begin(), files.end());
    return files;
}

// MEF cases for the first .tmet and .tidx member of a tar (CRCs recomputed, so the damage reaches the fields).
void tarMembers(std::vector<Case>& out, const std::vector<std::uint8_t>& tar)
{
    std::map<std::string, bool> done;
    for (std::size_t at = 0; at + 512 <= tar.size();) {
        std::size_t size = 0;
        for (std::size_t i = 124; i < 136 && tar[at + i] >= '0' && tar[at + i] <= '7'; ++i)
            size = size * 8 + (tar[at + i] - '0');
        if (tar[at] == 0) break;
        const std::string name(reinterpret_cast<const char*>(&tar[at]),
                               strnlen(reinterpret_cast<const char*>(&tar[at]), 100));
        const std::string type = mefType(name);
        if ((type == "tmet" || type == "tidx") && !done[type] && at + 512 + size <= tar.size()) {
            done[type] = true;
            const std::vector<std::uint8_t> member(tar.begin() + at + 512, tar.begin() + at + 512 + size);
            for (const FieldEdit& e : mefFieldEdits(member, type)) {
                Case c;
                c.what = "member " + name + " " + e.what;
                c.offset = at + 512 + e.offset;
                c.bytes = e.bytes;
                c.checksums = Checksums::Recomputed;
                c.undetectable = e.seen == Seen::Never;
                c.onlyReadsSee = e.seen == Seen::ByReads;
                c.memberStart = at + 512;
                c.memberSize = size;
                c.memberType = type;
                out.push_back(std::move(c));
            }
        }
        at += 512 + (size + 511) / 512 * 512;
    }
}

} // namespace

std::string mefType(const fs::path& file)
{
    const std::string ext = file.extension().string();
    for (const char* t : {"tmet", "tidx", "tdat", "rdat", "ridx"})
        if (ext == std::string(".") + t) return t;
    return {};
}

std::string Case::id() const
{
    std::string s = source->name;
    if (!file.empty()) s += "/" + file.generic_string();
    s += " " + what;
    if (checksums == Checksums::Recomputed && memberType.empty()) s += " crc-fixed";
    return s;
}

void fixMefCrcs(std::uint8_t* b, std::size_t size, const std::string& type, std::size_t offset)
{
    if (size < kHeader) return;
    if (offset >= kHeader && (type == "tdat" || type == "rdat")) fixEntryCrc(b, size, type, offset);
    if (type == "tmet" || type == "tidx" || type == "ridx") {
        const std::size_t end = type == "tmet" ? std::min<std::size_t>(size, 16384) : size;
        store32(b + 4, crc(b + kHeader, end - kHeader));
    }
    store32(b, crc(b + 4, kHeader - 4));
}

std::vector<Case> casesForBytes(const std::vector<std::uint8_t>& bytes, const std::string& type)
{
    std::vector<Case> cases;
    if (bytes.empty()) return cases;
    truncations(cases, bytes, type);
    flips(cases, bytes, type);
    runs(cases, bytes, type);
    fields(cases, bytes, type);
    if (type == "edf") {
        const std::size_t header =
            256 * (1 + std::strtoul(std::string(bytes.begin() + 252, bytes.begin() + 256).c_str(), nullptr, 10));
        for (Case& c : cases)
            c.undetectable =
                c.undetectable || (c.truncateTo == SIZE_MAX && c.what.rfind("field ", 0) != 0 && c.offset >= header);
    }
    if (type == "mdf4" || type == "cdf") // no checksum: a changed byte of data or of a field read as data is data
        for (Case& c : cases)
            c.undetectable = c.undetectable || (c.truncateTo == SIZE_MAX && c.what.rfind("field ", 0) != 0);
    if (type == "mdf4" || type == "cdf") return cases;
    if (type == "vhdr" || type == "vmrk" || type == "eeg") {
        // No checksum: changed text or samples read as what they say. A cut is told by the header's DataPoints= (the
        // data) and by a last line without its end (the markers); a header cut where a line ends can only lose text.
        for (Case& c : cases)
            c.undetectable =
                c.undetectable || (c.what.rfind("field ", 0) != 0 && (c.truncateTo == SIZE_MAX || type == "vhdr"));
        return cases;
    }
    if (type == "tar") {
        // Header field edits again with the member header checksum recomputed.
        const std::size_t n = cases.size();
        for (std::size_t i = 0; i < n; ++i)
            if (cases[i].what.rfind("field ", 0) == 0 && cases[i].what.find("=zeros") == std::string::npos) {
                Case c = cases[i];
                c.checksums = Checksums::Recomputed;
                cases.push_back(c);
            }
        tarMembers(cases, bytes);
    } else if (type != "edf") {
        const std::size_t n = cases.size();
        for (std::size_t i = 0; i < n; ++i) {
            if (cases[i].truncateTo < kHeader) continue; // nothing left to recompute
            // A flip or run inside RED data whose block CRC is made to match again is undetectable by design.
            const bool field = cases[i].what.rfind("field ", 0) == 0;
            if (type == "tdat" && !field && cases[i].truncateTo == SIZE_MAX && cases[i].offset >= kHeader) continue;
            Case c = cases[i];
            c.checksums = Checksums::Recomputed;
            cases.push_back(c);
        }
    }
    return cases;
}

std::vector<Case> casesFor(const Source& source)
{
    std::vector<Case> all;
    for (const fs::path& rel : filesOf(source)) {
        const fs::path file = rel.empty() ? source.root : source.root / rel;
        const std::string type = source.kind == SourceKind::Edf           ? "edf"
                                 : source.kind == SourceKind::Tar         ? "tar"
                                 : source.kind == SourceKind::Mdf4        ? "mdf4"
                                 : source.kind == SourceKind::Cdf         ? "cdf"
                                 : source.kind == SourceKind::BrainVision ? rel.extension().string().substr(1)
                                                                          : mefType(rel);
        for (Case& c : casesForBytes(readFile(file), type)) {
            c.source = &source;
            c.file = rel;
            all.push_back(std::move(c));
        }
    }
    return all;
}

namespace {

void fixTarChecksum(std::vector<std::uint8_t>& b, std::size_t offset)
{
    const std::size_t at = offset / 512 * 512;
    if (at + 512 > b.size()) return;
    std::memset(&b[at + 148], ' ', 8);
    unsigned sum = 0;
    for (std::size_t i = 0; i < 512; ++i) sum += b[at + i];
    std::snprintf(reinterpret_cast<char*>(&b[at + 148]), 8, "%06o", sum);
    b[at + 155] = ' ';
}

} // namespace

void applyCase(const Case& c, const fs::path& root)
{
    const fs::path file = c.file.empty() ? root : root / c.file;
    std::vector<std::uint8_t> b = readFile(file);
    if (c.truncateTo != SIZE_MAX) {
        b.resize(std::min(b.size(), c.truncateTo));
    } else {
        std::copy(c.bytes.begin(), c.bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(c.offset));
    }
    if (c.checksums == Checksums::Recomputed) {
        if (!c.memberType.empty())
            fixMefCrcs(&b[c.memberStart], c.memberSize, c.memberType, c.offset - c.memberStart);
        else if (c.source->kind == SourceKind::Tar)
            fixTarChecksum(b, c.offset);
        else
            fixMefCrcs(b.data(), b.size(), mefType(c.file), c.truncateTo != SIZE_MAX ? b.size() : c.offset);
    }
    writeFile(file, b);
}

} // namespace lv::corpus
