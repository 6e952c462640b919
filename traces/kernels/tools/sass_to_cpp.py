#!/usr/bin/env python3
"""Turns a cuobjdump-style SASS listing into C++ tables of SassOp (traces/kernels/sass_program.hpp):
each line an Instruction head (all lanes active; constant loads uniform_address) and its hooks.

Usage: sass_to_cpp.py LISTING.sass SM OUT.cpp
  sm_90: ../shared/calibration/h100/kernels.sass (real cuobjdump output of calibration/kernels.cu)
  sm_20, sm_35: traces/kernels/sass/sm_20.sass, sm_35.sass (hand-written, see README.md)

The generated file is committed, so the build never needs Python or the shared folder. What the
script decides for every instruction, and why:
  - unit class from the opcode (table UNITS below; README.md lists the choices);
  - destination registers: the first operand, plus the predicates that directly follow it
    (ISETP P0, PT / IADD3 R2, P0 / LEA R4, P0); everything after is a source;
  - register pairs: .64 address operands, LDC.64 / LDG.E.64 / STG.E.64 data, IMAD.WIDE
    destination and addend, CS2R destination;
  - uniform registers (URn) and the uniform predicate are not in Instruction's register space
    and are dropped; RZ and PT are "no register";
  - the guard predicate (@P0 / @!P0) is a source, so a predicated branch waits for its ISETP;
  - hooks: each guarded EXIT, guarded BRA and other guarded instruction gets an ordinal among
    its kind, each global/shared/local access an ordinal among memory accesses; the kernel's
    logic answers per ordinal (which lanes exit, whether the branch is taken, the addresses).
"""
import re
import sys

UNITS = {
    "Fp32": "FFMA FADD FMUL HFMA2 HADD2 HMUL2 FSETP FMNMX FSEL FCHK FSWZADD FMAD",
    "Fp64": "DFMA DADD DMUL DSETP DMNMX",
    "Sfu": "MUFU",
    "LdSt": "LDG STG LDS STS LDL STL LD ST ATOM ATOMG ATOMS RED LDC",
    "Control": "BRA EXIT BAR NOP BSSY BSYNC WARPSYNC CALL RET JMP SSY SYNC PBK BRK",
    "Tensor": "HMMA IMMA DMMA HGMMA",
    "Int": "IADD3 IADD IMAD IMUL IMNMX ISCADD LOP3 LOP ISETP MOV SHF SHL SHR LEA S2R CS2R I2F I2FP F2I "
           "IABS SEL PLOP3 PSETP VIADD ULDC S2UR USHF UMOV ULEA UIADD3 IMADSP BFE BFI POPC FLO ISUB ISAD IADD32I MOV32I",
}
UNIT_OF = {op: unit for unit, ops in UNITS.items() for op in ops.split()}
GLOBAL_OPS = {"LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED"}
SHARED_OPS = {"LDS", "STS", "ATOMS"}
LOCAL_OPS = {"LDL", "STL"}
STORE_OPS = {"STG", "ST", "STS", "STL"}
ATOMIC_OPS = {"ATOM", "ATOMG", "ATOMS", "RED"}
NO_DST_OPS = STORE_OPS | {"RED", "BRA", "EXIT", "BAR", "NOP", "BSSY", "BSYNC", "WARPSYNC", "CALL", "RET",
                          "JMP", "SSY", "SYNC", "PBK", "BRK"}

REG = re.compile(r"(?<![A-Z_a-z0-9])R(\d+)(\.64)?")
PRED = re.compile(r"^!?P(\d)$")
LINE = re.compile(r"^\s*([0-9a-f]{4,})\s+(?:(@!?P[0-6T])\s+)?([A-Z0-9_.]+)\s*(.*?)\s*;?\s*$")
# Hand-written listings (sm_20, sm_35) leave out the addresses: the script numbers them (8-byte
# instructions; on sm_35 every 64-byte group starts with a scheduling word, so those slots are
# skipped) and resolves `label:` lines used as branch targets.
BARE = re.compile(r"^\s+(?:(@!?P[0-6T])\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;?\s*$")
LABEL = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*):\s*$")


def split_operands(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def regs_of(operand, pair=False):
    regs = []
    for m in REG.finditer(operand):
        r = int(m.group(1))
        regs.append(r)
        if m.group(2) or pair:
            regs.append(r + 1)
    return regs


def parse(path, sm):
    functions, current, labels, pc = [], None, {}, 0
    for raw in open(path):
        line = raw.split("//")[0].rstrip()
        if line.strip().startswith("Function :"):
            current = {"name": line.split(":", 1)[1].strip(), "ops": []}
            functions.append(current)
            labels, pc = {}, 0
            current["labels"] = labels
            continue
        if current is None or not line.strip():
            continue
        m = LINE.match(line)
        has_pc = bool(m)
        if m:
            pc, guard, opcode, rest = int(m.group(1), 16), m.group(2), m.group(3), m.group(4)
        else:
            lm = LABEL.match(line)
            if lm:
                labels[lm.group(1)] = None
                current.setdefault("pending", []).append(lm.group(1))
                continue
            m = BARE.match(line)
            if not m:
                sys.exit(f"cannot parse: {raw.rstrip()}")
            if current["ops"]:
                pc += 8
            if sm == 35 and pc % 0x40 == 0:
                pc += 8
            guard, opcode, rest = m.group(1), m.group(2), m.group(3)
        for name in current.pop("pending", []):
            labels[name] = pc
        text = raw.split("//")[0].strip()
        if not has_pc:
            text = f"{pc:04x}  {text}"
        current["ops"].append({"pc": pc, "guard": guard, "opcode": opcode,
                               "operands": split_operands(rest), "text": text})
    for f in functions:
        for op in f["ops"]:
            if op["opcode"].startswith("BRA") and op["operands"] and op["operands"][0] in f.get("labels", {}):
                op["operands"][0] = hex(f["labels"][op["operands"][0]])
    return functions


def analyse(op, sm):
    base, mods = op["opcode"].split(".")[0], op["opcode"].split(".")[1:]
    if base not in UNIT_OF:
        sys.exit(f"unknown opcode {op['opcode']} in: {op['text']} (add it to UNITS)")
    unit = UNIT_OF[base]
    operands = op["operands"]
    dst, src, pdst, psrc = [], [], [], []
    wide64 = "64" in mods or "WIDE" in mods
    first_src = 0
    if base not in NO_DST_OPS and operands:
        d = operands[0]
        pm = PRED.match(d)
        if pm:
            pdst.append(int(pm.group(1)))
        elif d != "PT":
            dst += regs_of(d, pair=(wide64 and base in {"LDC", "LDG", "LD", "LDS", "LDL", "IMAD"}) or base == "CS2R")
        first_src = 1
        while first_src < len(operands) and (PRED.match(operands[first_src]) or operands[first_src] == "PT"):
            pm = PRED.match(operands[first_src])
            if pm:
                pdst.append(int(pm.group(1)))
            first_src += 1
    for i, o in enumerate(operands[first_src:]):
        pm = PRED.match(o)
        if pm:
            psrc.append(int(pm.group(1)))
            continue
        last = i == len(operands[first_src:]) - 1
        pair = (base == "IMAD" and "WIDE" in mods and last) or \
               (base in STORE_OPS | ATOMIC_OPS and "64" in mods and "[" not in o) or \
               ("E" in mods and base in GLOBAL_OPS and "[" in o)
        src += regs_of(o, pair=pair)
    if op["guard"] and op["guard"] not in ("@PT",):
        psrc.append(int(op["guard"][-1]))
    dsts = dst + [256 + p for p in pdst]
    srcs = []
    for r in src + [256 + p for p in psrc]:
        if r not in srcs:
            srcs.append(r)
    if len(dsts) > 2 or len(srcs) > 5:
        sys.exit(f"too many operands for Instruction in: {op['text']}")
    space, memop, cache, width, const_off = "None", "None", "Default", 0, 0
    if unit == "LdSt":
        if base == "LDC":
            space = "Constant"
            cm = re.search(r"c\[0x0\]\[(0x[0-9a-f]+|RZ)\]", " ".join(operands))
            const_off = 0 if not cm or cm.group(1) == "RZ" else int(cm.group(1), 16)
        elif base in SHARED_OPS:
            space = "Shared"
        elif base in LOCAL_OPS:
            space = "Local"
        else:
            space = "Global"
        memop = "Store" if base in STORE_OPS else "Atomic" if base in ATOMIC_OPS else "Load"
        width = 16 if "128" in mods else 8 if "64" in mods else 2 if ("U16" in mods or "S16" in mods) \
            else 1 if ("U8" in mods or "S8" in mods) else 4
        if "CG" in mods or ("STRONG" in mods and "GPU" in mods):
            cache = "Global"          # L2 only (S3.3): __ldcg, ld.global.cg
        elif "CONSTANT" in mods or (sm == 35 and base == "LDG"):
            cache = "ReadOnly"        # read-only / texture path (S3.6): __ldg on Kepler is LDG
        elif "EF" in mods or "CS" in mods:
            cache = "Streaming"
    control = "Exit" if base == "EXIT" else "Barrier" if base == "BAR" else "None"
    guarded = bool(op["guard"]) and op["guard"] != "@PT"
    if base == "EXIT":
        kind = "GuardedExit" if guarded else "Exit"
    elif base == "BRA":
        kind = "CondBranch" if guarded else "Branch"
    else:
        kind = "Predicated" if guarded else "Plain"
    target = int(operands[0], 16) if base == "BRA" else 0
    return dict(unit=unit, control=control, kind=kind, dst=dsts, src=srcs, space=space, memop=memop,
                cache=cache, width=width, const_off=const_off, target=target,
                maxreg=max([r for r in dst + src if r < 255] or [0]))


def main():
    listing, sm, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    functions = parse(listing, sm)
    lines = [f"// Generated by traces/kernels/tools/sass_to_cpp.py from {listing.split('/work/')[-1]} (sm_{sm}).",
             "// Do not edit: change the listing or the script and run it again.",
             '#include "traces/kernels/sass_program.hpp"', "",
             "namespace warpsim::traces::kernels {", "namespace {", ""]
    table = []
    for f in functions:
        ident = "k" + re.sub(r"\W", "_", f["name"])
        index_of = {op["pc"]: i for i, op in enumerate(f["ops"])}
        ordinals = {"GuardedExit": 0, "CondBranch": 0, "Predicated": 0}
        mem_ordinal, maxreg = 0, 0
        lines.append(f"constexpr SassOp {ident}[] = {{")
        for op in f["ops"]:
            a = analyse(op, sm)
            maxreg = max(maxreg, a["maxreg"])
            hook = 0
            if a["kind"] in ordinals:
                hook = ordinals[a["kind"]]
                ordinals[a["kind"]] += 1
            mem = 0
            if a["memop"] != "None" and a["space"] != "Constant":
                mem = mem_ordinal
                mem_ordinal += 1
            target = index_of.get(a["target"], 0) if a["kind"] in ("Branch", "CondBranch") else 0
            regs = lambda rs, n: "{" + ", ".join([str(r) for r in rs] + ["kNoReg"] * (n - len(rs))) + "}"
            text = op["text"].replace("\\", "\\\\").replace('"', '\\"')
            lines.append(
                f"    {{{{0x{op['pc']:04x}, kFullMask, Unit::{a['unit']}, Control::{a['control']}, "
                f"{len(a['dst'])}, {len(a['src'])}, {regs(a['dst'], 2)}, {regs(a['src'], 5)}, "
                f"MemSpace::{a['space']}, MemOp::{a['memop']}, CacheOp::{a['cache']}, {a['width']}, "
                f"{'true' if a['space'] == 'Constant' else 'false'}}}, OpKind::{a['kind']}, "
                f"{hook}, {mem}, {target}, 0x{a['const_off']:x}, \"{text}\"}},")
        lines.append("};")
        lines.append("")
        table.append(f'    {{"{f["name"]}", {ident}, {maxreg + 1}}},')
    lines.append("}  // namespace")
    lines.append("")
    lines.append(f"const std::vector<SassProgram>& sass_programs_sm{sm}() {{")
    lines.append("  static const std::vector<SassProgram> programs{")
    lines += table
    lines.append("  };")
    lines.append("  return programs;")
    lines.append("}")
    lines.append("")
    lines.append("}  // namespace warpsim::traces::kernels")
    open(out, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
