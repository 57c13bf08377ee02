# The reference for tests/engine/spectrum: scipy.signal.welch on each run of present samples, averaged over all
# their segments. Input (argv[1], JSON): {"fs", "nperseg", "noverlap", "window", "runs": [[...], ...]}. Output
# (stdout, JSON): {"f": [...], "p": [...], "segments": N}.
import json
import sys

import numpy as np
import scipy.signal as signal

spec = json.load(open(sys.argv[1]))
n, overlap = spec["nperseg"], spec["noverlap"]
total, count, f = None, 0, None
for run in spec["runs"]:
    x = np.array(run, dtype=float)
    if len(x) < n:
        continue
    segments = (len(x) - overlap) // (n - overlap)
    f, p = signal.welch(x, fs=spec["fs"], window=spec["window"], nperseg=n, noverlap=overlap)
    total = p * segments if total is None else total + p * segments
    count += segments
json.dump({"f": [] if f is None else f.tolist(), "p": [] if total is None else (total / count).tolist(),
           "segments": count}, sys.stdout)
