#!/usr/bin/python3
"""scipy.signal.welch of one channel of an EDF as MNE reads it (CliSpectrumTest).

usage: spectrum_check.py FILE.edf CHANNEL NPERSEG NOVERLAP
Prints JSON: {"f": [...], "p": [...]} in the file's physical unit (MNE's volts scaled back by its unit factor).
"""
import json
import sys
import warnings

import mne
import scipy.signal as signal

warnings.simplefilter("ignore")
mne.set_log_level("ERROR")

raw = mne.io.read_raw_edf(sys.argv[1], preload=True)
k = raw.ch_names.index(sys.argv[2])
x = raw._data[k] / raw._raw_extras[0]["units"][k]
f, p = signal.welch(x, fs=raw.info["sfreq"], window="hann", nperseg=int(sys.argv[3]), noverlap=int(sys.argv[4]))
json.dump({"f": f.tolist(), "p": p.tolist()}, sys.stdout)
