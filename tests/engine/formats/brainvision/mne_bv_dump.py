#!/usr/bin/python3
"""Dumps what MNE reads from a BrainVision header, for the BrainVision tests.

usage: mne_bv_dump.py FILE.vhdr OUTDIR
Writes OUTDIR/meta.json and OUTDIR/<k>.f64 (channel k's values in the unit its header gives, float64 little-endian,
NaN kept). meta.json: sfreq, meas_date_us (null when MNE has none), channels [{name, unit}], annotations
[{onset, duration, description}] as MNE gives them (onset in seconds from the first data point, duration in seconds,
description "Type/Description"; "New Segment/" entries included).
"""
import json, os, sys, warnings
import numpy as np
import mne

warnings.simplefilter("ignore")
mne.set_log_level("ERROR")

# MNE keeps volts (EEG/EOG) or the SI unit; undo its scaling back to the header's unit.
SCALE = {"µV": 1e6, "μV": 1e6, "uV": 1e6, "mV": 1e3, "nV": 1e9, "V": 1.0}


def main(path, out):
    os.makedirs(out, exist_ok=True)
    raw = mne.io.read_raw_brainvision(path, preload=True)
    units = raw._orig_units
    data = raw.get_data()
    meta = {"sfreq": raw.info["sfreq"], "channels": [], "annotations": []}
    d = raw.info["meas_date"]
    meta["meas_date_us"] = None if d is None else int(round(d.timestamp() * 1e6))
    for k, name in enumerate(raw.ch_names):
        unit = units.get(name, "")
        (data[k] * SCALE.get(unit, 1.0)).astype("<f8").tofile(os.path.join(out, f"{k}.f64"))
        meta["channels"].append({"name": name, "unit": unit})
    for a in raw.annotations:
        meta["annotations"].append({"onset": float(a["onset"]), "duration": float(a["duration"]),
                                    "description": a["description"]})
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
