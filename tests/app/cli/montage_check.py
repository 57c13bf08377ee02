#!/usr/bin/python3
"""Checks a conversion with --montage against sums computed here from what MNE reads of the source (CliMontageTest).

usage: montage_check.py SOURCE.edf OUTPUT.edf EXPECTED.json
EXPECTED.json: {"derivation name": {"source channel": weight, ...}, ...}, the hand-written montage.
Prints JSON: the output's channel names in order, and per expected derivation the largest difference from the sum
in units of the tolerance (half the output's step plus the source steps the weights scale), or null when the output
lacks it.
"""
import json
import sys
import warnings

import mne
import numpy as np

warnings.simplefilter("ignore")
mne.set_log_level("ERROR")


def steps(raw):
    extras = raw._raw_extras[0]
    return np.abs(np.asarray(extras["cal"], dtype=float) * np.asarray(extras["units"], dtype=float))


source = mne.io.read_raw_edf(sys.argv[1], preload=True)
output = mne.io.read_raw_edf(sys.argv[2], preload=True)
expected = json.load(open(sys.argv[3]))
source_steps, output_steps = steps(source), steps(output)
result = {"channels": output.ch_names, "worst": {}}
for name, terms in expected.items():
    if name not in output.ch_names:
        result["worst"][name] = None
        continue
    j = output.ch_names.index(name)
    n = min(source.n_times, output.n_times)  # EDF pads the last record of the output
    want = np.zeros(n)
    tolerance = output_steps[j] / 2
    for channel, weight in terms.items():
        k = source.ch_names.index(channel)
        want += weight * source._data[k][:n]
        tolerance += abs(weight) * source_steps[k] * 1e-6
    got = output._data[j][:n]
    result["worst"][name] = float(np.max(np.abs(got - want)) / tolerance)
json.dump(result, sys.stdout)
