#!/usr/bin/env python3
"""Agreement with GPUVerify on a corpus written in its test-suite form: `warpsafe verify` on
every .cu file under DIR, compared with the expectation on the file's first line.

usage: scripts/agree.py DIR [--jobs N] [--out FILE.json] [--timeout S] [--only SUBSTR]
       (W=path/to/warpsafe overrides the binary; default target/release/warpsafe)

Each .cu file: line 1 `//pass` or `//xfail:KIND`, line 2 `//--blockDim=.. --gridDim=..` (read by
warpsafe itself; `--warp-sync` becomes `--lockstep-warps`). Only races, barrier divergence and
assertions are compared (GPUVerify checks no bounds). Classes:
  rejected   exit 2 (first error line kept)
  agree      pass & no race/divergence/assert violated & all three verified;
             xfail & some race/divergence/assert violated or possible, or a bounds
             violation of a kind GPUVerify checks too (a null pointer dereferenced, constant
             memory written)
  unknown    pass: nothing violated but some unknown/possible; xfail: nothing violated
  WRONG      pass & something violated (false alarm), or xfail & all verified (missed bug)
  skip       xfail other than BOOGIE_ERROR / NOT_ALL_VERIFIED (GPUVerify itself refuses these)
A WRONG is not always ours: GPUVerify's expectation can be wrong (read the counterexample).
"""
import json, os, subprocess, sys, time, concurrent.futures as cf

W = os.environ.get(
    "W", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "warpsafe"))


def expectation(path):
    with open(path, "rb") as f:
        head = f.read(400).decode("latin-1").splitlines()
    first = head[0].strip() if head else ""
    flags = head[1].strip() if len(head) > 1 else ""
    # GPUVerify's runner reads the expectation case-insensitively (`//PASS` occurs).
    if first.lower().startswith("//pass"):
        return "pass", flags
    if first.lower().startswith("//xfail:"):
        return first[len("//xfail:"):].strip(), flags
    return "none", flags


def GPUVERIFY_CHECKS(reason):
    """True for a bounds finding of a kind GPUVerify reports too."""
    return "null pointer dereference" in reason or "write to read-only memory" in reason


def run(path, timeout):
    exp, flags = expectation(path)
    if exp not in ("pass", "BOOGIE_ERROR", "NOT_ALL_VERIFIED", "none"):
        return dict(file=path, exp=exp, cls="skip", why="")
    # GPUVerify checks no array bounds, but it does report null pointer accesses and writes to
    # constant memory: for an expected failure, our bounds findings of those kinds count.
    props = "race,divergence,assert" if exp == "pass" else "race,divergence,assert,bounds"
    args = [W, "verify", path, "--property", props, "--format", "json",
            "--timeout", str(timeout)]
    if "--warp-sync" in flags:
        args.append("--lockstep-warps")
    d = os.path.dirname(path)
    args += ["-I", d]
    t0 = time.time()
    try:
        p = subprocess.run(args, capture_output=True, timeout=timeout + 60)
        rc, out, err = p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return dict(file=path, exp=exp, cls="unknown", why="harness timeout", secs=timeout + 60)
    secs = round(time.time() - t0, 1)
    if rc == 2 or not out.strip():
        line = next((l for l in err.splitlines() if l.strip()), "")
        return dict(file=path, exp=exp, cls="rejected", why=line[:300], secs=secs, rc=rc)
    try:
        doc = json.loads(out)
    except Exception:
        return dict(file=path, exp=exp, cls="rejected", why="bad json: " + out[:200], secs=secs)
    verdicts = []
    def walk(o):
        if isinstance(o, dict):
            if "property" in o and "verdict" in o:
                v = o["verdict"]
                if isinstance(v, dict):
                    k = next(iter(v))
                    inner = v[k]
                    r = (inner.get("reason") or inner.get("message", "")) if isinstance(inner, dict) else str(inner)
                    verdicts.append((o["property"], k, r))
                else:
                    verdicts.append((o["property"], v, ""))
                return
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(doc)
    verdicts = [v for v in verdicts if v[0] != "bounds" or v[1] == "violated" and GPUVERIFY_CHECKS(v[2])]
    violated = [v for v in verdicts if v[1] == "violated"]
    unsure = [v for v in verdicts if v[1] not in ("verified", "violated")]
    summary = ";".join(f"{p}={v}" for p, v, _ in verdicts)
    if exp == "pass":
        if violated:
            cls = "WRONG"
        elif unsure:
            cls = "unknown"
        else:
            cls = "agree"
    else:
        if violated or any(v[1] == "possible" for v in unsure):
            # A `possible` finding flags the bug too (GPUVerify's own errors are not replayed).
            cls = "agree"
        elif unsure:
            cls = "unknown"
        else:
            cls = "WRONG"
    why = "; ".join(f"{p}: {r}"[:200] for p, v, r in (violated or unsure))
    return dict(file=path, exp=exp, cls=cls, verdicts=summary, why=why, secs=secs, rc=rc)


def main():
    a = sys.argv[1:]
    root = a[0]
    jobs = int(a[a.index("--jobs") + 1]) if "--jobs" in a else 2
    outp = a[a.index("--out") + 1] if "--out" in a else None
    timeout = int(a[a.index("--timeout") + 1]) if "--timeout" in a else 60
    only = a[a.index("--only") + 1] if "--only" in a else ""
    files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs
                   if f.endswith(".cu") and only in os.path.join(dp, f))
    res = []
    with cf.ThreadPoolExecutor(jobs) as ex:
        for r in ex.map(lambda f: run(f, timeout), files):
            res.append(r)
            print(f"{r['cls']:8} {r.get('secs', 0):6} {os.path.relpath(r['file'], root)}  {r.get('verdicts', '')}  {r.get('why', '')[:160]}", flush=True)
    if outp:
        with open(outp, "w") as f:
            json.dump(res, f, indent=1)
    from collections import Counter
    c = Counter(r["cls"] for r in res)
    n = len(res) - c["skip"]
    acc = n - c["rejected"]
    print(f"\nfiles {len(res)} skip {c['skip']} considered {n} accepted {acc} ({100*acc/max(n,1):.0f}%) "
          f"agree {c['agree']} ({100*c['agree']/max(acc,1):.0f}% of accepted) unknown {c['unknown']} WRONG {c['WRONG']}")


if __name__ == "__main__":
    main()
