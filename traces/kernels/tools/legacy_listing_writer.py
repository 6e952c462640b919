"""The Kepler listing as legacy_listings.py writes it: the lines so far (K), the emitters every
kernel function uses (fn, op, label, end) and Kepler's calling idioms (the stack pointer
prologue, 64-bit addresses of pointer parameters, the global thread index)."""

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
