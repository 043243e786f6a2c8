#!/usr/bin/env python3
"""A Python asyncio benchmark client that measures the way SGLang's bench_serving does, as a peer to the runner.

Same formulas as bench_serving's OpenAI chat path: a new aiohttp session per request, ``st = perf_counter()`` just
before the POST, TTFT = first chunk with non-empty content - st, ITL = gaps between such chunks, latency = last
line - st, output tokens from ``usage.completion_tokens``, output throughput = total output tokens / (end of the
last request - start of the benchmark). Concurrency is bounded by a semaphore over requests created at once (request
rate infinite). Writes one JSON line per request in the runner's --requests-out format, so both are compared with
the simulator's ground truth the same way; times are ``time.perf_counter_ns()`` (CLOCK_MONOTONIC on Linux, the
clock of the simulator's ground truth).
"""
import argparse
import asyncio
import json
import random
import resource
import sys
import time

import aiohttp

LAG_PERIOD_S = 0.010
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec "
         "romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:30000")
    parser.add_argument("--model", required=True)
    load = parser.add_mutually_exclusive_group(required=True)
    load.add_argument("--concurrency", type=int, help="closed loop: requests in flight")
    load.add_argument("--rate", type=float, help="open loop: Poisson arrivals per second")
    parser.add_argument("--requests", type=int, help="closed loop: requests to send")
    parser.add_argument("--duration", type=float, help="open loop: seconds of arrivals")
    parser.add_argument("--arrival-clock", choices=("absolute", "relative"), default="absolute",
                        help="open loop: intended times from the start (absolute) or sleeps between sends (relative)")
    parser.add_argument("--input-len", type=int, default=32, help="words per random prompt")
    parser.add_argument("--output-len", type=int, default=100, help="max_tokens, with ignore_eos")
    parser.add_argument("--warmup", type=int, default=1, help="warm-up requests, sent at once and not measured")
    parser.add_argument("--warmup-max-tokens", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--requests-out", required=True, help="JSON lines, one per request")
    parser.add_argument("--summary-out", required=True, help="JSON summary of the run")
    args = parser.parse_args()
    if args.concurrency is not None and (args.requests is None or args.requests < 1 or args.concurrency < 1):
        parser.error("--concurrency needs --requests, both at least 1")
    if args.rate is not None and not (args.rate > 0 and args.duration is not None and 0 < args.duration <= 3600):
        parser.error("--rate needs a positive rate and --duration in (0, 3600] seconds")
    return args


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def send(url, model, prompt, output_len, intended_ns=None):
    """One streaming chat completion, timed as bench_serving's async_request_openai_chat_completions times it."""
    payload = {
        "model": model,
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": output_len,
        "temperature": 0.0,
        "ignore_eos": True,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    record = {"id": None, "ok": False, "failure": None, "send_ns": 0, "first_token_ns": None, "end_ns": 0,
              "prompt_tokens": 0, "output_tokens": 0, "chunk_ns": [], "chunk_tokens": []}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=6 * 60 * 60)) as session:
        st = time.perf_counter_ns()
        record["send_ns"] = st
        if intended_ns is not None:
            record["intended_ns"] = intended_ns
        latest = st
        try:
            async with session.post(url + "/v1/chat/completions", json=payload) as response:
                if response.status != 200:
                    record["failure"] = "http_%d" % response.status
                    record["end_ns"] = time.perf_counter_ns()
                    return record
                async for chunk_bytes in response.content:
                    chunk_bytes = chunk_bytes.strip()
                    if not chunk_bytes:
                        continue
                    latest = time.perf_counter_ns()
                    chunk = chunk_bytes.decode("utf-8").removeprefix("data: ")
                    if chunk == "[DONE]":
                        continue
                    data = json.loads(chunk)
                    if record["id"] is None:
                        record["id"] = data.get("id")
                    choices = data.get("choices") or []
                    if choices and choices[0]["delta"].get("content"):
                        timestamp = time.perf_counter_ns()
                        if record["first_token_ns"] is None:
                            record["first_token_ns"] = timestamp
                        record["chunk_ns"].append(timestamp)
                        record["chunk_tokens"].append(1)
                    usage = data.get("usage")
                    if usage:
                        record["output_tokens"] = usage.get("completion_tokens", record["output_tokens"])
                        record["prompt_tokens"] = usage.get("prompt_tokens", record["prompt_tokens"])
                record["ok"] = record["first_token_ns"] is not None
                record["failure"] = None if record["ok"] else "empty_output"
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            record["failure"] = type(error).__name__
        record["end_ns"] = latest
    return record


async def lag_probe(lags, stop):
    """The event loop's own delay: how late a 10 ms sleep wakes up (what the runner's ClientLagProbe measures)."""
    while not stop.is_set():
        before = time.perf_counter_ns()
        await asyncio.sleep(LAG_PERIOD_S)
        lags.append((time.perf_counter_ns() - before) / 1e6 - LAG_PERIOD_S * 1e3)


def percentile(values, q):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def poisson_offsets(rng, rate, duration_s):
    """Intended send times after the start, in ns: the first at 0, then seeded exponential gaps, until the duration."""
    offsets, at = [], 0.0
    while at < duration_s:
        offsets.append(round(at * 1e9))
        at += rng.expovariate(rate)
    return offsets


async def closed_loop(args, prompts):
    semaphore = asyncio.Semaphore(args.concurrency)

    async def limited(prompt):
        async with semaphore:
            return await send(args.url, args.model, prompt, args.output_len)

    return await asyncio.gather(*(limited(prompt) for prompt in prompts))


async def open_loop(args, prompts, offsets):
    """Creates each request's task at its intended time; the arrivals never wait on responses."""
    tasks = []
    start = time.perf_counter_ns()
    for i, (prompt, offset) in enumerate(zip(prompts, offsets)):
        intended = start + offset
        if args.arrival_clock == "absolute":
            delay = intended - time.perf_counter_ns()
            if delay > 0:
                await asyncio.sleep(delay / 1e9)
        elif i > 0:
            await asyncio.sleep((offset - offsets[i - 1]) / 1e9)
        tasks.append(asyncio.create_task(send(args.url, args.model, prompt, args.output_len, intended)))
    # Lets the last request take its send time before gather queues one callback per finished task ahead of it.
    await asyncio.sleep(0)
    return await asyncio.gather(*tasks)


def open_loop_figures(args, records):
    """Requested and achieved rate and schedule lag, from the requests' intended and actual send times."""
    sends = sorted(r["send_ns"] for r in records)
    intended = sorted(r["intended_ns"] for r in records)
    lags = [(r["send_ns"] - r["intended_ns"]) / 1e6 for r in records]
    send_window = (sends[-1] - sends[0]) / 1e9
    schedule_window = (intended[-1] - intended[0]) / 1e9
    return {
        "request_rate": args.rate,
        "arrival_clock": args.arrival_clock,
        "sent": len(records),
        "send_window_s": send_window,
        "achieved_request_rate": (len(records) - 1) / send_window if send_window > 0 else 0.0,
        "schedule_request_rate": (len(records) - 1) / schedule_window if schedule_window > 0 else 0.0,
        "median_schedule_lag_ms": percentile(lags, 0.5),
        "p99_schedule_lag_ms": percentile(lags, 0.99),
        "max_schedule_lag_ms": max(lags),
    }


async def main():
    args = parse_args()
    rng = random.Random(args.seed)
    offsets = []
    if args.rate is not None:
        offsets = poisson_offsets(random.Random("arrivals:%d" % args.seed), args.rate, args.duration)
    count = args.requests if args.rate is None else len(offsets)
    prompts = [" ".join(rng.choice(WORDS) for _ in range(args.input_len)) for _ in range(count)]
    warmups = await asyncio.gather(*(send(args.url, args.model, "warm-up %d %s" % (i, prompts[0]), args.warmup_max_tokens)
                                     for i in range(args.warmup)))
    if not all(warmup["ok"] for warmup in warmups):
        sys.exit("python_peer: warm-up failed: %s" % [w["failure"] for w in warmups if not w["ok"]][0])

    lags, stop = [], asyncio.Event()
    probe = asyncio.create_task(lag_probe(lags, stop))
    cpu_start = cpu_seconds()
    benchmark_start = time.perf_counter_ns()
    if args.rate is None:
        records = await closed_loop(args, prompts)
    else:
        records = await open_loop(args, prompts, offsets)
    duration_s = (time.perf_counter_ns() - benchmark_start) / 1e9
    cpu = cpu_seconds() - cpu_start
    stop.set()
    await probe

    stage = "c%d" % args.concurrency if args.rate is None else "r%g" % args.rate
    with open(args.requests_out, "w") as out:
        for record in records:
            out.write(json.dumps(dict(record, stage=stage)) + "\n")
    ok = [r for r in records if r["ok"]]
    output_tokens = sum(r["output_tokens"] for r in ok)
    summary = {
        "completed": len(ok),
        "failed": len(records) - len(ok),
        "duration": duration_s,
        "total_output_tokens": output_tokens,
        "output_throughput": output_tokens / duration_s,
        "client_cpu_seconds": cpu,
        "client_lag_p99_ms": percentile(lags, 0.99),
        "client_lag_max_ms": max(lags, default=0.0),
    }
    if args.rate is not None:
        summary.update(open_loop_figures(args, records))
    with open(args.summary_out, "w") as out:
        json.dump(summary, out, indent=2)


if __name__ == "__main__":
    asyncio.run(main())
