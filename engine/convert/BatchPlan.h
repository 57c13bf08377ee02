// A batch's work list: the recordings found under the inputs, each one's output under one folder (the inputs'
// relative layout kept, names made distinct deterministically), and the shard of it one cluster task takes.
#pragma once

#include "core/Error.h"

#include <cstddef>
#include <string>
#include <vector>

namespace lv::convert {

struct BatchItem {
    std::string input;    // a recording: an EDF/BDF file, a .mefd folder or a .mefd.tar
    std::string output;   // under the output folder, with the target's extension
    bool renamed = false; // its plain name was another input's too: the source extension (and a number) added
};

// Every recording under `inputs` (a file is taken as given; a folder is searched, not descending into .mefd
// folders, nor into `outDir`), sorted by path, with its output under `outDir`: a file argument's output is its
// name, a found recording's its path relative to the folder argument, the extension replaced by `extension`
// ("edf" for "r.mefd.tar" gives "r.edf"). NotFound for an input that does not exist, InvalidArgument for a file
// argument that is not a recording. A recording given twice is taken once, as first given.
core::Result<std::vector<BatchItem>> planBatch(const std::vector<std::string>& inputs, const std::string& outDir,
                                               const std::string& extension);

// A shard "I/N" (0 <= I < N, as Slurm's SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT give it for --array=0-(N-1)).
struct Shard {
    std::size_t index = 0;
    std::size_t count = 1;
};
core::Result<Shard> parseShard(const std::string& text);

// Items i of the sorted list with i % count == index: the N shards are disjoint and cover the list, and each
// task computes its own from the same inputs with no coordination.
std::vector<BatchItem> shardOf(const std::vector<BatchItem>& items, Shard shard);

} // namespace lv::convert
