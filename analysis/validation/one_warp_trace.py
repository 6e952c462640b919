"""A one-warp Accel-Sim trace for the analysis scripts that set the model beside a GPU probe's
single warp (refresh_gather.py, row_pairs.py): one block of 32 threads, the given SASS lines."""
import os

HEADER = """-kernel name = {name}
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 16
-binary version = 90
-cuda stream id = 0
-shmem base_addr = 0x00007fee00000000
-local mem base_addr = 0x00007fed2d000000
-nvbit version = 1.7.7.1
-accelsim tracer version = 5
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate

#BEGIN_TB

thread block = 0,0,0

warp = 0
"""


def write_one_warp_trace(directory, name, lines):
    """DIRECTORY/kernel-1.traceg (warp 0 runs `lines`, its EXIT among them) and its kernelslist.g."""
    with open(os.path.join(directory, "kernel-1.traceg"), "w") as f:
        f.write(HEADER.format(name=name) + f"insts = {len(lines)}\n" + "\n".join(lines) + "\n\n#END_TB\n")
    with open(os.path.join(directory, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
