#!/usr/bin/python3
"""Dumps what MNE reads from an EDF/BDF file, for EdfMneTest.

usage: mne_dump.py FILE OUTDIR
Writes OUTDIR/meta.json and OUTDIR/<k>.f64 (channel k's physical values, float64 little-endian).
meta.json: meas_date_us (header start, whole seconds), first_record_offset_us (the first record's time-keeping
TAL, parsed here from the raw bytes: MNE 1.3 ignores it), channels [{name, values, source}], annotations
[{onset, duration, description}] with onsets in seconds from the first sample, as MNE gives them; subject: the
patient subfields MNE parses (id; sex, birthday as YYYY-MM-DD and name only when there are exactly four).
source "mne": MNE's own values (unit scaling undone); "header-scale": channels MNE resamples (another rate than
the fastest) or masks (BDF Status): records decoded here with numpy and scaled by the header's two points.
"""
import json, os, sys, warnings
import numpy as np
import mne

warnings.simplefilter("ignore")
mne.set_log_level("ERROR")


def header_fields(raw_bytes):
    ns = int(raw_bytes[252:256])
    def fld(k, width, base):
        return [raw_bytes[base + i * width: base + (i + 1) * width].decode("latin-1") for i in range(ns)]
    base = 256
    widths = [16, 80, 8, 8, 8, 8, 8, 80, 8, 32]
    cols = []
    for w in widths:
        cols.append(fld(0, w, base))
        base += w * ns
    return ns, cols


def first_record_offset_us(raw_bytes, bdf):
    ns, cols = header_fields(raw_bytes)
    labels = [c.strip() for c in cols[0]]
    nsamp = [int(c.strip()) for c in cols[8]]
    size = 3 if bdf else 2
    header = 256 * (ns + 1)
    off = header
    for k in range(ns):
        if labels[k] in ("EDF Annotations", "BDF Annotations"):
            tal = raw_bytes[off: off + nsamp[k] * size]
            first = tal.split(b"\x14")[0].decode()
            sec = first.lstrip("+")
            whole, _, frac = sec.partition(".")
            return int(whole) * 1000000 + int((frac + "000000")[:6])
        off += nsamp[k] * size
    return 0


def main(path, out):
    os.makedirs(out, exist_ok=True)
    data_bytes = open(path, "rb").read()
    bdf = data_bytes[0] == 0xFF
    meta = {"first_record_offset_us": first_record_offset_us(data_bytes, bdf) if data_bytes[192:196] in (b"EDF+", b"BDF+") else 0,
            "channels": [], "annotations": []}
    try:
        raw = (mne.io.read_raw_bdf if bdf else mne.io.read_raw_edf)(path, preload=True)
    except Exception as e:  # annotation-only files
        raw = None
        meta["raw_error"] = str(e)
    if raw is not None and len(raw.ch_names) == 0:
        meta["meas_date_us"] = int(raw.info["meas_date"].timestamp() * 1e6)
        annotations = mne.read_annotations(path)  # the raw's are clipped to its (empty) data range
    elif raw is not None:
        extras = raw._raw_extras[0]
        meta["subject"] = {k: (v.strftime("%Y-%m-%d") if hasattr(v, "strftime") else v)
                           for k, v in (extras.get("subject_info") or {}).items()}
        meta["meas_date_us"] = int(raw.info["meas_date"].timestamp() * 1e6) if raw.info["meas_date"] else None
        data = raw.get_data()
        units = extras["units"]
        n_samps = extras["n_samps"]
        sel = extras["sel"]
        max_samp = max(n_samps[sel])
        types = raw.get_channel_types()
        records = None
        for i, name in enumerate(raw.ch_names):
            k = sel[i]
            if n_samps[k] == max_samp and types[i] != "stim":
                values, source = data[i] / units[i], "mne"
            else:
                if records is None:
                    ns, cols = header_fields(data_bytes)
                    nsamp = [int(c.strip()) for c in cols[8]]
                    size = 3 if bdf else 2
                    rec_bytes = sum(nsamp) * size
                    header = 256 * (ns + 1)
                    nrec = extras["n_records"]
                    records = np.frombuffer(data_bytes[header: header + nrec * rec_bytes], np.uint8).reshape(nrec, rec_bytes)
                    starts = np.cumsum([0] + nsamp) * size
                b = records[:, starts[k]: starts[k + 1]].reshape(-1, size).astype(np.int64)
                counts = b[:, 0] | (b[:, 1] << 8) | ((b[:, 2] << 16) if bdf else 0)
                bits = 24 if bdf else 16
                counts = np.where(counts >= 1 << (bits - 1), counts - (1 << bits), counts)
                pmin, pmax, dmin, dmax = (float(cols[c][k]) for c in (3, 4, 5, 6))
                cal = (pmax - pmin) / (dmax - dmin)
                values = counts * cal + (pmin - dmin * cal)
                source = "header-scale"
            np.asarray(values, "<f8").tofile(os.path.join(out, f"{i}.f64"))
            meta["channels"].append({"name": name, "values": int(len(values)), "source": source})
        annotations = raw.annotations
    else:
        annotations = mne.read_annotations(path)
    for a in annotations:
        meta["annotations"].append({"onset": float(a["onset"]), "duration": float(a["duration"]),
                                    "description": a["description"]})
    json.dump(meta, open(os.path.join(out, "meta.json"), "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
