#!/usr/bin/env python3
"""Compares the runner, the Python asyncio peer and NVIDIA's aiperf with the simulator's ground truth, request by request.

Reads the directory runner-vs-python.sh fills (ground_truth.json, machine.json and per level c<N>/ with each
client's request lines, its summary, and the CPU the simulator and the client process used; aiperf's where it ran),
prints a table and the targets as PASS/MISS with figures, and writes results.json next to them.

Ground truth of a request (recorded by the simulator, CLOCK_MONOTONIC, the clients' clock too):
  TTFT = first chunk written - request body read; ITL = gap between consecutive chunk writes;
  throughput = tokens sent / (last chunk written - first request read) over the client's requests.
Errors: a client's TTFT minus the true one per request, each chunk gap minus the true one; medians and p99 are of the
absolute errors. A TTFT error splits into a send side (request arrival at the simulator - the client's send time) and
a receive side (the client's first-token time - the simulator's first write).
"""
import argparse
import json
import os
import sys

TARGET_STREAMS = 1024
TARGET_MS = 1.0
TARGET_THROUGHPUT_PCT = 1.0
RATIO_FROM_STREAMS = 512
RATIO_TARGET = 5.0
BOTH_PEERS_FROM_STREAMS = 256
CLIENTS = ("runner", "peer", "aiperf")


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


def client_figures(records, truth, summary, sim_cpu_seconds):
    """Errors against the ground truth and costs of one client at one level."""
    ttft_errors, itl_errors, ttft_client, ttft_true, itl_client, itl_true = [], [], [], [], [], []
    send_side, receive_side = [], []
    unmatched = mismatched_chunks = failed = 0
    first_read, last_write, true_tokens, chunks = None, None, 0, 0
    for record in records:
        if not record["ok"]:
            failed += 1
            continue
        request = truth.get(record["id"])
        if request is None or not request["chunk_ns"]:
            unmatched += 1
            continue
        first_read = min(first_read or request["received_ns"], request["received_ns"])
        last_write = max(last_write or request["chunk_ns"][-1], request["chunk_ns"][-1])
        true_tokens += request["completion_tokens"]
        measured = record["first_token_ns"] - record["send_ns"]
        true = request["chunk_ns"][0] - request["received_ns"]
        ttft_errors.append(abs(measured - true) / 1e6)
        send_side.append((request["received_ns"] - record["send_ns"]) / 1e6)
        receive_side.append((record["first_token_ns"] - request["chunk_ns"][0]) / 1e6)
        ttft_client.append(measured / 1e6)
        ttft_true.append(true / 1e6)
        got, want = record["chunk_ns"], request["chunk_ns"]
        chunks += len(got)
        if len(got) != len(want):
            mismatched_chunks += 1
            continue
        for i in range(1, len(got)):
            gap, true_gap = got[i] - got[i - 1], want[i] - want[i - 1]
            itl_errors.append(abs(gap - true_gap) / 1e6)
            itl_client.append(gap / 1e6)
            itl_true.append(true_gap / 1e6)
    true_throughput = true_tokens / ((last_write - first_read) / 1e9) if true_tokens else float("nan")
    tokens = summary["total_output_tokens"]
    return {
        "requests": len(records),
        "failed": failed,
        "unmatched": unmatched,
        "chunk_count_mismatches": mismatched_chunks,
        "ttft_error_p50_ms": percentile(ttft_errors, 0.5),
        "ttft_error_p99_ms": percentile(ttft_errors, 0.99),
        "ttft_send_side_p50_ms": percentile(send_side, 0.5),
        "ttft_receive_side_p50_ms": percentile(receive_side, 0.5),
        "itl_error_p50_ms": percentile(itl_errors, 0.5),
        "itl_error_p99_ms": percentile(itl_errors, 0.99),
        "ttft_p50_ms": percentile(ttft_client, 0.5),
        "ttft_p50_true_ms": percentile(ttft_true, 0.5),
        "itl_p50_ms": percentile(itl_client, 0.5),
        "itl_p50_true_ms": percentile(itl_true, 0.5),
        "itl_p99_ms": percentile(itl_client, 0.99),
        "itl_p99_true_ms": percentile(itl_true, 0.99),
        "output_throughput": summary["output_throughput"],
        "output_throughput_true": true_throughput,
        "throughput_error_pct": abs(summary["output_throughput"] / true_throughput - 1) * 100,
        "chunks_per_second": chunks / summary["duration"],
        "client_cpu_seconds": summary["client_cpu_seconds"],
        "client_cpu_s_per_million_tokens": summary["client_cpu_seconds"] / tokens * 1e6,
        "simulator_cpu_seconds": sim_cpu_seconds,
        "client_lag_p99_ms": summary["client_lag_p99_ms"],
        "client_lag_max_ms": summary["client_lag_max_ms"],
    }


def runner_summary(report):
    stage = report["stages"][0]
    return {key: stage[key] for key in ("duration", "total_output_tokens", "output_throughput", "client_cpu_seconds",
                                        "client_lag_p99_ms", "client_lag_max_ms")}


def ratio(peer, runner):
    return peer / runner if runner > 0 else float("inf")


def checks(levels):
    results = []
    for level in levels:
        streams, runner, peer = level["streams"], level["runner"], level["peer"]
        if streams == TARGET_STREAMS:
            results.append(("p50 TTFT error at %d streams < %.0f ms" % (streams, TARGET_MS),
                            runner["ttft_error_p50_ms"] < TARGET_MS, "%.3f ms" % runner["ttft_error_p50_ms"]))
            results.append(("p50 ITL error at %d streams < %.0f ms" % (streams, TARGET_MS),
                            runner["itl_error_p50_ms"] < TARGET_MS, "%.3f ms" % runner["itl_error_p50_ms"]))
            results.append(("throughput error at %d streams < %.0f %%" % (streams, TARGET_THROUGHPUT_PCT),
                            runner["throughput_error_pct"] < TARGET_THROUGHPUT_PCT,
                            "%.3f %%" % runner["throughput_error_pct"]))
        results.append(("runner CPU per million tokens at or below the peer's at %d streams" % streams,
                        runner["client_cpu_s_per_million_tokens"] <= peer["client_cpu_s_per_million_tokens"],
                        "%.1f vs %.1f s" % (runner["client_cpu_s_per_million_tokens"],
                                            peer["client_cpu_s_per_million_tokens"])))
        aiperf = level.get("aiperf")
        if aiperf is not None:
            better = min(peer["ttft_error_p50_ms"], aiperf["ttft_error_p50_ms"])
            if streams >= BOTH_PEERS_FROM_STREAMS:
                results.append(("runner TTFT p50 error at most 1/%.0f of the better peer's (Python, aiperf) at %d"
                                " streams" % (RATIO_TARGET, streams), runner["ttft_error_p50_ms"] * RATIO_TARGET <= better,
                                "%.3f vs %.3f ms" % (runner["ttft_error_p50_ms"], better)))
            results.append(("runner CPU per million tokens below aiperf's at %d streams" % streams,
                            runner["client_cpu_s_per_million_tokens"] < aiperf["client_cpu_s_per_million_tokens"],
                            "%.1f vs %.1f s" % (runner["client_cpu_s_per_million_tokens"],
                                                aiperf["client_cpu_s_per_million_tokens"])))
        if streams >= RATIO_FROM_STREAMS:
            for metric, unit in (("ttft_error_p50_ms", "ms"), ("itl_error_p50_ms", "ms"), ("throughput_error_pct", "%")):
                results.append(("runner %s at most 1/%.0f of the peer's at %d streams" % (metric, RATIO_TARGET, streams),
                                runner[metric] * RATIO_TARGET <= peer[metric],
                                "%.3f vs %.3f %s (peer/runner %.1f)" % (runner[metric], peer[metric], unit,
                                                                        ratio(peer[metric], runner[metric]))))
    return results


def print_table(machine, levels, results):
    print("machine: %s, %s cores, load average before %s, after %s" % (
        machine["cpu"], machine["cores"], machine["load_before"], machine.get("load_after", "?")))
    print("workload: %s" % machine["workload"])
    rows = [
        ("requests (failed, unmatched)", lambda f: "%d (%d, %d)" % (f["requests"], f["failed"], f["unmatched"])),
        ("TTFT p50 measured / true ms", lambda f: "%.1f / %.1f" % (f["ttft_p50_ms"], f["ttft_p50_true_ms"])),
        ("TTFT error p50 / p99 ms", lambda f: "%.3f / %.1f" % (f["ttft_error_p50_ms"], f["ttft_error_p99_ms"])),
        ("TTFT error send/receive side p50", lambda f: "%.3f / %.3f" % (f["ttft_send_side_p50_ms"],
                                                                        f["ttft_receive_side_p50_ms"])),
        ("ITL p50 measured / true ms", lambda f: "%.2f / %.2f" % (f["itl_p50_ms"], f["itl_p50_true_ms"])),
        ("ITL error p50 / p99 ms", lambda f: "%.3f / %.1f" % (f["itl_error_p50_ms"], f["itl_error_p99_ms"])),
        ("throughput measured / true tok/s", lambda f: "%.0f / %.0f" % (f["output_throughput"],
                                                                       f["output_throughput_true"])),
        ("throughput error %", lambda f: "%.3f" % f["throughput_error_pct"]),
        ("chunks/s received", lambda f: "%.0f" % f["chunks_per_second"]),
        ("client CPU s (s per M tokens)", lambda f: "%.1f (%.1f)" % (f["client_cpu_seconds"],
                                                                     f["client_cpu_s_per_million_tokens"])),
        ("simulator CPU s", lambda f: "%.1f" % f["simulator_cpu_seconds"]),
        ("client lag p99 / max ms", lambda f: "%.1f / %.1f" % (f["client_lag_p99_ms"], f["client_lag_max_ms"])),
    ]
    columns = [(l, client) for l in levels for client in CLIENTS if client in l]
    print("%-34s" % "" + "".join("%-22s" % ("c%d %s" % (l["streams"], client)) for l, client in columns))
    for label, cell in rows:
        print("%-34s" % label + "".join("%-22s" % cell(l[client]) for l, client in columns))
    print("%-34s" % "peer/runner TTFT err, ITL err, CPU" + "".join(
        "%-44s" % ("%.1f×, %.1f×, %.1f×" % (l["ratios"]["ttft_error_p50"], l["ratios"]["itl_error_p50"],
                                           l["ratios"]["cpu_per_token"])) for l in levels))
    for name, passed, figure in results:
        print("%s  %s: %s" % ("PASS" if passed else "MISS", name, figure))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--smoke", action="store_true",
                        help="a smoke run: print and write the figures, but do not judge them against the targets")
    arguments = parser.parse_args()
    directory = arguments.directory
    truth = {request["id"]: request for request in read_json(os.path.join(directory, "ground_truth.json"))["requests"]}
    machine = read_json(os.path.join(directory, "machine.json"))
    levels = []
    for name in sorted((n for n in os.listdir(directory) if n.startswith("c") and n[1:].isdigit()),
                       key=lambda n: int(n[1:])):
        level_dir = os.path.join(directory, name)
        figures = {}
        for client in CLIENTS:
            if not os.path.exists(os.path.join(level_dir, client + ".jsonl")):
                continue
            summary = (runner_summary(read_json(os.path.join(level_dir, "runner.json"))) if client == "runner"
                       else read_json(os.path.join(level_dir, client + ".json")))
            with open(os.path.join(level_dir, client + ".simulator-cpu")) as cpu:
                sim_cpu = float(cpu.read())
            figures[client] = client_figures(read_lines(os.path.join(level_dir, client + ".jsonl")), truth, summary,
                                             sim_cpu)
        runner, peer = figures["runner"], figures["peer"]
        levels.append({
            "streams": int(name[1:]),
            **figures,
            "ratios": {
                "ttft_error_p50": ratio(peer["ttft_error_p50_ms"], runner["ttft_error_p50_ms"]),
                "itl_error_p50": ratio(peer["itl_error_p50_ms"], runner["itl_error_p50_ms"]),
                "throughput_error": ratio(peer["throughput_error_pct"], runner["throughput_error_pct"]),
                "cpu_per_token": ratio(peer["client_cpu_s_per_million_tokens"],
                                       runner["client_cpu_s_per_million_tokens"]),
            },
        })
    results = checks(levels)
    print_table(machine, levels, results)
    with open(os.path.join(directory, "results.json"), "w") as out:
        json.dump({"machine": machine, "levels": levels,
                   "targets": [{"target": n, "pass": p, "figure": f} for n, p, f in results]}, out, indent=2)
    print("wrote %s" % os.path.join(directory, "results.json"))
    if arguments.smoke:
        print("smoke run: the workload is too short to judge the targets, so the lines above decide nothing")
        return 0
    return 0 if all(passed for _, passed, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
