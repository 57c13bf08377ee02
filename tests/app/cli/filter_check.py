#!/usr/bin/python3
"""Checks a filtered conversion against scipy.signal, reading both files with MNE (CliFilterTest).

usage: filter_check.py SOURCE.edf FILTERED.edf ORDER HP LP NOTCH
Prints JSON: per channel the largest difference between FILTERED and scipy's sosfiltfilt of SOURCE (Butterworth
high- and low-pass of ORDER, iirnotch at NOTCH with Q 30), in units of the tolerance (half the source's and half the
output's digital step), the RMS of both 5 s from either end, and what MNE parsed from the prefiltering fields (info highpass and lowpass).
"""
import json
import sys
import warnings

import mne
import numpy as np
import scipy.signal as signal

warnings.simplefilter("ignore")
mne.set_log_level("ERROR")


def steps(raw):
    """Per channel, one digital step in MNE's units (its calibration times its unit scaling)."""
    extras = raw._raw_extras[0]
    return np.abs(np.asarray(extras["cal"], dtype=float) * np.asarray(extras["units"], dtype=float))


source_path, filtered_path, order, hp, lp, notch = sys.argv[1:7]
source = mne.io.read_raw_edf(source_path, preload=True)
filtered = mne.io.read_raw_edf(filtered_path, preload=True)
fs = source.info["sfreq"]
b, a = signal.iirnotch(float(notch), 30, fs=fs)
sos = np.vstack([signal.butter(int(order), float(hp), "highpass", fs=fs, output="sos"),
                 signal.butter(int(order), float(lp), "lowpass", fs=fs, output="sos"),
                 signal.tf2sos(b, a)])
source_steps, filtered_steps = steps(source), steps(filtered)
channels = {}
for k, name in enumerate(source.ch_names):
    j = filtered.ch_names.index(name)
    want = signal.sosfiltfilt(sos, source._data[k])
    got = filtered._data[j]
    tolerance = (source_steps[k] + filtered_steps[j]) / 2 + 1e-9 * np.max(np.abs(want))
    middle = slice(int(5 * fs), len(got) - int(5 * fs))  # the filters' start and end transients left out
    channels[name] = {"worst": float(np.max(np.abs(got - want)) / tolerance), "samples": int(len(got)),
                      "rms_in": float(np.sqrt(np.mean(source._data[k][middle] ** 2))),
                      "rms_out": float(np.sqrt(np.mean(got[middle] ** 2)))}
json.dump({"channels": channels, "highpass": filtered.info["highpass"], "lowpass": filtered.info["lowpass"]},
          sys.stdout)
