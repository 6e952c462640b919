#!/usr/bin/env python3
"""Writes sass/sm_35.sass (Kepler) and sass/sm_20.sass (Fermi): plausible listings of
calibration/kernels.cu for ISAs we have no cuobjdump output of. See README.md for what they
assume. Each function keeps the sm_90 listing's hooks (memory access order, guarded EXITs,
guarded branches, guarded instructions; traces/kernels/*.cpp say which is which), so one
kernel logic drives all three ISAs. Kepler is written out (the kernel functions are in
legacy_memory_kernels.py, legacy_timing_kernels.py and legacy_persist_kernels.py, the listing
and its emitters in legacy_listing_writer.py); Fermi is derived from it by the differences
listed in fermi() below.

Usage: legacy_listings.py OUT_DIR
"""
import re
import sys

from legacy_listing_writer import K
from legacy_memory_kernels import aos, offset_kernel, soa, strided, transpose_naive, transpose_shared, unroll_kernel
from legacy_persist_kernels import persist_kernel, persist_loop
from legacy_timing_kernels import chase, empty_kernel, fma_chain


def kepler():
    offset_kernel("_Z10readOffsetPKfS0_Pfii")
    offset_kernel("_Z12readOffsetNCPKfS0_Pfii", nc=True)
    offset_kernel("_Z11writeOffsetPKfS0_Pfii", write=True)
    for u in (1, 2, 4, 8):
        unroll_kernel(u)
    strided()
    aos()
    soa()
    transpose_naive()
    transpose_shared(0)
    transpose_shared(1)
    fma_chain(1)
    fma_chain(4)
    chase()
    persist_kernel()
    empty_kernel()
    persist_loop()
    return K


def fermi(lines):
    """Fermi (sm_20) differs from the Kepler listing in: parameters at c[0x0][0x20] (not 0x140),
    blockDim.x at c[0x0][0x8] (not 0x28), the stack pointer from c[0x1][0x100], no funnel
    shifter (SHF -> SHL/SHR) and no scheduling words between instructions."""
    out = []
    for line in lines:
        line = re.sub(r"c\[0x0\]\[0x28\]", "c[0x0][0x8]", line)
        line = re.sub(r"c\[0x0\]\[0x1([4-9a-f][0-9a-f])\]", lambda m: f"c[0x0][{int('1' + m.group(1), 16) - 0x120:#x}]", line)
        line = line.replace("MOV R1, c[0x0][0x44]", "MOV R1, c[0x1][0x100]")
        line = line.replace("SHF.R.S32.HI R3, RZ, 0x1f, R2", "SHR R3, R2, 0x1f")
        line = line.replace("SHF.R.S32.HI R7, RZ, 0x1f, R6", "SHR R7, R6, 0x1f")
        line = line.replace("SHF.L.U64 R3, R4, 0x2, R5", "SHL R3, R5, 0x2")
        out.append(line)
    return out


HEADER = ("// {what}: a plausible listing of calibration/kernels.cu, written by\n"
          "// traces/kernels/tools/legacy_listings.py (not cuobjdump output; README.md lists the assumptions).\n")

if __name__ == "__main__":
    outdir = sys.argv[1]
    k = kepler()
    open(f"{outdir}/sm_35.sass", "w").write(HEADER.format(what="sm_35 (Kepler GK110)") + "\n".join(k) + "\n")
    open(f"{outdir}/sm_20.sass", "w").write(HEADER.format(what="sm_20 (Fermi GF100)") + "\n".join(fermi(k)) + "\n")
