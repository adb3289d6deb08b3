"""Compares the buffers two `warpsafe run --out` directories hold.

usage: compare_buffers.py CPU_DIR GPU_DIR RUN_JSON
RUN_JSON is `run --format json` of one of the runs; it gives each buffer's element type.
Prints `same`, `close (max rel E)` (floats within a relative 1e-3) or `DIFF NAME: ...`.
"""
import json
import os
import struct
import sys

FLOATS = {"f16": "e", "f32": "f", "f64": "d"}


def elem_types(run_json):
    try:
        with open(run_json) as f:
            doc = json.load(f)
        return {o["name"]: o["elem"] for o in doc.get("outputs", [])}
    except (OSError, ValueError, KeyError):
        return {}


def compare_floats(a, b, code):
    w = struct.calcsize(code)
    xs = struct.unpack("<%d%s" % (len(a) // w, code), a[: len(a) // w * w])
    ys = struct.unpack("<%d%s" % (len(b) // w, code), b[: len(b) // w * w])
    bad, worst = 0, 0.0
    for x, y in zip(xs, ys):
        if x != x and y != y:
            continue
        d = abs(x - y)
        rel = d / max(abs(x), abs(y), 1e-30) if d > 1e-6 else 0.0
        worst = max(worst, rel)
        bad += rel > 1e-3
    return bad, len(xs), worst


def main():
    cpu, gpu, run_json = sys.argv[1:4]
    elems = elem_types(run_json)
    status = "same"
    for name in sorted(os.listdir(cpu)):
        with open(os.path.join(cpu, name), "rb") as f:
            a = f.read()
        path = os.path.join(gpu, name)
        if not os.path.exists(path):
            print("DIFF %s: missing on the GPU" % name)
            return
        with open(path, "rb") as f:
            b = f.read()
        if a == b:
            continue
        code = FLOATS.get(elems.get(name[:-4], ""))
        if code is None:
            n = sum(1 for x, y in zip(a, b) if x != y)
            print("DIFF %s: %d of %d bytes" % (name, n, len(a)))
            return
        bad, total, worst = compare_floats(a, b, code)
        if bad:
            print("DIFF %s: %d of %d elements (max rel %.3g)" % (name, bad, total, worst))
            return
        status = "close (max rel %.2g)" % worst
    print(status)


main()
