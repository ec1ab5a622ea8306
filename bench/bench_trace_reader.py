"""`tct trace` against tlparse 0.4.3 on the same large TORCH_TRACE log: wall time and peak
memory (max RSS from /usr/bin/time -v), and tct's peak memory on a 100x smaller log. tlparse
hashes every payload (has_payload); tct hashes only where the answer is used (the payloads
its summary reads, a JSON payload that does not parse), and every one under --strict, timed
too.

The log comes from real compiles: a small model compiled with inductor (graph breaks, a
recompile) under TORCH_TRACE, then copied end to end until it reaches --size-mb (as the
logs of a long job grow), under --work (default: the system temp folder, never the repo).

    python bench/bench_trace_reader.py [--size-mb 400] [--tct build/tct]
        [--tlparse .venv/bin/tlparse] [--python .venv/bin/python] [--work /tmp/tct-trace-bench]

On a two-core machine, busy (load average 5), torch 2.13, tlparse 0.4.3:

    real log 2719 KiB; big 401 MiB, small 5.3 MiB
    tct trace  big:   0.87 s, 21 MiB peak
    tct trace  small: 0.02 s, 14 MiB peak
    tct trace  big --strict (every MD5): 2.03 s, 21 MiB peak
    tlparse    big:   63.38 s, 1647 MiB peak
    speed: tct 72.9x tlparse's (31.2x with --strict); tct memory big/small 1.46x; tlparse/tct memory 79.2x
    tct big: 906 compiles listed (150 id restarts), 1057 payload MD5s checked and matching, 1.3 MiB of JSON

(When every payload was hashed, with an MD5 of our own, the reader ran at 22x tlparse's.)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tool_paths import ROOT, parser

MODEL = r'''
import torch

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(64, 64)
        self.b = torch.nn.Linear(64, 64)

    def forward(self, x):
        h = torch.relu(self.a(x))
        print("block")                      # graph break
        if h.mean() > 0:                    # data-dependent branch: another break
            h = h * 2
        return torch.softmax(self.b(h), -1)

m = torch.compile(Block())
for batch in (8, 8, 16, 32):                # new sizes: recompiles (then dynamic shapes)
    m(torch.randn(batch, 64))
'''


def timed(cmd):
    """(wall seconds, max RSS MiB) of one run, from /usr/bin/time -v."""
    proc = subprocess.run(["/usr/bin/time", "-v", *map(str, cmd)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{proc.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    seconds = int(wall[1] or 0) * 3600 + int(wall[2]) * 60 + float(wall[3])
    return seconds, int(rss[1]) / 1024


def real_log(python, work):
    raw = work / "raw"
    shutil.rmtree(raw, ignore_errors=True)
    script = work / "model.py"
    script.write_text(MODEL)
    env = dict(os.environ, TORCH_TRACE=str(raw), TORCHINDUCTOR_CACHE_DIR=str(work / "inductor-cache"))
    subprocess.run([python, str(script)], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (log,) = raw.iterdir()
    return log.read_bytes()


def grow(data, size, path):
    with open(path, "wb") as f:
        written = 0
        while written < size:
            f.write(data)
            written += len(data)
    return written


def main():
    ap = parser()
    ap.add_argument("--size-mb", type=float, default=400)
    ap.add_argument("--tlparse", default=str(ROOT / ".venv" / "bin" / "tlparse"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "tct-trace-bench"))
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    data = real_log(args.python, work)
    big, small = work / "big.log", work / "small.log"
    big_bytes = grow(data, int(args.size_mb * 2**20), big)
    small_bytes = grow(data, big_bytes // 100, small)
    print(f"real log {len(data) / 2**10:.0f} KiB; big {big_bytes / 2**20:.0f} MiB, small {small_bytes / 2**20:.1f} MiB")

    tct_big = timed([args.tct, "trace", big, "--json", "-q"])
    tct_small = timed([args.tct, "trace", small, "--json", "-q"])
    tct_strict = timed([args.tct, "trace", big, "--json", "-q", "--strict"])
    tl_big = timed([args.tlparse, big, "-o", work / "tl_out", "--overwrite", "--no-browser"])
    print(f"tct trace  big:   {tct_big[0]:.2f} s, {tct_big[1]:.0f} MiB peak")
    print(f"tct trace  small: {tct_small[0]:.2f} s, {tct_small[1]:.0f} MiB peak")
    print(f"tct trace  big --strict (every MD5): {tct_strict[0]:.2f} s, {tct_strict[1]:.0f} MiB peak")
    print(f"tlparse    big:   {tl_big[0]:.2f} s, {tl_big[1]:.0f} MiB peak")
    print(f"speed: tct {tl_big[0] / tct_big[0]:.1f}x tlparse's ({tl_big[0] / tct_strict[0]:.1f}x with --strict); "
          f"tct memory big/small {tct_big[1] / tct_small[1]:.2f}x; tlparse/tct memory {tl_big[1] / tct_big[1]:.1f}x")
    # What tct's memory holds beyond the reader's constant state: the summary it prints.
    # The big log is one job's log copied end to end, so its compile ids start over at
    # each copy (read as torch._dynamo.reset(), as they should be): one listed compile per
    # compile of every copy, and the document grows with them, not with the log's bytes.
    for name, path in (("big", big), ("small", small)):
        out = subprocess.run([args.tct, "trace", path, "--json", "-q"], capture_output=True, text=True, check=True).stdout
        rank = json.loads(out)["trace"]["ranks"][0]
        print(f"tct {name}: {rank['compile_count']} compiles listed ({rank['dynamo_resets']} id restarts), "
              f"{rank['read']['verified_payloads']} payload MD5s checked and matching, {len(out) / 2**20:.1f} MiB of JSON")
    with open("/proc/loadavg") as f:
        print("load average:", f.read().split()[:3])


if __name__ == "__main__":
    sys.exit(main())
