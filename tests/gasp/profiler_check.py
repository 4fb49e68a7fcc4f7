#!/usr/bin/env python3
"""tests/gasp/profiler_check.py -- runs a program under the bundled profiler
(oshrun --profile=DIR/PREFIX) and checks what it wrote.

  profiler_check.py heat  --oshrun O --np N --program HEAT --n G --steps S [--gasket-prof P]
      examples/heat: per PE, the counts and bytes of the halo exchange it
      made (from heat.cpp's decomposition), the communication matrix, the
      Chrome trace (parses, one process per PE, spans nest per thread, one
      span per put); a second run with GASKET_PROFILE_TRACE_MAX=40 (the
      trace is sampled within the cap, the statistics stay exact); the
      PNGs of gasket-prof (skipped, saying so, without matplotlib).
  profiler_check.py known --oshrun O --np N --program PROFILER_KNOWN
      tests/gasp/profiler_known.c: count/bytes/min/max/total per event,
      instants, measurement off, shmem_pcontrol(2)'s per-PE flush.
  profiler_check.py threads --oshrun O --np N --program PROFILER_THREADS
      tests/gasp/profiler_threads.c: 4 threads per PE (SHMEM_THREAD_MULTIPLE):
      exact counts per PE, one trace thread each, puts inside their spans.
  profiler_check.py gasnet --oshrun O --np N --program GASNET_COUNTER [--gasket-prof P]
      examples/gasnet-counter: one set of files per node (gasnet_exit),
      AM requests+replies = handler runs, gasket-prof merging them.
  profiler_check.py inst-only --oshrun O --np N --program PROFILER_KNOWN --inst-only FILE
      GASKET_INST_ONLY=FILE (GASP_SHMEM_PUT only): nothing else measured
      but the user events.

Every PE's data is checked; exit status 1 with the reasons on failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(args, prefix, env_extra=None, table=True):
    env = dict(os.environ)
    env.update(env_extra or {})
    cmd = [args.oshrun, f"--profile={prefix}", "-np", str(args.np), args.program] + args.program_args
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=240)
    print(proc.stdout)
    if proc.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit status {proc.returncode}")
    if table:
        check("gasket-profile: top operations by time" in proc.stdout, "PE 0 printed no summary table")
    return proc.stdout


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def events_of(pe_entry):
    return {e["name"]: e for e in pe_entry["events"]}


def check_nesting(trace, n_pes):
    """Spans ('X') nest on each (pid, tid): a span that starts inside
    another ends inside it too.  n_pes None: one PE's file."""
    pids = {e["pid"] for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    if n_pes is not None:
        check(pids == set(range(n_pes)), f"trace: processes {sorted(pids)}, expected PEs 0..{n_pes - 1}")
    tracks = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    eps = 0.002  # us: the ns -> us conversion of ts and dur
    for track, spans in tracks.items():
        spans.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name in spans:
            while stack and stack[-1][1] <= start + eps:
                stack.pop()
            if stack:
                check(end <= stack[-1][1] + eps,
                      f"trace {track}: {name} [{start}, {end}] overlaps {stack[-1][2]} [{stack[-1][0]}, {stack[-1][1]}]")
            stack.append((start, end, name))
    return tracks


def heat_expectations(n, steps, npes):
    """Per PE, what heat.cpp does: halo puts of `width` doubles to each
    neighbour every step, then two puts of its rows' results to PE 0."""
    base, extra = divmod(n, npes)
    rows = [base + (1 if pe < extra else 0) for pe in range(npes)]
    width = n + 2
    puts, put_bytes = [], []
    matrix = [[0] * npes for _ in range(npes)]
    ops = [[0] * npes for _ in range(npes)]
    for pe in range(npes):
        neighbours = [p for p in (pe - 1, pe + 1) if 0 <= p < npes]
        puts.append(steps * len(neighbours) + 2)
        put_bytes.append(steps * len(neighbours) * width * 8 + 2 * rows[pe] * 8)
        for p in neighbours:
            matrix[pe][p] += steps * width * 8
            ops[pe][p] += steps
        matrix[pe][0] += 2 * rows[pe] * 8
        ops[pe][0] += 2
    return puts, put_bytes, matrix, ops


def check_heat(args, workdir):
    n, steps = args.n, args.steps
    args.program_args = ["--n", str(n), "--steps", str(steps)]
    prefix = os.path.join(workdir, "heat")
    run(args, prefix)
    summary = load(prefix + ".summary.json")
    trace = load(prefix + ".trace.json")
    npes = args.np
    puts, put_bytes, matrix, ops = heat_expectations(n, steps, npes)
    check(summary["n_pes"] == npes and len(summary["pes"]) == npes, "summary: wrong number of PEs")
    for entry in summary["pes"]:
        pe = entry["pe"]
        ev = events_of(entry)
        for name, count, nbytes in (("shmem_put", puts[pe], put_bytes[pe]), ("shmem_barrier_all", steps + 1, 0),
                                    ("shmem_malloc", 4, None), ("shmem_free", 4, 0)):
            got = ev.get(name, {}).get("count")
            check(got == count, f"PE {pe}: {name} count {got}, expected {count}")
            if nbytes is not None:
                check(ev.get(name, {}).get("bytes") == nbytes,
                      f"PE {pe}: {name} bytes {ev.get(name, {}).get('bytes')}, expected {nbytes}")
        check(not {"shmem_get", "shmem_amo"} & set(ev), f"PE {pe}: events heat does not make: {sorted(ev)}")
        check(entry["trace"]["stride"] == 1, f"PE {pe}: trace sampled (stride {entry['trace']['stride']})")
    check(summary["matrix"]["bytes"] == matrix, f"matrix bytes {summary['matrix']['bytes']}, expected {matrix}")
    check(summary["matrix"]["ops"] == ops, f"matrix ops {summary['matrix']['ops']}, expected {ops}")
    top = summary["operations"]
    check(all(top[i]["total_ns"] >= top[i + 1]["total_ns"] for i in range(len(top) - 1)), "operations not by time")
    check_nesting(trace, npes)
    for pe in range(npes):
        spans = sum(1 for e in trace["traceEvents"] if e["ph"] == "X" and e["pid"] == pe and e["name"] == "shmem_put")
        check(spans == puts[pe], f"trace PE {pe}: {spans} shmem_put spans, expected {puts[pe]}")

    # Sampling: the trace stays within the cap, the statistics do not change.
    sampled = os.path.join(workdir, "heat-sampled")
    run(args, sampled, {"GASKET_PROFILE_TRACE_MAX": "40"})
    s2 = load(sampled + ".summary.json")
    t2 = load(sampled + ".trace.json")
    for entry in s2["pes"]:
        pe = entry["pe"]
        check(events_of(entry)["shmem_put"]["count"] == puts[pe], f"sampled run, PE {pe}: put count changed")
        kept = sum(1 for e in t2["traceEvents"] if e["pid"] == pe and e["ph"] in ("X", "i"))
        check(kept <= 40, f"sampled run, PE {pe}: {kept} trace events kept, cap 40")
        check(entry["trace"]["stride"] > 1 and kept >= 10,
              f"sampled run, PE {pe}: stride {entry['trace']['stride']}, {kept} kept: not an even sample")
    check_nesting(t2, npes)

    if args.gasket_prof:
        proc = subprocess.run([args.gasket_prof, prefix + ".summary.json"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        print(proc.stdout)
        if proc.returncode == 3 and "matplotlib is missing" in proc.stdout:
            print("SKIP: the PNG part (matplotlib is missing)")
        else:
            check(proc.returncode == 0, f"gasket-prof: exit status {proc.returncode}")
            for png in (prefix + ".matrix.png", prefix + ".time.png"):
                with open(png, "rb") as f:
                    check(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{png}: not a PNG")


def check_known(args, workdir):
    args.program_args = []
    prefix = os.path.join(workdir, "known")
    out = run(args, prefix)
    npes = args.np
    check(out.count(": ok") == npes, "the program did not print ok on every PE")
    summary = load(prefix + ".summary.json")
    trace = load(prefix + ".trace.json")
    ms = 1000000
    matrix = [[0] * npes for _ in range(npes)]
    for entry in summary["pes"]:
        pe = entry["pe"]
        ev = events_of(entry)
        want = {"shmem_put": (5, 500), "shmem_get": (3, 192), "shmem_amo": (7, 56), "shmem_barrier_all": (2, 0),
                "nap": (3, 0), "outer": (1, 0)}
        for name, (count, nbytes) in want.items():
            got = ev.get(name, {})
            check(got.get("count") == count and got.get("bytes") == nbytes,
                  f"PE {pe}: {name} count/bytes {got.get('count')}/{got.get('bytes')}, expected {count}/{nbytes}")
        for name, e in ev.items():
            check(e["min_ns"] <= e["max_ns"] <= e["total_ns"], f"PE {pe}: {name}: min/max/total {e}")
        nap = ev["nap"]
        # Lower bounds only (a loaded machine oversleeps); the exact values
        # are checked against the trace's spans below.
        check(2 * ms <= nap["min_ns"], f"PE {pe}: nap min {nap['min_ns']} ns, expected >= 2 ms")
        check(10 * ms <= nap["max_ns"], f"PE {pe}: nap max {nap['max_ns']} ns, expected >= 10 ms")
        check(17 * ms <= nap["total_ns"] and nap["total_ns"] >= nap["min_ns"] + nap["max_ns"] + 2 * ms,
              f"PE {pe}: nap total {nap['total_ns']} ns, expected >= 17 ms and more than min + max")
        # count/min/max/total = those of the PE's spans in the (unsampled) trace, to the ns.
        for name in ("nap", "outer", "shmem_put", "shmem_get", "shmem_barrier_all"):
            durs = [round(e["dur"] * 1000) for e in trace["traceEvents"]
                    if e["ph"] == "X" and e["pid"] == pe and e["name"] == name]
            e = ev[name]
            check(len(durs) == e["count"] and min(durs) == e["min_ns"] and max(durs) == e["max_ns"]
                  and abs(sum(durs) - e["total_ns"]) <= len(durs),
                  f"PE {pe}: {name}: summary {e}, trace spans (ns) {durs}")
        check(ev["outer"]["total_ns"] >= nap["total_ns"], f"PE {pe}: outer shorter than the naps inside it")
        check(ev["shmem_amo"]["total_ns"] == 0, f"PE {pe}: instants (non-fetching AMO) have time")
        matrix[pe][(pe + 1) % npes] += 500
        matrix[pe][(pe + npes - 1) % npes] += 192
        matrix[pe][0] += 56
        # shmem_pcontrol(2): this PE's data up to then.
        flushed = load(f"{prefix}.pe{pe}.summary.json")
        check(flushed["scope"].startswith("pe"), f"PE {pe}: flush file scope {flushed['scope']}")
        fev = events_of(flushed["pes"][0])
        for name, count in {"shmem_put": 5, "shmem_amo": 7, "shmem_barrier_all": 1, "nap": 3}.items():
            check(fev.get(name, {}).get("count") == count,
                  f"PE {pe}: flushed {name} count {fev.get(name, {}).get('count')}, expected {count}")
        check("shmem_get" not in fev, f"PE {pe}: the flush holds gets made after it")
        ftrace = load(f"{prefix}.pe{pe}.trace.json")
        check(any(e["ph"] == "B" and e["name"] == "outer" for e in ftrace["traceEvents"]),
              f"PE {pe}: the flushed trace lacks the open 'outer' span")
    check(summary["matrix"]["bytes"] == matrix, f"matrix {summary['matrix']['bytes']}, expected {matrix}")
    check_nesting(trace, npes)


def check_inst_only(args, workdir):
    args.program_args = []
    prefix = os.path.join(workdir, "only")
    run(args, prefix, {"GASKET_INST_ONLY": args.inst_only} if args.inst_only else None)
    summary = load(prefix + ".summary.json")
    for entry in summary["pes"]:
        names = set(events_of(entry))
        check(names == {"shmem_put", "nap", "outer"},
              f"PE {entry['pe']}: events {sorted(names)}, expected shmem_put and the user events only")
        check(events_of(entry)["shmem_put"]["count"] == 5, f"PE {entry['pe']}: put count")


def check_threads(args, workdir):
    args.program_args = []
    prefix = os.path.join(workdir, "threads")
    out = run(args, prefix)
    npes = args.np
    check(out.count(": ok") == npes, "the program did not print ok on every PE")
    summary = load(prefix + ".summary.json")
    trace = load(prefix + ".trace.json")
    for entry in summary["pes"]:
        pe = entry["pe"]
        ev = events_of(entry)
        for name, count, nbytes in (("work", 200, 0), ("shmem_put", 200, 3200), ("shmem_amo", 200, 1600)):
            got = ev.get(name, {})
            check(got.get("count") == count and got.get("bytes") == nbytes,
                  f"PE {pe}: {name} count/bytes {got.get('count')}/{got.get('bytes')}, expected {count}/{nbytes}")
        check(entry["threads"] >= 4, f"PE {pe}: {entry['threads']} threads seen, expected the 4 workers")
        tids = {e["tid"] for e in trace["traceEvents"] if e.get("pid") == pe and e["name"] == "work"}
        check(len(tids) == 4, f"PE {pe}: 'work' spans on {len(tids)} trace threads, expected 4")
    tracks = check_nesting(trace, npes)
    # Every put is inside a "work" span of its own thread.
    for (pid, tid), spans in tracks.items():
        works = [s for s in spans if s[2] == "work"]
        for start, end, name in spans:
            if name == "shmem_put":
                check(any(w[0] <= start and end <= w[1] + 0.002 for w in works),
                      f"trace ({pid}, {tid}): a put outside its thread's work span")


def check_gasnet(args, workdir):
    """gasnet_exit is not collective: each node writes its own files; every
    AM request and reply sent is a handler run somewhere; every node sent
    its `increments` requests to node 0; gasket-prof merges the files."""
    increments = 200
    args.program_args = [str(increments)]
    prefix = os.path.join(workdir, "gasnet")
    run(args, prefix, table=False)
    npes = args.np
    summaries = [load(f"{prefix}.pe{pe}.summary.json") for pe in range(npes)]
    sent = handled = 0
    for pe, s in enumerate(summaries):
        check(s["scope"] == "pe (gasnet_exit)" and [p["pe"] for p in s["pes"]] == [pe], f"node {pe}: scope {s['scope']}")
        ev = events_of(s["pes"][0])
        sent += ev.get("gasnet_am_request", {}).get("count", 0) + ev.get("gasnet_am_reply", {}).get("count", 0)
        handled += ev.get("gasnet_am_handler", {}).get("count", 0)
        check(s["matrix"]["ops"][pe][0] >= increments,
              f"node {pe}: {s['matrix']['ops'][pe][0]} AMs to node 0, expected at least {increments}")
        check(s["matrix"]["bytes"][pe][(pe + 1) % npes] > 0, f"node {pe}: no Long payload to its right neighbour")
        check_nesting(load(f"{prefix}.pe{pe}.trace.json"), None)
    check(sent == handled and sent > 0, f"AM requests+replies sent {sent}, handler runs {handled}")
    if args.gasket_prof:
        proc = subprocess.run([args.gasket_prof] + [f"{prefix}.pe{pe}.summary.json" for pe in range(npes)] +
                              ["--out", prefix + "-merged"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(proc.stdout)
        if proc.returncode == 3 and "matplotlib is missing" in proc.stdout:
            print("SKIP: the PNG part (matplotlib is missing)")
        else:
            check(proc.returncode == 0 and os.path.getsize(prefix + "-merged.matrix.png") > 0, "gasket-prof merge")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["heat", "known", "inst-only", "threads", "gasnet"])
    parser.add_argument("--oshrun", required=True)
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--gasket-prof")
    parser.add_argument("--inst-only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gasket-profile-") as workdir:
        {"heat": check_heat, "known": check_known, "inst-only": check_inst_only, "threads": check_threads, "gasnet": check_gasnet}[args.mode](args, workdir)
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    print(f"PASS: {args.mode}, {args.np} PEs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
