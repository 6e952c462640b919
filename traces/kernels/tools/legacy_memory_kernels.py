"""Kepler listings of the memory-access kernels of calibration/kernels.cu: read/write with an
offset (plain, __ldcg, unrolled), strided reads, array of structs vs struct of arrays, and the
naive and shared-memory (padded or not) transposes."""
from legacy_listing_writer import addr64, end, fn, global_index, op, prologue


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
