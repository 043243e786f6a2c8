#!/usr/bin/env python3
"""Turns an aiperf run into the peer format compare.py reads, so NVIDIA's aiperf is judged against the simulator's
ground truth the way the runner and the Python peer are.

Reads the artifact directory of one `aiperf profile --export-level raw` run: profile_export_raw.jsonl (each request
with its send time `start_perf_ns` and every server-sent event with its arrival `perf_ns`, both
`time.perf_counter_ns()`, CLOCK_MONOTONIC on Linux, the simulator's clock) and profile_export_aiperf.json (aiperf's
own output throughput and duration). Writes one JSON line per profiled request in the runner's --requests-out format
(id = the completion id of its chunks, first token = the first event whose delta has content, chunk times = every
such event; intended send = the instant aiperf issued the request's credit, `credit_issued_ns`, moved onto the send's
clock) and a summary with aiperf's throughput and the CPU time /usr/bin/time measured for it and its workers.

Also writes, with `tokenizer DIR WORD...`, a local Hugging Face tokenizer of those words for `aiperf --tokenizer`:
aiperf's built-in tokenizer downloads its encoding, which a machine without the internet cannot.
"""
import json
import sys


def tokenizer(directory, words):
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"[UNK]": 0}
    for word in words:
        vocab.setdefault(word, len(vocab))
    model = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    model.pre_tokenizer = pre_tokenizers.Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=model, unk_token="[UNK]").save_pretrained(directory)


def record(raw):
    metadata = raw["metadata"]
    out = {"id": None, "ok": False, "send_ns": raw["start_perf_ns"], "first_token_ns": None, "end_ns": 0,
           "chunk_ns": []}
    if metadata.get("credit_issued_ns") is not None and metadata.get("request_start_ns") is not None:
        # The instant aiperf's timing manager issued the request's credit, on the send's clock: its intended send.
        out["intended_ns"] = raw["start_perf_ns"] - (metadata["request_start_ns"] - metadata["credit_issued_ns"])
    for response in raw.get("responses") or []:
        out["end_ns"] = max(out["end_ns"], response["perf_ns"])
        for packet in response.get("packets") or []:
            if packet.get("name") != "data" or packet.get("value") in (None, "[DONE]"):
                continue
            chunk = json.loads(packet["value"])
            out["id"] = out["id"] or chunk.get("id")
            choices = chunk.get("choices") or []
            if choices and (choices[0].get("delta") or {}).get("content"):
                out["chunk_ns"].append(response["perf_ns"])
    out["first_token_ns"] = out["chunk_ns"][0] if out["chunk_ns"] else None
    out["ok"] = raw.get("status") == 200 and out["first_token_ns"] is not None
    return out


def convert(artifacts, records_out, summary_out, time_file):
    with open(artifacts + "/profile_export_raw.jsonl") as lines, open(records_out, "w") as out:
        for line in lines:
            raw = json.loads(line)
            if raw["metadata"].get("benchmark_phase") == "profiling":
                out.write(json.dumps(record(raw)) + "\n")
    with open(artifacts + "/profile_export_aiperf.json") as export:
        metrics = json.load(export)
    with open(time_file) as times:
        _, user, system = (float(value) for value in times.read().split())
    summary = {
        "duration": metrics["benchmark_duration"]["avg"],
        "total_output_tokens": metrics["total_osl"]["avg"],
        "output_throughput": metrics["output_token_throughput"]["avg"],
        "client_cpu_seconds": user + system,
        "client_lag_p99_ms": float("nan"),
        "client_lag_max_ms": float("nan"),
    }
    with open(summary_out, "w") as out:
        json.dump(summary, out, indent=2)


if __name__ == "__main__":
    if sys.argv[1] == "tokenizer":
        tokenizer(sys.argv[2], sys.argv[3:])
    else:
        convert(*sys.argv[1:5])
