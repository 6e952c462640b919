#!/usr/bin/env python3
"""How many of an access-policy window's streaming lines the L2 keeps, from
tools/gpu-probes/streaming_lines.cu under ncu (h100-measured/streaming_lines.csv,
h200/streaming_lines.csv; `streaming_lines.cu pressure`: h100-measured/streaming_pressure.csv).

    streaming_lines.py FILE

Each case is persistKernel (`rw`) or its loads alone (`loads`) over a hot region of hotKB KB
beside a 256 MiB stream, 2^26 threads, under a window over the hot region that gives hitRatio
h1000 / 1000 of its lines the persisting property and the rest missProp (streaming or normal).
(`pressure`: beside a stream of streamMB MiB, read 256 MiB / streamMB times.) Every thread reads
hot[tid % size] once, so each hot line is read (256 MiB / hot size) times:
the first read misses, and a streaming line's later reads miss unless the L2 kept it. DRAM bytes
read beyond the stream and the hot region's first pass are those misses, where the stream is read
from DRAM once: 256 MiB (each element once) or up to 16 MiB (the L2 holds it beside the hot region:
the case's lts__t_sectors_op_read hit rate, 93-98%, shows it); at 64 MiB only read_mib is given.
Prints "CASE:PARAMS/KEY value" lines, for each case's KEY
  read_mib      dram__bytes_read.sum in MiB
  miss_mib      read_mib - 256 - the hot region's MiB: the later reads that missed
  kept          1 - miss_mib / the later reads of the streaming lines ((1 - h) x (256 - hot MiB)):
                the fraction of them the L2 still held (missProp normal: of all hot lines)
  kept_mib      kept x the streaming lines' MiB: as if the L2 kept that many of them
and the kernel time (time_us, ncu's gpu__time_duration).
"""
import csv
import sys

# 2^26 threads x 4 bytes: the hot reads of a case together, and its stream unless streamMB says
# otherwise.
THREADS_MIB = 256.0
# The largest stream the L2 holds beside the hot region, so that DRAM reads it once.
HELD_STREAM_MIB = 16


def cases(path):
    try:
        with open(path) as f:
            every = f.readlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    lines = [line for line in every if not line.startswith("#")]
    first_row = len(every) - len(lines) + 2  # the file's line number of the first case (header before it)
    rows = list(csv.DictReader(lines))
    needed = ("case", "params", "dram__bytes_read.sum", "gpu__time_duration.sum")
    if not rows or any(c not in rows[0] for c in needed):
        sys.exit(f"{path}: not a streaming_lines.cu table (needs the columns {', '.join(needed)})")
    out = []
    for line_no, r in enumerate(rows, start=first_row):
        try:
            p = dict(kv.split("=") for kv in r["params"].split(";"))
            hot_mib = int(p["hotKB"]) / 1024
            h = int(p["h1000"]) / 1000
            stream_mib = float(p.get("streamMB", THREADS_MIB))
            read = float(r["dram__bytes_read.sum"]) / 2**20
            time_us = float(r["gpu__time_duration.sum"]) / 1e3
        except (KeyError, ValueError) as e:
            sys.exit(f"{path}:{line_no}: cannot read the case's parameters or counters ({e})")
        miss = kept = kept_mib = None
        if stream_mib == THREADS_MIB or stream_mib <= HELD_STREAM_MIB:  # the stream read from DRAM once
            streaming = 1.0 if p.get("miss") == "normal" else 1 - h
            miss = read - stream_mib - hot_mib
            later = streaming * (THREADS_MIB - hot_mib)
            if later > 0:
                kept = 1 - miss / later
                kept_mib = kept * streaming * hot_mib
        out.append((f"{r['case']}:{r['params']}", read, miss, kept, kept_mib, time_us))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for name, read, miss, kept, kept_mib, time_us in cases(sys.argv[1]):
        print(f"{name}/read_mib {read:.1f}")
        if miss is not None:
            print(f"{name}/miss_mib {miss:.1f}")
        if kept is not None:
            print(f"{name}/kept {kept:.3f}")
            print(f"{name}/kept_mib {kept_mib:.2f}")
        print(f"{name}/time_us {time_us:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
