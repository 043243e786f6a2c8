#!/usr/bin/env python3
"""Compares runs split over N shards with the simulator's ground truth, request by request and percentile by percentile.

Reads the directory sharded-runner.sh fills (ground_truth.json, machine.json, and per shard count and level
n<N>/c<S>/ with every shard's request lines, the merged report and the simulator's CPU), prints a table and the
targets as PASS/MISS, and writes results.json next to them. The per-request errors are compare.py's; besides, the
merged report's TTFT and ITL p50 and p99 (from the shards' merged histograms) against the same percentiles of the
true values of the same requests.
"""
import argparse
import glob
import json
import os
import sys

from compare import client_figures, percentile, read_json, read_lines

LOW_LEVEL_TOLERANCE_MS = 1.0


def level_figures(level_dir, streams, truth):
    records = []
    for path in sorted(glob.glob(os.path.join(level_dir, "shard-*.jsonl"))):
        records.extend(read_lines(path))
    report = read_json(os.path.join(level_dir, "merged.json"))
    stage = next(s for s in report["stages"] if s["name"] == "c%d" % streams)
    summary = {key: stage[key] for key in ("duration", "total_output_tokens", "output_throughput",
                                           "client_cpu_seconds", "client_lag_p99_ms", "client_lag_max_ms")}
    with open(os.path.join(level_dir, "simulator-cpu")) as cpu:
        figures = client_figures(records, truth, summary, float(cpu.read()))
    true_ttft, true_itl = [], []
    for record in records:
        request = truth.get(record["id"]) if record["ok"] else None
        if request and request["chunk_ns"]:
            true_ttft.append((request["chunk_ns"][0] - request["received_ns"]) / 1e6)
            chunks = request["chunk_ns"]
            true_itl.extend((chunks[i] - chunks[i - 1]) / 1e6 for i in range(1, len(chunks)))
    for metric, true in (("ttft", true_ttft), ("itl", true_itl)):
        for name, q in (("median", 0.5), ("p99", 0.99)):
            merged = stage["%s_%s_ms" % (name, metric)]
            figures["merged_%s_%s_ms" % (metric, name)] = merged
            figures["true_%s_%s_ms" % (metric, name)] = percentile(true, q)
            figures["merged_%s_%s_error_ms" % (metric, name)] = abs(merged - percentile(true, q))
    figures["shards"] = report.get("shards", 1)
    return figures


def checks(table, levels):
    results = []
    low, high = min(levels), max(levels)
    for (shards, streams), figures in sorted(table.items()):
        if streams == low:
            for metric in ("ttft_median", "ttft_p99", "itl_median"):
                error = figures["merged_%s_error_ms" % metric]
                results.append(("merged %s of %d shard(s) at %d streams within %.0f ms of the truth" % (
                    metric.replace("_", " "), shards, streams, LOW_LEVEL_TOLERANCE_MS),
                    error <= LOW_LEVEL_TOLERANCE_MS, "%.3f ms" % error))
    one = table.get((1, high))
    most = max(s for s, _ in table)
    if one and most > 1:
        # An overloaded client shows in the tail first: its late reads delay some first tokens by a whole lag spike.
        sharded = table[(most, high)]
        results.append(("TTFT p99 error of %d shards below one runner's at %d streams" % (most, high),
                        sharded["ttft_error_p99_ms"] < one["ttft_error_p99_ms"],
                        "%.1f vs %.1f ms" % (sharded["ttft_error_p99_ms"], one["ttft_error_p99_ms"])))
        results.append(("merged TTFT p99 of %d shards closer to the truth than one runner's at %d streams" % (
            most, high), sharded["merged_ttft_p99_error_ms"] < one["merged_ttft_p99_error_ms"],
            "%.1f vs %.1f ms" % (sharded["merged_ttft_p99_error_ms"], one["merged_ttft_p99_error_ms"])))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--smoke", action="store_true", help="print and write the figures without judging them")
    arguments = parser.parse_args()
    directory = arguments.directory
    truth = {request["id"]: request for request in read_json(os.path.join(directory, "ground_truth.json"))["requests"]}
    machine = read_json(os.path.join(directory, "machine.json"))
    table = {}
    for shard_dir in sorted(glob.glob(os.path.join(directory, "n*"))):
        shards = int(os.path.basename(shard_dir)[1:])
        for level_dir in sorted(glob.glob(os.path.join(shard_dir, "c*"))):
            streams = int(os.path.basename(level_dir)[1:])
            table[(shards, streams)] = level_figures(level_dir, streams, truth)
    levels = sorted({streams for _, streams in table})
    print("machine: %s, %s cores, load average before %s, after %s" % (
        machine["cpu"], machine["cores"], machine["load_before"], machine["load_after"]))
    print("workload: %s" % machine["workload"])
    rows = [
        ("requests (failed, unmatched)", lambda f: "%d (%d, %d)" % (f["requests"], f["failed"], f["unmatched"])),
        ("TTFT error p50 / p99 ms", lambda f: "%.3f / %.1f" % (f["ttft_error_p50_ms"], f["ttft_error_p99_ms"])),
        ("ITL error p50 / p99 ms", lambda f: "%.3f / %.1f" % (f["itl_error_p50_ms"], f["itl_error_p99_ms"])),
        ("merged TTFT p50 / true ms", lambda f: "%.2f / %.2f" % (f["merged_ttft_median_ms"],
                                                                 f["true_ttft_median_ms"])),
        ("merged TTFT p99 / true ms", lambda f: "%.2f / %.2f" % (f["merged_ttft_p99_ms"], f["true_ttft_p99_ms"])),
        ("merged ITL p50 / true ms", lambda f: "%.2f / %.2f" % (f["merged_itl_median_ms"], f["true_itl_median_ms"])),
        ("throughput measured / true tok/s", lambda f: "%.0f / %.0f" % (f["output_throughput"],
                                                                       f["output_throughput_true"])),
        ("client CPU s (s per M tokens)", lambda f: "%.1f (%.1f)" % (f["client_cpu_seconds"],
                                                                     f["client_cpu_s_per_million_tokens"])),
        ("worst shard client lag p99 ms", lambda f: "%.1f" % f["client_lag_p99_ms"]),
    ]
    keys = sorted(table, key=lambda k: (k[1], k[0]))
    print("%-34s" % "" + "".join("%-22s" % ("c%d, %d shard%s" % (s, n, "" if n == 1 else "s")) for n, s in keys))
    for label, cell in rows:
        print("%-34s" % label + "".join("%-22s" % cell(table[key]) for key in keys))
    results = checks(table, levels)
    for name, passed, figure in results:
        print("%s  %s: %s" % ("PASS" if passed else "MISS", name, figure))
    with open(os.path.join(directory, "results.json"), "w") as out:
        json.dump({"machine": machine,
                   "levels": [dict(table[key], streams=key[1]) for key in keys],
                   "targets": [{"target": n, "pass": p, "figure": f} for n, p, f in results]}, out, indent=2)
    print("wrote %s" % os.path.join(directory, "results.json"))
    if arguments.smoke:
        print("smoke run: the workload is too short to judge the targets, so the lines above decide nothing")
        return 0
    return 0 if all(passed for _, passed, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
