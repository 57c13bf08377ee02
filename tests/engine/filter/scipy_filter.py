# The reference for tests/engine/filter: scipy.signal's own designs, responses and filtering of a signal.
# Input (argv[1], JSON): {"fs", "filters": [{"band": "lowpass"|"highpass"|"bandpass"|"bandstop", "order", "hz"}
# or {"band": "notch", "hz", "q"}], "freqs": [...], "signal": [...]}. Output (stdout, JSON): the cascade's
# response at freqs (re, im), and (when longer than sosfiltfilt pads) the signal through sosfiltfilt and through sosfilt started at sosfilt_zi * x[0].
import json
import sys

import numpy as np
import scipy.signal as signal

spec = json.load(open(sys.argv[1]))
fs = spec["fs"]
parts = []
for f in spec["filters"]:
    if f["band"] == "notch":
        b, a = signal.iirnotch(f["hz"], f["q"], fs=fs)
        parts.append(signal.tf2sos(b, a))
    else:
        parts.append(signal.butter(f["order"], f["hz"], f["band"], fs=fs, output="sos"))
sos = np.vstack(parts)
_, h = signal.sosfreqz(sos, worN=np.array(spec["freqs"], dtype=float), fs=fs)
x = np.array(spec["signal"], dtype=float)
zero = causal = np.array([])
if len(x) > 3 * (2 * len(sos) + 1):  # sosfiltfilt's padding needs more samples than it pads
    zero = signal.sosfiltfilt(sos, x)
    causal, _ = signal.sosfilt(sos, x, zi=signal.sosfilt_zi(sos) * x[0])
json.dump({"re": h.real.tolist(), "im": h.imag.tolist(), "zero": zero.tolist(), "causal": causal.tolist(),
           "sections": len(sos)}, sys.stdout)
