// The scenario runner's shared pieces: cell arguments, latency series with percentiles, timing, sessions under
// /tmp/longview-bench, page-cache eviction (posix_fadvise) with a residency check (mincore), RSS readings.
#pragma once

#include "view/ViewSession.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace lv::bench {

using Json = nlohmann::json;

struct CellArgs {
    std::string name;
    std::map<std::string, std::string> values;
    double number(const std::string& key, double fallback) const;
    std::string text(const std::string& key, const std::string& fallback) const;
};

// Milliseconds per operation; summary gives count, p50, p95, p99, max, mean.
struct Series {
    std::vector<double> ms;
    void add(double v) { ms.push_back(v); }
    Json summary() const;
};

inline double msSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

[[noreturn]] void fail(const std::string& what);

// Cached synthetic sessions (written on first use): 64 ch x 12 h with 1 h segments or with 4.5 min segments
// (10,240 in all), 128 ch x 4 h, and 64 ch x 24 h. `tar` gives the session as a .mefd.tar beside it.
std::string session(const std::string& which, bool tar = false);

// Drops every file under `path` from the page cache; returns the fraction of their pages still resident.
double evict(const std::string& path);
// Reads every file under `path` once (warms the page cache); returns the bytes read.
std::uint64_t warm(const std::string& path);

std::size_t rssBytes();     // now, from /proc/self/statm
std::size_t peakRssBytes(); // getrusage ru_maxrss

std::unique_ptr<view::ViewSession> openView(const std::string& path, const view::ViewOptions& options);

// Shows `page` through `loader` and waits for its blocks, then assembles every channel's samples from the cache.
// Returns the milliseconds from the request to assembled samples.
double showAndAssemble(view::ViewSession& s, cache::PageLoader& loader, const cache::Page& page);

// One cell of each scenario; each returns its result object.
Json runOpen(const CellArgs& a);    // E1
Json runPaging(const CellArgs& a);  // E2
Json runJumps(const CellArgs& a);   // E3
Json runZoom(const CellArgs& a);    // E4
Json runShared(const CellArgs& a);  // E5
Json runScan(const CellArgs& a);    // E6
Json runSoak(const CellArgs& a);    // E11
Json runConvert(const CellArgs& a); // C1: MEF to EDF+/BDF+ throughput and peak RSS
Json runHub(const CellArgs& a);     // H: the conversion hub's commands in the asammdf benchmark categories

} // namespace lv::bench
