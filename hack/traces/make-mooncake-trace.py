#!/usr/bin/env python3
"""Writes a synthetic trace in the Mooncake format (JSON lines of timestamp, input_length, output_length, hash_ids).

The trace has the properties a replay must preserve: conversations whose every turn repeats the previous turn's
blocks and adds its own (so a prefix cache can serve the repeated part), a system prompt shared by a share of all
requests, Poisson conversation starts with think time between turns, and a last block that is usually partial.
Seeded: one seed always writes the same file.

    hack/traces/make-mooncake-trace.py --seed 7 --conversations 40 > trace.jsonl
"""
import argparse
import json
import random
import sys

BLOCK_TOKENS = 512


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--conversations", type=int, default=40)
    parser.add_argument("--max-turns", type=int, default=4)
    parser.add_argument("--rate", type=float, default=1.0, help="conversation starts per second")
    parser.add_argument("--think-seconds", type=float, nargs=2, default=[2.0, 8.0])
    parser.add_argument("--system-blocks", type=int, default=2)
    parser.add_argument("--system-share", type=float, default=0.5)
    parser.add_argument("--context-blocks", type=int, nargs=2, default=[1, 4])
    parser.add_argument("--turn-blocks", type=int, nargs=2, default=[1, 2])
    parser.add_argument("--output-tokens", type=int, nargs=2, default=[32, 256])
    args = parser.parse_args()

    rng = random.Random(args.seed)
    next_id = args.system_blocks
    requests = []
    start = 0.0
    for _ in range(args.conversations):
        start += rng.expovariate(args.rate)
        blocks = list(range(args.system_blocks)) if rng.random() < args.system_share else []
        fresh = rng.randint(*args.context_blocks)
        blocks += range(next_id, next_id + fresh)
        next_id += fresh
        at = start
        for turn in range(rng.randint(1, args.max_turns)):
            if turn > 0:
                at += rng.uniform(*args.think_seconds)
                added = rng.randint(*args.turn_blocks)
                blocks += range(next_id, next_id + added)
                next_id += added
            partial = rng.randint(0, BLOCK_TOKENS - 1)
            requests.append({
                "timestamp": int(at * 1000),
                "input_length": len(blocks) * BLOCK_TOKENS - partial,
                "output_length": rng.randint(*args.output_tokens),
                "hash_ids": list(blocks),
            })
    requests.sort(key=lambda request: request["timestamp"])
    for request in requests:
        sys.stdout.write(json.dumps(request) + "\n")


if __name__ == "__main__":
    main()
