#!/usr/bin/env python3
"""How fast the H200's DRAM moves a stream as its share of writes goes from none to all:
h200/dram_mix.csv and h200/dram_mix_ncu.csv (tools/gpu-probes/dram_mix.cu).

    analysis/validation/dram_mix.py

One kernel (one 1,024-thread block twice on each SM, 16-byte elements, whole 128-byte lines)
reads R arrays and writes W, ~8 GB in all. Prints, per case, one line:
`case R W write_share dram_pct pins_share read_excess write_excess`:
- write_share: ncu's dram__bytes_write over reads and writes together;
- dram_pct: ncu's dram__throughput.avg.pct_of_peak_sustained_elapsed (caches flushed first);
- pins_share: the bytes the kernel moves over its event-timed median, against the pins' rate
  (dram_mix.csv, without ncu);
- read_excess / write_excess: ncu's DRAM bytes over the bytes the kernel reads / writes (a share
  above 1 is traffic the kernel did not ask for).
Then the same for dram_mix_skew*.csv, each line led by `skew`: array k placed a further k x
1,049,344 bytes on (`dram_mix --skew=1049344`), whether the arrays' alignment to each other makes
the eight-array cases' extra traffic.
"""
import os
import sys

import measured_csv

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "h200")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "gpu-probes"))
import ncu_table  # noqa: E402  (the probes' reader of ncu's CSV, beside them)


def report(label, timed_name, ncu_name):
    timed = {r["case"]: r for r in measured_csv.rows(os.path.join(DATA, timed_name))}
    ncu_path = os.path.join(DATA, ncu_name)
    _, _, paired = ncu_table.pair(ncu_path, ncu_path)
    for name, params, row in paired:
        t = timed[name]
        reads, writes, total = int(t["reads"]), int(t["writes"]), int(t["bytes"])
        read = float(row["dram__bytes_read.sum"].replace(",", ""))
        write = float(row["dram__bytes_write.sum"].replace(",", ""))
        pct = float(row["dram__throughput.avg.pct_of_peak_sustained_elapsed"].replace(",", ""))
        asked_read, asked_write = total * reads / (reads + writes), total * writes / (reads + writes)
        excess = [f"{got / asked:.3f}" if asked else "-" for got, asked in ((read, asked_read), (write, asked_write))]
        print(f"{label}{name} {reads} {writes} {write / (read + write):.3f} {pct:.1f} {float(t['pins_share']):.3f} "
              + " ".join(excess))


def main():
    report("", "dram_mix.csv", "dram_mix_ncu.csv")
    report("skew ", "dram_mix_skew.csv", "dram_mix_skew_ncu.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
