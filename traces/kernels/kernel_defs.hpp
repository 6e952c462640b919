#pragma once
// One function per kernel file, each returning its library entry; library.cpp lists them.
#include "traces/kernels/library.hpp"

namespace warpsim::traces::kernels {

KernelDef read_offset_def();          // read_offset.cpp
KernelDef read_offset_nc_def();       // read_offset.cpp
KernelDef write_offset_def();         // read_offset.cpp
KernelDef read_offset_unroll_def();   // read_offset_unroll.cpp
KernelDef strided_read_def();         // strided_read.cpp
KernelDef test_inner_struct_def();    // inner_struct.cpp
KernelDef test_inner_array_def();     // inner_struct.cpp
KernelDef transpose_naive_def();      // transpose.cpp
KernelDef transpose_shared_def();     // transpose.cpp
KernelDef fma_chain_def();            // fma_chain.cpp
KernelDef chase_def();                // chase.cpp
KernelDef persist_kernel_def();       // persist_kernel.cpp
KernelDef empty_kernel_def();         // empty_kernel.cpp
KernelDef persist_loop_def();         // persist_loop.cpp

}  // namespace warpsim::traces::kernels
