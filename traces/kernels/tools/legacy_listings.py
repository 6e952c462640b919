#!/usr/bin/env python3
"""Writes sass/sm_35.sass (Kepler) and sass/sm_20.sass (Fermi): plausible listings of
calibration/kernels.cu for ISAs we have no cuobjdump output of. See README.md for what they
assume. Each function keeps the sm_90 listing's hooks (memory access order, guarded EXITs,
guarded branches, guarded instructions; traces/kernels/*.cpp say which is which), so one
kernel logic drives all three ISAs. Kepler is written out; Fermi is derived from it by the
differences listed in fermi() below.

Usage: legacy_listings.py OUT_DIR
"""
import re
import sys

K = []  # lines of the Kepler listing


def fn(name):
    K.append(f"Function : {name}")


def op(text):
    K.append("        " + text)


def label(name):
    K.append(f"{name}:")


def end():
    label("L_end_" + str(len(K)))
    op(f"BRA L_end_{len(K) - 1}")


# Kepler constant bank 0: kernel parameters from 0x140, ntid.x at 0x28, stack pointer at 0x44.
def prologue():
    op("MOV R1, c[0x0][0x44]")


def addr64(dst, idx, param, signed=False):
    """dst:dst+1 = param + 4 * idx (the pointer parameter at c[0x0][param])."""
    op(f"ISCADD R{dst}.CC, R{idx}, c[0x0][{param:#x}], 0x2")
    op(f"IMAD.{'HI' if signed else 'U32.U32.HI'}.X R{dst + 1}, R{idx}, 0x4, c[0x0][{param + 4:#x}]")


def global_index(dst, tmp):
    op(f"S2R R{dst}, SR_CTAID.X")
    op(f"S2R R{tmp}, SR_TID.X")
    op(f"IMAD R{dst}, R{dst}, c[0x0][0x28], R{tmp}")


def offset_kernel(name, nc=False, write=False):
    # (A 0x140, B 0x148, C 0x150, n 0x158, offset 0x15c)
    fn(name)
    prologue()
    global_index(0, 3)
    op("IADD R2, R0, c[0x0][0x15c]")
    op("ISETP.GE.U32.AND P0, PT, R2, c[0x0][0x158], PT")
    op("@P0 EXIT")
    load_idx = 0 if write else 2
    store_idx = 2 if write else 0
    addr64(4, load_idx, 0x140)
    addr64(6, load_idx, 0x148)
    ld = "LD.E.CG" if nc else "LD.E"
    op(f"{ld} R4, [R4]")
    op(f"{ld} R6, [R6]")
    addr64(8, store_idx, 0x150)
    op("FADD R0, R4, R6")
    op("ST.E [R8], R0")
    op("EXIT")
    end()


def unroll_kernel(u):
    fn(f"_Z16readOffsetUnrollILi{u}EEvPKfS1_Pfii")
    prologue()
    op("S2R R0, SR_CTAID.X")
    op("S2R R3, SR_TID.X")
    op(f"IMUL R0, R0, c[0x0][0x28]")
    if u > 1:
        op(f"SHL R0, R0, {u.bit_length() - 1:#x}")
    op("IADD R0, R0, R3")                        # i
    op("IADD R2, R0, c[0x0][0x15c]")             # k
    if u > 1:
        op(f"IMAD R3, R{'3'}, RZ, c[0x0][0x28]")   # blockDim.x
        op(f"IMAD R5, R3, {u - 1:#x}, R2")
    else:
        op("MOV R5, R2")
    op("ISETP.GE.U32.AND P0, PT, R5, c[0x0][0x158], PT")
    op("@P0 EXIT")
    for j in range(u):
        addr64(4, 2, 0x140)
        addr64(6, 2, 0x148)
        op("LD.E R4, [R4]")
        op("LD.E R6, [R6]")
        addr64(8, 0, 0x150)
        op("FADD R10, R4, R6")
        op("ST.E [R8], R10")
        if j + 1 < u:
            op("IADD R2, R2, R3")
            op("IADD R0, R0, R3")
    op("EXIT")
    end()


def strided():
    # (in 0x140, out 0x148, n 0x150, stride 0x154)
    fn("_Z11stridedReadPKfPfii")
    prologue()
    global_index(0, 3)
    op("MOV R2, c[0x0][0x154]")
    op("SHF.R.S32.HI R3, RZ, 0x1f, R2")
    op("IMUL.U32.U32.HI R5, R0, R2")
    op("IMUL R4, R0, R2")
    op("IMAD R5, R0, R3, R5")
    op("MOV R6, c[0x0][0x150]")
    op("SHF.R.S32.HI R7, RZ, 0x1f, R6")
    op("ISETP.GE.U32.AND P0, PT, R4, R6, PT")
    op("ISETP.GE.U32.AND.X P0, PT, R5, R7, P0")
    op("@P0 EXIT")
    op("SHF.L.U64 R3, R4, 0x2, R5")
    op("ISCADD R2.CC, R4, c[0x0][0x140], 0x2")
    op("IADD.X R3, R3, c[0x0][0x144]")
    op("LD.E R2, [R2]")
    addr64(4, 0, 0x148)
    op("ST.E [R4], R2")
    op("EXIT")
    end()


def aos():
    # (data 0x140, result 0x148, n 0x150)
    fn("_Z15testInnerStructPK11innerStructPS_i")
    prologue()
    global_index(0, 3)
    op("ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x150], PT")
    op("@P0 EXIT")
    op("ISCADD R2.CC, R0, c[0x0][0x140], 0x3")
    op("IMAD.U32.U32.HI.X R3, R0, 0x8, c[0x0][0x144]")
    op("LD.E R4, [R2]")
    op("LD.E R5, [R2+0x4]")
    op("ISCADD R6.CC, R0, c[0x0][0x148], 0x3")
    op("IMAD.U32.U32.HI.X R7, R0, 0x8, c[0x0][0x14c]")
    op("FADD R4, R4, 10")
    op("FADD R5, R5, 20")
    op("ST.E [R6], R4")
    op("ST.E [R6+0x4], R5")
    op("EXIT")
    end()


def soa():
    # (dx 0x140, dy 0x148, rx 0x150, ry 0x158, n 0x160)
    fn("_Z14testInnerArrayPKfS0_PfS1_i")
    prologue()
    global_index(0, 3)
    op("ISETP.GE.U32.AND P0, PT, R0, c[0x0][0x160], PT")
    op("@P0 EXIT")
    addr64(2, 0, 0x140)
    op("LD.E R2, [R2]")
    addr64(4, 0, 0x150)
    op("FADD R2, R2, 10")
    op("ST.E [R4], R2")
    addr64(6, 0, 0x148)
    op("LD.E R6, [R6]")
    addr64(8, 0, 0x158)
    op("FADD R6, R6, 20")
    op("ST.E [R8], R6")
    op("EXIT")
    end()


def transpose_coords():
    op("S2R R0, SR_CTAID.X")
    op("S2R R2, SR_TID.X")
    op("S2R R3, SR_CTAID.Y")
    op("S2R R4, SR_TID.Y")
    op("ISCADD R5, R0, R2, 0x5")                   # x
    op("ISCADD R6, R3, R4, 0x5")                   # y
    op("MOV R7, c[0x0][0x150]")                    # w


def transpose_naive():
    # (out 0x140, in 0x148, w 0x150)
    fn("_Z14transposeNaivePfPKfi")
    prologue()
    transpose_coords()
    op("IMAD R8, R6, R7, R5")                      # (y) * w + x
    op("IMAD R9, R5, R7, R6")                      # x * w + y
    op("SHL R10, R7, 0x3")                         # 8 w
    for j in range(4):
        if j:
            op("IADD R8, R8, R10")
        addr64(12, 8, 0x148, signed=True)
        op(f"LD.E R11, [R12]")
        addr64(14, 9, 0x140, signed=True)
        op(f"ST.E [R14{'+' + hex(32 * j) if j else ''}], R11")
    op("EXIT")
    end()


def transpose_shared(pad):
    pitch = 4 * (32 + pad)
    fn(f"_Z15transposeSharedILi{pad}EEvPfPKfi")
    prologue()
    transpose_coords()
    op("IMAD R8, R6, R7, R5")
    op("SHL R10, R7, 0x3")
    for j in range(4):
        if j:
            op("IADD R8, R8, R10")
        addr64(12 + 2 * j, 8, 0x148, signed=True)
    for j in range(4):
        op(f"LD.E R{20 + j}, [R{12 + 2 * j}]")
    op(f"IMUL R9, R4, {pitch:#x}")
    op("ISCADD R9, R2, R9, 0x2")                   # &tile[ty][tx]
    for j in range(4):
        op(f"STS [R9{'+' + hex(8 * pitch * j) if j else ''}], R{20 + j}")
    op("BAR.SYNC 0x0")
    op(f"IMUL R9, R2, {pitch:#x}")
    op("ISCADD R9, R4, R9, 0x2")                   # &tile[tx][ty]
    for j in range(4):
        op(f"LDS R{20 + j}, [R9{'+' + hex(32 * j) if j else ''}]")
    op("ISCADD R5, R3, R2, 0x5")                   # x' = by*32 + tx
    op("ISCADD R6, R0, R4, 0x5")                   # y' = bx*32 + ty
    op("IMAD R8, R6, R7, R5")
    for j in range(4):
        if j:
            op("IADD R8, R8, R10")
        addr64(12, 8, 0x140, signed=True)
        op(f"ST.E [R12], R{20 + j}")
    op("EXIT")
    end()


def counted_loop(count_reg, rest_reg, body, head=lambda: None):
    """The 16/8/4/1 unrolled skeleton of unrolled_loop.hpp: branches 0-9 in the same order."""
    op(f"ISETP.GE.AND P0, PT, R{count_reg}, 0x1, PT")
    op("@!P0 BRA L_done")                                        # 0
    op(f"IADD R{rest_reg + 1}, R{count_reg}, -0x1")
    op(f"LOP.AND R{rest_reg}, R{count_reg}, 0x3")
    op(f"ISETP.GE.U32.AND P0, PT, R{rest_reg + 1}, 0x3, PT")
    op("@!P0 BRA L_rest")                                        # 1
    op(f"ISUB R{rest_reg + 1}, R{count_reg}, R{rest_reg}")
    op(f"ISETP.GT.AND P0, PT, R{rest_reg + 1}, RZ, PT")
    op("@!P0 BRA L_by4_head")                                    # 2
    op(f"ISETP.GT.AND P1, PT, R{rest_reg + 1}, 0xc, PT")
    op("PSETP.AND.AND P0, PT, PT, PT, PT")
    op("@!P1 BRA L_by8")                                         # 3
    label("L_by16")
    head()
    op("PSETP.AND.AND P0, PT, !PT, PT, PT")
    op(f"IADD R{rest_reg + 1}, R{rest_reg + 1}, -0x10")
    body(16)
    op(f"ISETP.GT.AND P1, PT, R{rest_reg + 1}, 0xc, PT")
    op("@P1 BRA L_by16")                                         # 4
    label("L_by8")
    op(f"ISETP.GT.AND P1, PT, R{rest_reg + 1}, 0x4, PT")
    op("@!P1 BRA L_by8_done")                                    # 5
    head()
    op("PSETP.AND.AND P0, PT, !PT, PT, PT")
    op(f"IADD R{rest_reg + 1}, R{rest_reg + 1}, -0x8")
    body(8)
    label("L_by8_done")
    op(f"ISETP.NE.OR P0, PT, R{rest_reg + 1}, RZ, P0")
    op("@!P0 BRA L_rest")                                        # 6
    label("L_by4_head")
    head()
    label("L_by4")
    op(f"IADD R{rest_reg + 1}, R{rest_reg + 1}, -0x4")
    body(4)
    op(f"ISETP.NE.AND P0, PT, R{rest_reg + 1}, RZ, PT")
    op("@P0 BRA L_by4")                                          # 7
    label("L_rest")
    op(f"ISETP.NE.AND P0, PT, R{rest_reg}, RZ, PT")
    op("@!P0 BRA L_done")                                        # 8
    head()
    label("L_rest_loop")
    op(f"IADD R{rest_reg}, R{rest_reg}, -0x1")
    body(1)
    op(f"ISETP.NE.AND P0, PT, R{rest_reg}, RZ, PT")
    op("@P0 BRA L_rest_loop")                                    # 9
    label("L_done")


def fma_chain(ilp):
    # (out 0x140, iters 0x148); chains in R10.. R13, constant 0.9999 in R4
    fn(f"_Z8fmaChainILi{ilp}EEvPfi")
    prologue()
    op("S2R R0, SR_TID.X")
    op("MOV R2, c[0x0][0x148]")
    op("I2F.F32.U32 R3, R0")
    for j in range(ilp):
        op(f"FFMA R{10 + j}, R3, 0.0010000000474974513054, {j}")

    def body(n):
        for _ in range(n):
            for j in range(ilp):
                op(f"FFMA R{10 + j}, R{10 + j}, R4, 9.9999997473787516356e-05")

    counted_loop(2, 6, body, head=lambda: op("MOV32I R4, 0x3f7ff972"))
    op("S2R R5, SR_CTAID.X")
    op("FADD R7, RZ, R10")
    for j in range(1, ilp):
        op(f"FADD R7, R7, R{10 + j}")
    op("IMAD R5, R5, c[0x0][0x28], R0")
    addr64(8, 5, 0x140)
    op("ST.E [R8], R7")
    op("EXIT")
    end()


def chase():
    # (next 0x140, start 0x148, steps 0x14c, sink 0x150, cycles 0x158)
    fn("_Z5chasePKjjiPjPx")
    prologue()
    op("MOV R0, c[0x0][0x148]")
    op("S2R R2, SR_CLOCKLO")
    op("S2R R3, SR_CLOCKHI")
    op("MOV R5, c[0x0][0x14c]")

    def body(n):
        for _ in range(n):
            addr64(8, 0, 0x140)
            op("LD.E R0, [R8]")

    counted_loop(5, 6, body)
    op("S2R R8, SR_CLOCKLO")
    op("S2R R9, SR_CLOCKHI")
    op("IADD R2.CC, -R2, R8")
    op("IADD.X R3, ~R3, R9")
    op("MOV R4, c[0x0][0x150]")
    op("MOV R5, c[0x0][0x154]")
    op("ST.E [R4], R0")
    op("MOV R6, c[0x0][0x158]")
    op("MOV R7, c[0x0][0x15c]")
    op("ST.E.64 [R6], R2")
    op("EXIT")
    end()


def signed_mod(dst, x, divisor_param, t):
    """dst = x % c[divisor] as ptxas expands it; 4 guarded instructions (hooks: 1st and 2nd
    correction, negative dividend, zero divisor), as int_modulo.hpp describes."""
    op(f"MOV R{t}, c[0x0][{divisor_param:#x}]")
    op(f"IABS R{t + 1}, R{t}")
    op(f"I2F.F32.U32.RP R{t + 2}, R{t + 1}")
    op(f"MUFU.RCP R{t + 2}, R{t + 2}")
    op(f"IADD32I R{t + 2}, R{t + 2}, 0xffffffe")
    op(f"F2I.FTZ.U32.F32.TRUNC R{t + 3}, R{t + 2}")
    op(f"IMUL R{t + 2}, R{t + 3}, R{t + 1}")
    op(f"IADD R{t + 2}, RZ, -R{t + 2}")
    op(f"IMUL.U32.U32.HI R{t + 2}, R{t + 3}, R{t + 2}")
    op(f"IADD R{t + 3}, R{t + 3}, R{t + 2}")
    op(f"IABS R{dst}, R{x}")
    op(f"IMUL.U32.U32.HI R{t + 2}, R{t + 3}, R{dst}")
    op(f"IMAD R{dst}, -R{t + 2}, R{t + 1}, R{dst}")
    op(f"ISETP.GT.U32.AND P0, PT, R{t + 1}, R{dst}, PT")
    op(f"@!P0 IADD R{dst}, R{dst}, -R{t + 1}")
    op(f"ISETP.GT.U32.AND P0, PT, R{t + 1}, R{dst}, PT")
    op(f"@!P0 IADD R{dst}, R{dst}, -R{t + 1}")
    op(f"ISETP.GE.AND P1, PT, R{x}, RZ, PT")
    op(f"@!P1 IADD R{dst}, RZ, -R{dst}")
    op(f"ISETP.NE.AND P2, PT, R{t}, RZ, PT")
    op(f"@!P2 LOP.PASS_B R{dst}, RZ, ~R{t}")


def persist_kernel():
    # (persistent 0x140, streaming 0x148, dataSize 0x150, freqSize 0x154)
    fn("_Z13persistKernelPiS_ii")
    prologue()
    global_index(0, 3)
    signed_mod(2, 0, 0x154, 10)
    addr64(4, 2, 0x140, signed=True)
    op("LD.E R2, [R4]")
    signed_mod(3, 0, 0x150, 10)
    addr64(6, 3, 0x148, signed=True)
    op("SHL R2, R2, 0x1")
    op("ST.E [R4], R2")
    op("LD.E R3, [R6]")
    op("SHL R3, R3, 0x1")
    op("ST.E [R6], R3")
    op("EXIT")
    end()


def empty_kernel():
    fn("_Z11emptyKernelPi")
    prologue()
    op("S2R R0, SR_TID.X")
    op("ISETP.NE.AND P0, PT, R0, 0x3ff, PT")
    op("@P0 EXIT")
    op("MOV R2, c[0x0][0x140]")
    op("MOV R3, c[0x0][0x144]")
    op("MOV32I R0, 0x1")
    op("ST.E [R2], R0")
    op("EXIT")
    end()


def persist_loop():
    # (persistent 0x140, freqSize 0x148, iters 0x14c, out 0x150). Hooks as persist_loop.cpp.
    fn("_Z11persistLoopPiiiS_")
    prologue()
    op("MOV R15, c[0x0][0x14c]")
    op("ISETP.GE.AND P0, PT, R15, 0x1, PT")
    op("@!P0 EXIT")                                              # exit 0
    global_index(9, 3)
    op("MOV R6, RZ")                                             # acc
    op("MOV R7, RZ")                                             # it
    op("LOP.AND R8, R15, 0x3")
    op("IADD R0, R15, -0x1")
    op("ISETP.GE.U32.AND P1, PT, R0, 0x3, PT")
    op("@!P1 BRA L_rest")                                        # branch 0
    op("ISUB R14, R15, R8")
    label("L_by4")
    # it+0..3 indices; remainders in R20..R23; guarded: 1st(it0), 2nd(it0), 1st(it1), 1st(it2),
    # 1st(it3), neg(it0), 2nd(it1), 2nd(it2), neg(it1), 2nd(it3), neg(it3), neg(it2)
    op("IMAD R16, R7, 0x1eef, R9")
    op("IADD32I R17, R16, 0x1eef")
    op("IADD32I R18, R16, 0x3dde")
    op("IADD32I R19, R16, 0x5ccd")
    op("MOV R10, c[0x0][0x148]")
    op("IABS R11, R10")
    op("I2F.F32.U32.RP R12, R11")
    op("MUFU.RCP R12, R12")
    op("IADD32I R12, R12, 0xffffffe")
    op("F2I.FTZ.U32.F32.TRUNC R13, R12")
    op("IMUL R12, R13, R11")
    op("IADD R12, RZ, -R12")
    op("IMUL.U32.U32.HI R12, R13, R12")
    op("IADD R13, R13, R12")
    for k in range(4):
        op(f"IABS R{20 + k}, R{16 + k}")
        op(f"IMUL.U32.U32.HI R12, R13, R{20 + k}")
        op(f"IMAD R{20 + k}, -R12, R11, R{20 + k}")
        op(f"ISETP.GT.U32.AND P{k + 1}, PT, R11, R{20 + k}, PT")
    op("@!P1 IADD R20, R20, -R11")
    op("ISETP.GT.U32.AND P1, PT, R11, R20, PT")
    op("@!P1 IADD R20, R20, -R11")
    op("@!P2 IADD R21, R21, -R11")
    op("@!P3 IADD R22, R22, -R11")
    op("@!P4 IADD R23, R23, -R11")
    op("ISETP.GE.AND P1, PT, R16, RZ, PT")
    op("@!P1 IADD R20, RZ, -R20")
    op("ISETP.GT.U32.AND P2, PT, R11, R21, PT")
    op("@!P2 IADD R21, R21, -R11")
    op("ISETP.GT.U32.AND P3, PT, R11, R22, PT")
    op("@!P3 IADD R22, R22, -R11")
    op("ISETP.GE.AND P2, PT, R17, RZ, PT")
    op("@!P2 IADD R21, RZ, -R21")
    op("ISETP.GT.U32.AND P4, PT, R11, R23, PT")
    op("@!P4 IADD R23, R23, -R11")
    op("ISETP.GE.AND P4, PT, R19, RZ, PT")
    op("@!P4 IADD R23, RZ, -R23")
    op("ISETP.GE.AND P3, PT, R18, RZ, PT")
    op("@!P3 IADD R22, RZ, -R22")
    for k in (0, 1, 3, 2):
        addr64(2 + 2 * k, 20 + k, 0x140, signed=True)
    for k in (0, 1, 3, 2):
        op(f"LD.E R{24 + k}, [R{2 + 2 * k}]")
    op("IADD R7, R7, 0x4")
    op("ISETP.NE.AND P1, PT, R7, R14, PT")
    op("IADD R6, R6, R24")
    op("IADD R6, R6, R25")
    op("IADD R6, R6, R26")
    op("IADD R6, R6, R27")
    op("@P1 BRA L_by4")                                          # branch 1
    label("L_rest")
    op("ISETP.NE.AND P0, PT, R8, RZ, PT")
    op("@!P0 BRA L_check")                                       # branch 2
    op("IMAD R16, R7, 0x1eef, R9")
    label("L_rest_loop")
    signed_mod(20, 16, 0x148, 10)
    addr64(2, 20, 0x140, signed=True)
    op("LD.E R24, [R2]")
    op("IADD R8, R8, -0x1")
    op("IADD32I R16, R16, 0x1eef")
    op("ISETP.NE.AND P0, PT, R8, RZ, PT")
    op("IADD R6, R6, R24")
    op("@P0 BRA L_rest_loop")                                    # branch 3
    label("L_check")
    op("ISETP.NE.AND P0, PT, R6, 0x7fffffff, PT")
    op("@P0 EXIT")                                               # exit 1
    op("MOV R2, c[0x0][0x150]")
    op("MOV R3, c[0x0][0x154]")
    op("MOV32I R5, 0x7fffffff")
    op("ST.E [R2], R5")
    op("EXIT")
    end()


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
