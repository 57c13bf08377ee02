// Every variable of every reference CDF against the manifest (cdf-check / jcdf, cdflib for CDF 2.4), and whole
// variables against cdf-check's dumps at test time and cdflib's expected/ dumps: values and epochs to the ns.
#include "CdfOracle.h"

#include "formats/cdf/CdfCompression.h"
#include "formats/cdf/CdfTime.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace lv::test::cdf {
namespace {

using formats::cdf::CdfFile;
using formats::cdf::Variable;

nlohmann::json manifest()
{
    std::ifstream in(dataDir() + "/manifest.json");
    return nlohmann::json::parse(in)["files"];
}

std::string textOf(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// TT2000 before 1972: the references differ by up to 1.3 ms (see the NOTICE).
constexpr std::int64_t kBefore1972 = 63072000LL * 1000000000;

// Whether our value `index` of `record` reads as the reference text.
void expectValue(const CdfFile& file, const Variable& v, std::int64_t record, std::size_t index,
                 const std::string& want, const std::string& where)
{
    if (want == "..." || want == "PAD" || formats::cdf::isText(v.type)) return;
    if (formats::cdf::isEpoch(v.type)) {
        const auto times = file.times(v);
        ASSERT_TRUE(times.ok()) << where;
        if (index > 0) return; // epochs with dimensions: the first value is the time
        const auto expected = isoToNs(want);
        ASSERT_TRUE(expected) << where << ": " << want;
        const std::int64_t got = (*times)[static_cast<std::size_t>(record)];
        if (v.type == formats::cdf::kTimeTt2000 && *expected < kBefore1972)
            EXPECT_NEAR(static_cast<double>(got), static_cast<double>(*expected), 2e6) << where << ": " << want;
        else
            EXPECT_EQ(got, *expected) << where << ": " << want;
        return;
    }
    const auto numbers = file.numbers(v, index);
    ASSERT_TRUE(numbers.ok()) << where << ": " << numbers.error().describe();
    const double got = (*numbers)[static_cast<std::size_t>(record)];
    const double expected = want == "NaN" ? std::nan("") : std::stod(want);
    if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << where;
    } else {
        EXPECT_EQ(got, expected) << where << ": " << want;
        EXPECT_EQ(std::signbit(got), std::signbit(expected)) << where << ": " << want;
    }
}

TEST(CdfOracle, EveryVariableOfEveryFileMatchesTheManifest)
{
    std::size_t files = 0, variables = 0;
    const nlohmann::json all = manifest();
    for (const auto& [name, want] : all.items()) {
        if (name == "not_a_cdf.cdf") continue;
        SCOPED_TRACE(name);
        const CdfFile file = openReference(name);
        const auto& s = file.structure();
        EXPECT_EQ(std::to_string(s.version) + "." + std::to_string(s.release) + "." + std::to_string(s.increment),
                  want["cdf_version"].get<std::string>());
        EXPECT_EQ(s.rowMajor, want["row_major"].get<bool>());
        if (want.contains("file_compression") && want["file_compression"].is_string()) {
            EXPECT_EQ(s.compression, want["file_compression"].get<std::string>());
        }
        ASSERT_EQ(s.variables.size(), want["variables"].size());
        for (std::size_t i = 0; i < s.variables.size(); ++i) {
            const Variable& v = s.variables[i];
            const auto& w = want["variables"][i];
            const std::string where = name + " " + v.name;
            EXPECT_EQ(v.name, w["name"].get<std::string>());
            EXPECT_EQ(v.z ? "z" : "r", w["kind"].get<std::string>()) << where;
            EXPECT_EQ(formats::cdf::typeName(v.type), w["type"].get<std::string>()) << where;
            EXPECT_EQ(v.numElems, w["num_elems"].get<int>()) << where;
            EXPECT_EQ(v.dims, w["dims"].get<std::vector<std::int32_t>>()) << where;
            EXPECT_EQ(v.dimVarys, w["dim_varys"].get<std::vector<bool>>()) << where;
            EXPECT_EQ(v.recordVaries, w["record_varies"].get<bool>()) << where;
            EXPECT_EQ(v.records(), w["records"].get<std::int64_t>()) << where;
            if (w.contains("compression") && !w["compression"].is_null()) {
                EXPECT_EQ(formats::cdf::compressionName(v.compression), w["compression"].get<std::string>()) << where;
            }
            if (w.contains("sparse_records")) {
                EXPECT_EQ(v.sparse, w["sparse_records"].get<int>()) << where;
            }
            if (v.records() < 1 || !w.contains("first") || w["first"].is_null()) continue;
            const std::int64_t last = v.recordVaries ? v.records() - 1 : 0;
            for (std::size_t k = 0; k < w["first"].size(); ++k)
                expectValue(file, v, 0, k, textOf(w["first"][k]), where + " first[" + std::to_string(k) + "]");
            for (std::size_t k = 0; k < w["last"].size(); ++k)
                expectValue(file, v, last, k, textOf(w["last"][k]), where + " last[" + std::to_string(k) + "]");
            ++variables;
        }
        ++files;
    }
    EXPECT_EQ(files, 17u);
    EXPECT_GT(variables, 150u);
}

// Every record of `variable`, every value, against the dump.
void expectDump(const std::string& name, const std::string& variable, const std::vector<DumpRow>& rows)
{
    const CdfFile file = openReference(name);
    const Variable* v = file.structure().variable(variable);
    ASSERT_TRUE(v) << variable;
    const std::int64_t records = v->recordVaries ? v->records() : 1;
    ASSERT_EQ(static_cast<std::int64_t>(rows.size()), records) << name << " " << variable;
    for (const DumpRow& row : rows) {
        if (row.values.empty()) { // PAD: a record the file does not hold
            if (formats::cdf::isEpoch(v->type))
                EXPECT_EQ((*file.times(*v))[static_cast<std::size_t>(row.record)], formats::cdf::kNoTime);
            else
                EXPECT_TRUE(std::isnan((*file.numbers(*v, 0))[static_cast<std::size_t>(row.record)]));
            continue;
        }
        for (std::size_t k = 0; k < row.values.size(); ++k)
            expectValue(file, *v, row.record, k, row.values[k],
                        name + " " + variable + " record " + std::to_string(row.record) + "[" + std::to_string(k) +
                            "]");
    }
}

struct DumpCase {
    const char* file;
    const char* variable;
};

// Row and column major, whole-file GZIP and RLE, per-variable GZIP, every epoch type with the leap second, sparse
// records, r variables, several VVRs, big-endian CDF 2.5.
const DumpCase kDumps[] = {
    {"a_cdf.cdf", "var3d_counter"},
    {"a_col_major_cdf.cdf", "var3d_counter"},
    {"a_col_major_cdf.cdf", "var2d_counter"},
    {"a_compressed_cdf.cdf", "var3d_counter"},
    {"a_rle_compressed_cdf.cdf", "var3d_counter"},
    {"a_cdf_with_compressed_vars.cdf", "var3d_counter"},
    {"a_cdf.cdf", "epoch"},
    {"a_cdf.cdf", "epoch16"},
    {"a_cdf.cdf", "tt2000"},
    {"testutf8.cdf", "tt2000"},
    {"testutf8.cdf", "ep16"},
    {"testutf8.cdf", "Temp"},
    {"testutf8.cdf", "Delta"},
    {"fragmented.cdf", "filler"},
    {"rvariable.cdf", "legacy_rvar"},
    {"ac_h2_sis_20101105_v06.cdf", "Epoch"},
    {"ac_h2_sis_20101105_v06.cdf", "flux_He"},
};

TEST(CdfOracle, WholeVariablesMatchCdfCheck)
{
    for (const DumpCase& c : kDumps) {
        SCOPED_TRACE(std::string(c.file) + " " + c.variable);
        int status = 0;
        const auto rows = dump(dataDir() + "/" + c.file, c.variable, &status);
        ASSERT_EQ(status, 0) << "cdf-check failed";
        expectDump(c.file, c.variable, rows);
    }
}

TEST(CdfOracle, Cdf24FilesMatchCdflibDumps)
{
    for (const auto& [file, variable] :
         {std::pair{"ge_k0_cpi_19921231_v02", "Epoch"}, std::pair{"ge_k0_cpi_19921231_v02", "SW_P_Den"},
          std::pair{"ia_k0_epi_19970102_v01", "Epoch"}, std::pair{"ia_k0_epi_19970102_v01", "Fe1"}}) {
        SCOPED_TRACE(std::string(file) + " " + variable);
        std::ifstream in(dataDir() + "/expected/" + file + "__" + variable + ".csv");
        std::stringstream csv;
        csv << in.rdbuf();
        const auto rows = parseDump(csv.str());
        ASSERT_GT(rows.size(), 400u);
        expectDump(std::string(file) + ".cdf", variable, rows);
    }
}

TEST(CdfOracle, ANonCdfFileIsRefusedByName)
{
    auto source = io::openFile(dataDir() + "/not_a_cdf.cdf");
    ASSERT_TRUE(source.ok());
    const auto file = formats::cdf::CdfFile::open(*source);
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.error().describe(), dataDir() + "/not_a_cdf.cdf: not a CDF file (no CDF magic number) (at byte 0)");
}

} // namespace
} // namespace lv::test::cdf
