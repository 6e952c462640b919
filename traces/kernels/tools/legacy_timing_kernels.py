"""Kepler listings of the kernels of calibration/kernels.cu that time one thing: FMA chains
(latency or ILP), the pointer chase (load latency) and the empty kernel (launch overhead); with
counted_loop, the unrolling skeleton the two loops share."""
from legacy_listing_writer import addr64, end, fn, label, op, prologue


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
