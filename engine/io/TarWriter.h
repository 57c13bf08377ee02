// Deterministic uncompressed tar (ustar) archives of a directory tree, and safe extraction.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"

#include <string>

namespace lv::io {

// Archives directory `dir` as its own top-level folder (e.g. "s.mefd/...") into `archivePath`, written
// atomically. Entries are sorted by path; owner 0, modes 0755/0644 and mtime 0, so the same tree gives the same
// bytes. Paths longer than ustar allows are refused.
core::Status writeTar(const std::string& dir, const std::string& archivePath,
                      const core::CancelToken* cancel = nullptr);

// Extracts every member of `archivePath` under `targetDir`. Absolute paths and ".." components are refused;
// existing files are never overwritten. The top-level folders appear only when complete (temp + rename).
core::Status extractTar(const std::string& archivePath, const std::string& targetDir,
                        const core::CancelToken* cancel = nullptr);

} // namespace lv::io
