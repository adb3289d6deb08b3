#!/usr/bin/env python3
"""The PTX road against the source road on compiled kernels: for each FILE.ptx given (a sibling
FILE.cu beside it supplies the launch contract, the source names and the expected verdicts of
its `// verify:` line), `warpsafe verify FILE.ptx` with the `.cu`'s `// verify-args:`, and the
verdicts compared with the expected ones.

usage: scripts/ptx_road_agree.py FILE.ptx... [--timeout S] [--jobs N]
       (W=path/to/warpsafe overrides the binary; default target/release/warpsafe)
Prints one line per file (OK, or what differs and the first error line) and a count.
"""
import concurrent.futures as cf, json, os, re, subprocess, sys, time

W = os.environ.get(
    "W", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "warpsafe"))
ORDER = ["verified", "unknown", "possible", "violated"]


def expectations(cu):
    text = open(cu, encoding="latin-1").read()
    want, args = {}, []
    for m in re.finditer(r"^// verify: (.*)$", text, re.M):
        for kv in m.group(1).split():
            if "=" in kv:
                k, v = kv.split("=", 1)
                want[k] = v
    for m in re.finditer(r"^// verify-args: (.*)$", text, re.M):
        args += m.group(1).split()
    return want, args


def one(ptx, timeout):
    want, args = expectations(ptx[:-4] + ".cu")
    t0 = time.time()
    try:
        o = subprocess.run([W, "verify", ptx, "--format", "json"] + args,
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ptx, "timeout", timeout, ["timeout"], ""
    got = {}
    try:
        for k in json.loads(o.stdout).get("kernels", []):
            for r in k.get("results", []):
                v = r["verdict"] if isinstance(r["verdict"], str) else next(iter(r["verdict"]))
                p = r["property"]
                if p not in got or ORDER.index(v) > ORDER.index(got[p]):
                    got[p] = v
    except (ValueError, KeyError, StopIteration):
        pass
    bad = [f"{p}: {w} -> {got.get(p)}" for p, w in want.items()
           if p != "exit" and not w.startswith("!") and got.get(p) != w]
    bad += [f"{p}: {w} -> {got.get(p)}" for p, w in want.items()
            if w.startswith("!") and got.get(p) == w[1:]]
    if "exit" in want and str(o.returncode) != want["exit"]:
        bad.append(f"exit: {want['exit']} -> {o.returncode}")
    err = o.stderr.decode(errors="replace").strip().splitlines()
    return ptx, o.returncode, round(time.time() - t0, 1), bad, err[-1][:200] if err else ""


def main():
    argv, timeout, jobs = sys.argv[1:], 120, 2
    if "--timeout" in argv:
        i = argv.index("--timeout"); timeout = float(argv[i + 1]); del argv[i:i + 2]
    if "--jobs" in argv:
        i = argv.index("--jobs"); jobs = int(argv[i + 1]); del argv[i:i + 2]
    with cf.ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda f: one(f, timeout), sorted(argv)))
    ok = 0
    for f, rc, secs, bad, err in results:
        ok += not bad
        print(f"{f} rc={rc} {secs}s " + ("OK" if not bad else "DIFFERS " + "; ".join(bad) + (f" ({err})" if rc == 2 else "")), flush=True)
    print(f"{ok} of {len(results)} agree with the source road's expected verdicts")


if __name__ == "__main__":
    main()
