#!/usr/bin/env python3
"""link-energy-sampled.py - SimGrid's link_energy accounting redone on mapsim's flows.

SimGrid 3.32's link_energy plugin (src/plugins/link_energy.cpp) updates a
link's energy only when a communication crossing that link starts or
completes (CommImpl::on_start, CommImpl::on_completion):

    total += (P_idle + (P_busy - P_idle) x usage / bandwidth) x (now - last)

usage being the link's constraint usage at that instant: the rates of its
flows from the last max-min solve, a completing flow's still among them
(lmm::Constraint::get_usage). The load at an update is thus taken for the
whole interval back to the previous update, also when the rates changed
in between because flows elsewhere started or ended. The exact energy is
the integral, P_idle x T + (P_busy - P_idle) x bytes / bandwidth: mapsim's
energy_j.

From one run of mapsim,
  JSON      `mapsim simulate --json` (makespan, energy_j, per used link its
            id and ends),
  TIMELINE  `... --timeline FILE --timeline-links all` (every used link's
            throughput, piecewise constant, to the picosecond),
  EVENTS    `... --link-events FILE` (when each message entered and left
            each link of its route: the plugin's update instants),
and the exported platform.xml (per link its bandwidth and wattage_range),
it computes the energy of mapsim's flows twice: integrated exactly, and as
the plugin accounts it (the load just before each update instant, events
of one picosecond counted once). With SimGrid's output LOG (its "Total
energy over all links" and per-link joules) it prints one line:

  simgrid_j mapsim_j exact_j sampled_j worst_link worst_sg_minus_sampled_j

worst_link: the link whose joules in SimGrid's log and sampled here differ
the most. Nothing of SimGrid's run but its printed joules is read.
"""
import bisect
import csv
import json
import re
import sys
import xml.etree.ElementTree as ET


def links_of_platform(path):
    """{link name: (bandwidth B/s, P_idle W, P_busy W)}"""
    out = {}
    for ln in ET.parse(path).getroot().iter("link"):
        bw = float(ln.get("bandwidth").removesuffix("Bps"))
        idle = busy = 0.0
        for prop in ln.iter("prop"):
            if prop.get("id") == "wattage_range":
                idle, busy = (float(v) for v in prop.get("value").split(":"))
        out[ln.get("id")] = (bw, idle, busy)
    return out


def throughputs(timeline, run):
    """{link name: ([step times ps], [bytes/s from that step on])}"""
    ends = {}
    for ln in run["links"]:
        key = (ln["from"], ln["to"])
        if key in ends:
            sys.exit(f"link-energy-sampled: two links {key[0]} -> {key[1]}: tracks are ambiguous")
        ends[key] = "l%d" % ln["link"]
    events = json.load(open(timeline))
    events = events["traceEvents"] if isinstance(events, dict) else events
    out = {}
    for e in events:
        if e.get("ph") != "C" or e.get("pid") != 1:
            continue
        m = re.match(r"(\S+) -> (\S+) \(", e["name"])
        name = ends[(int(m.group(1)), int(m.group(2)))]
        times, rates = out.setdefault(name, ([], []))
        times.append(round(e["ts"] * 1e6))  # microseconds to the picosecond
        rates.append(e["args"]["bytes/s"])
    return out


def load_before(steps, t):
    times, rates = steps
    i = bisect.bisect_left(times, t) - 1
    return rates[i] if i >= 0 else 0.0


def exact_bytes(steps, end):
    times, rates = steps
    edges = times + [end]
    return sum(rates[i] * (edges[i + 1] - edges[i]) * 1e-12 for i in range(len(times)))


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: link-energy-sampled.py LOG JSON TIMELINE EVENTS PLATFORM_XML")
    log_path, json_path, timeline, events, xml = sys.argv[1:]
    run = json.load(open(json_path))
    links = links_of_platform(xml)
    steps = throughputs(timeline, run)
    updates = {}
    for row in csv.DictReader(open(events)):
        updates.setdefault("l" + row["link"], set()).add(int(row["time_ps"]))
    log = open(log_path).read()
    per_link_sg = {m.group(1): float(m.group(2))
                   for m in re.finditer(r"Energy consumption of link '([^']+)': ([0-9.]+) Joules", log)}
    total_sg = re.search(r"Total energy over all links: ([0-9.]+)", log)
    if not total_sg or not per_link_sg:
        sys.exit(f"link-energy-sampled: no link energy in {log_path}")
    end = round(run["makespan_s"] * 1e12)
    exact = sampled = 0.0
    worst, worst_d = "-", 0.0
    for name, (bw, idle, busy) in links.items():
        s = steps.get(name, ([], []))
        exact += idle * end * 1e-12 + (busy - idle) * exact_bytes(s, end) / bw
        last, e = 0, 0.0
        for t in sorted(updates.get(name, set()) | {end}):
            e += (idle + (busy - idle) * load_before(s, t) / bw) * (t - last) * 1e-12
            last = t
        sampled += e
        d = per_link_sg.get(name, 0.0) - e
        if abs(d) > abs(worst_d):
            worst, worst_d = name, d
    print(f"{float(total_sg.group(1)):.9g} {run['energy_j']:.9g} {exact:.9g} {sampled:.9g} "
          f"{worst} {worst_d:.3g}")


main()
