#!/usr/bin/python3
"""Writes BrainVision reference file sets for BvReaderTest, with numpy only (no code shared with Longview's reader).

usage: make_reference.py OUTDIR
Each case NAME is OUTDIR/NAME/NAME.vhdr (+ .vmrk, .eeg) and OUTDIR/NAME/truth.json: the values written per
channel (physical, in the file's unit; null where NaN was written), every marker as written, the segments' first
data points and dates. The cases cover what the format allows: multiplexed and vectorized data, INT_16, INT_32 and
IEEE_FLOAT_32, UTF-8 and Latin-1 code pages, escaped commas, fractional sampling intervals, segments with dates
(a gap between them), channel markers, markers that last, version 1.0 and 2.0 headers, a data file named by its
absolute path and one in a sub-folder.
"""
import json, os, sys
import numpy as np


def header(case, names, units, resolutions, fmt, orientation, interval, codepage, data_name, marker_name, version,
           comment):
    ident = ("BrainVision Data Exchange Header File Version 2.0" if version == 2
             else "Brain Vision Data Exchange Header File Version 1.0")
    lines = [ident, "; Data created by make_reference.py", "", "[Common Infos]", f"Codepage={codepage}",
             f"DataFile={data_name}", f"MarkerFile={marker_name}", "DataFormat=BINARY",
             "; Data orientation: MULTIPLEXED=ch1,pt1, ch2,pt1 ...",
             f"DataOrientation={orientation}", f"NumberOfChannels={len(names)}",
             "; Sampling interval in microseconds", f"SamplingInterval={interval}", "", "[Binary Infos]",
             f"BinaryFormat={fmt}", "", "[Channel Infos]",
             "; Each entry: Ch<Channel number>=<Name>,<Reference channel name>,",
             "; <Resolution in \"Unit\">,<Unit>, Future extensions..."]
    for k, (n, u, r) in enumerate(zip(names, units, resolutions)):
        lines.append(f"Ch{k + 1}={n.replace(',', chr(92) + '1')},,{r},{u}")
    lines += ["", "[Coordinates]"] + [f"Ch{k + 1}=1,{k * 10},{-k * 5}" for k in range(len(names))]
    lines += ["", "[Comment]", comment, ""]
    return "\r\n".join(lines)


def markers(data_name, codepage, marks):
    lines = ["Brain Vision Data Exchange Marker File, Version 1.0", "", "[Common Infos]", f"Codepage={codepage}",
             f"DataFile={data_name}", "", "[Marker Infos]",
             "; Each entry: Mk<Marker number>=<Type>,<Description>,<Position in data points>,",
             "; <Size in data points>, <Channel number (0 = marker is related to all channels)>"]
    for k, m in enumerate(marks):
        fields = [m["type"].replace(",", "\\1"), m["description"].replace(",", "\\1"), str(m["position"]),
                  str(m["size"]), str(m["channel"])]
        if m.get("date"):
            fields.append(m["date"])
        lines.append(f"Mk{k + 1}=" + ",".join(fields))
    return "\r\n".join(lines) + "\r\n"


def write_case(out, name, *, names, units, resolutions, fmt, orientation, interval, codepage, points, marks,
               nan_runs=(), version=1, data_name=None, comment="recorded by make_reference.py"):
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(len(name) * 7919 + points)
    nch = len(names)
    dtype = {"INT_16": "<i2", "INT_32": "<i4", "IEEE_FLOAT_32": "<f4"}[fmt]
    if fmt == "IEEE_FLOAT_32":
        stored = (rng.standard_normal((nch, points)) * 40.0).astype("<f4")
        for ch, first, count in nan_runs:
            stored[ch, first:first + count] = np.nan
    else:
        lim = 32767 if fmt == "INT_16" else 2_000_000_000
        stored = rng.integers(-lim, lim, size=(nch, points), endpoint=True).astype(dtype)
        stored[:, 0] = -lim  # the extremes on purpose
        stored[:, 1] = lim
    data_name = data_name or f"{name}.eeg"
    data_path = data_name if os.path.isabs(data_name) else os.path.join(folder, data_name)
    os.makedirs(os.path.dirname(data_path), exist_ok=True)
    (stored.T if orientation == "MULTIPLEXED" else stored).astype(dtype).tofile(data_path)
    enc = "utf-8" if codepage == "UTF-8" else "latin-1"
    with open(os.path.join(folder, f"{name}.vhdr"), "wb") as f:
        f.write(header(name, names, units, resolutions, fmt, orientation, interval, codepage, data_name,
                       f"{name}.vmrk", version, comment).encode(enc))
    with open(os.path.join(folder, f"{name}.vmrk"), "wb") as f:
        f.write(markers(data_name, codepage, marks).encode(enc))
    physical = stored.astype("f8") * np.array(resolutions, dtype="f8")[:, None]
    truth = {"channels": [{"name": n, "unit": u, "values": [None if np.isnan(v) else float(v) for v in row]}
                          for n, u, row in zip(names, units, physical)],
             "markers": marks, "interval_us": interval}
    with open(os.path.join(folder, "truth.json"), "w") as f:
        json.dump(truth, f)


def main(out):
    seg = lambda pos, date: {"type": "New Segment", "description": "", "position": pos, "size": 1, "channel": 0,
                             "date": date}
    mark = lambda t, d, pos, size=1, ch=0: {"type": t, "description": d, "position": pos, "size": size, "channel": ch}
    write_case(out, "mux_int16", names=["Fp1", "Fp2", "Cz", "EOG,left"], units=["µV", "µV", "µV", "mV"],
               resolutions=[0.1, 0.1, 0.5, 0.001], fmt="INT_16", orientation="MULTIPLEXED", interval=2000,
               codepage="UTF-8", points=3000,
               marks=[seg(1, "20240305101530123456"), mark("Stimulus", "S  1", 101), mark("Response", "R  2", 1500, 250),
                      mark("Comment", "eyes, closed", 2200, 1, 3)])
    write_case(out, "vec_int32_latin1", names=["Fpß", "O2", "T7"], units=["µV", "µV", "nV"],
               resolutions=[0.0001, 1, 2.5], fmt="INT_32", orientation="VECTORIZED", interval=1000, codepage="ANSI",
               points=2500, marks=[seg(1, "20230101000000000000"), mark("Stimulus", "S 15", 7), mark("Stimulus", "S 99", 2500)],
               comment="Impedance [kOhm] at 10:00:00 :\r\nFpß: 5\r\nO2: 7")
    write_case(out, "float_segments", names=["C3", "C4"], units=["µV", "µV"], resolutions=[1, 1],
               fmt="IEEE_FLOAT_32", orientation="MULTIPLEXED", interval=1953.125, codepage="UTF-8", points=4096,
               marks=[seg(1, "20220615083000000000"), mark("Stimulus", "S  3", 1000),
                      seg(2049, "20220615083014000000"), mark("Stimulus", "S  4", 3000)],
               nan_runs=[(1, 100, 50), (0, 2040, 20)], data_name="raw/float_segments.eeg")
    write_case(out, "vec_float_v2", names=["A1", "A2", "A3", "A4", "A5"], units=["µV"] * 5, resolutions=[0.5] * 5,
               fmt="IEEE_FLOAT_32", orientation="VECTORIZED", interval=4000, codepage="UTF-8", points=777,
               marks=[seg(1, "20210101120000500000"), mark("Stimulus", "S  9", 777, 1, 5)], version=2,
               data_name=os.path.join(os.path.abspath(out), "vec_float_v2", "elsewhere.eeg"))


if __name__ == "__main__":
    main(sys.argv[1])
