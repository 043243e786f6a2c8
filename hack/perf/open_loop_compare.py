#!/usr/bin/env python3
"""Compares how exactly the runner, the Python peer and aiperf keep an open-loop Poisson schedule.

Reads the directory open-loop-rate.sh fills (machine.json and per client <client>.json, <client>.jsonl,
<client>.simulator-cpu, <client>.load), prints a table and the targets as PASS/MISS with figures, and writes
results.json next to them.

Both clients' rates come from their request lines by one formula:
  achieved rate = (sends - 1) / (last send - first send), the send times being the clients' own (the runner's when the
  HTTP client took the body, the peer's bench_serving ``st``);
  schedule's rate = (arrivals - 1) / (last intended send - first intended send), the Poisson draw itself: with n
  arrivals it deviates from the requested rate by about 1/sqrt(n) (0.7 % at 20,000), whatever the client does.
The client's rate error is the achieved rate against the schedule's; the runner's intended times come from its JSON
(first intended send = end of the stage - duration, last = end - drain tail). Schedule lag (send - intended send):
the runner's JSON, the peers' request lines (aiperf's intended send is when its timing manager issued the credit, so
its lag is its workers' alone).
"""
import argparse
import json
import math
import os
import sys

TARGET_RATE_ERROR_PCT = 1.0
TARGET_LAG_P99_MS = 5.0
CLIENTS = ("runner", "peer", "peer-relative", "aiperf")
LABELS = {"runner": "runner", "peer": "Python peer", "peer-relative": "peer, relative sleeps", "aiperf": "aiperf"}


def percentile(values, q):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def read_lines(path):
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_json(path):
    with open(path) as file:
        return json.load(file)


def read_text(path):
    with open(path) as file:
        return file.read().strip()


def rate_over(times):
    window = (max(times) - min(times)) / 1e9
    return (len(times) - 1) / window if window > 0 else float("nan")


def client_figures(client, directory, target):
    """The rate, lag and cost figures of one client's run."""
    records = read_lines(os.path.join(directory, client + ".jsonl"))
    summary = read_json(os.path.join(directory, client + ".json"))
    sends = [r["send_ns"] for r in records]
    figures = {
        "sent": len(records),
        "failed": sum(1 for r in records if not r["ok"]),
        "achieved_request_rate": rate_over(sends),
        "latency_from_send_p50_ms": percentile([(r["end_ns"] - r["send_ns"]) / 1e6 for r in records], 0.5),
        "simulator_cpu_seconds": float(read_text(os.path.join(directory, client + ".simulator-cpu"))),
        "load_average_at_start": read_text(os.path.join(directory, client + ".load")),
    }
    if client == "runner":
        stage = summary["stages"][0]
        schedule_window = stage["duration"] - stage["drain_tail_s"]
        figures.update({
            "schedule_request_rate": (len(records) - 1) / schedule_window,
            "runner_reported_achieved_request_rate": stage.get("achieved_request_rate"),
            "schedule_lag_p50_ms": stage["median_schedule_lag_ms"],
            "schedule_lag_p99_ms": stage["p99_schedule_lag_ms"],
            "schedule_lag_max_ms": stage["max_schedule_lag_ms"],
            "client_cpu_seconds": stage["client_cpu_seconds"],
            "stage_seconds": stage["duration"],
            "client_lag_p99_ms": stage["client_lag_p99_ms"],
            "client_lag_max_ms": stage["client_lag_max_ms"],
            "warnings": stage.get("warnings", []),
        })
    else:
        lags = [(r["send_ns"] - r["intended_ns"]) / 1e6 for r in records]
        figures.update({
            "schedule_request_rate": rate_over([r["intended_ns"] for r in records]),
            "schedule_lag_p50_ms": percentile(lags, 0.5),
            "schedule_lag_p99_ms": percentile(lags, 0.99),
            "schedule_lag_max_ms": max(lags),
            "client_cpu_seconds": summary["client_cpu_seconds"],
            "stage_seconds": summary["duration"],
            "client_lag_p99_ms": summary["client_lag_p99_ms"],
            "client_lag_max_ms": summary["client_lag_max_ms"],
            "warnings": [],
        })
    figures["rate_error_vs_target_pct"] = (figures["achieved_request_rate"] / target - 1) * 100
    figures["rate_error_vs_schedule_pct"] = (figures["achieved_request_rate"] / figures["schedule_request_rate"] - 1) * 100
    figures["schedule_vs_target_pct"] = (figures["schedule_request_rate"] / target - 1) * 100
    figures["poisson_spread_pct"] = 100 / math.sqrt(len(records))
    figures["client_cpu_cores"] = figures["client_cpu_seconds"] / figures["stage_seconds"]
    return figures


def checks(runner, target):
    return [
        ("runner's achieved rate within %.0f %% of the schedule's (the client's own error)" % TARGET_RATE_ERROR_PCT,
         abs(runner["rate_error_vs_schedule_pct"]) < TARGET_RATE_ERROR_PCT,
         "%.1f req/s against %.1f: %+.3f %%" % (runner["achieved_request_rate"], runner["schedule_request_rate"],
                                                 runner["rate_error_vs_schedule_pct"])),
        ("runner's schedule lag p99 under %.0f ms" % TARGET_LAG_P99_MS,
         runner["schedule_lag_p99_ms"] < TARGET_LAG_P99_MS, "%.2f ms" % runner["schedule_lag_p99_ms"]),
    ]


def print_table(machine, clients, results, target):
    print("machine: %s, %s cores, load average before %s, after %s" % (
        machine["cpu"], machine["cores"], machine["load_before"], machine.get("load_after", "?")))
    print("workload: %s" % machine["workload"])
    rows = [
        ("target rate, req/s", lambda f: "%.0f" % target),
        ("sent (failed)", lambda f: "%d (%d)" % (f["sent"], f["failed"])),
        ("schedule's rate (vs target, ±1/√n)", lambda f: "%.1f (%+.2f %%, ±%.2f %%)" % (
            f["schedule_request_rate"], f["schedule_vs_target_pct"], f["poisson_spread_pct"])),
        ("achieved rate, req/s", lambda f: "%.1f" % f["achieved_request_rate"]),
        ("  error vs schedule / vs target", lambda f: "%+.3f %% / %+.2f %%" % (
            f["rate_error_vs_schedule_pct"], f["rate_error_vs_target_pct"])),
        ("schedule lag p50 / p99 / max, ms", lambda f: "%.2f / %.2f / %.1f" % (
            f["schedule_lag_p50_ms"], f["schedule_lag_p99_ms"], f["schedule_lag_max_ms"])),
        ("latency from send p50, ms", lambda f: "%.1f" % f["latency_from_send_p50_ms"]),
        ("client CPU s (cores)", lambda f: "%.1f (%.2f)" % (f["client_cpu_seconds"], f["client_cpu_cores"])),
        ("client lag p99 / max, ms", lambda f: "%.1f / %.1f" % (f["client_lag_p99_ms"], f["client_lag_max_ms"])),
        ("simulator CPU s", lambda f: "%.1f" % f["simulator_cpu_seconds"]),
        ("load average at start", lambda f: f["load_average_at_start"].split()[0]),
    ]
    print("%-38s" % "" + "".join("%-32s" % LABELS[name] for name in clients))
    for label, cell in rows:
        print("%-38s" % label + "".join("%-32s" % cell(clients[name]) for name in clients))
    reported = clients["runner"].get("runner_reported_achieved_request_rate")
    if reported is not None:
        print("runner's own achieved_request_rate: %.1f req/s" % reported)
    for warning in clients["runner"]["warnings"]:
        print("runner: %s" % warning)
    for name, passed, figure in results:
        print("%s  %s: %s" % ("PASS" if passed else "MISS", name, figure))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--smoke", action="store_true",
                        help="a smoke run: print and write the figures, but do not judge them against the targets")
    arguments = parser.parse_args()
    directory = arguments.directory
    machine = read_json(os.path.join(directory, "machine.json"))
    target = machine["request_rate"]
    clients = {name: client_figures(name, directory, target) for name in CLIENTS
               if os.path.exists(os.path.join(directory, name + ".jsonl"))}
    results = checks(clients["runner"], target)
    print_table(machine, clients, results, target)
    with open(os.path.join(directory, "results.json"), "w") as out:
        json.dump({"machine": machine, "clients": clients,
                   "targets": [{"target": n, "pass": p, "figure": f} for n, p, f in results]}, out, indent=2)
    print("wrote %s" % os.path.join(directory, "results.json"))
    if arguments.smoke:
        print("smoke run: the workload is too short to judge the targets, so the lines above decide nothing")
        return 0
    return 0 if all(passed for _, passed, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
