#pragma once
// The byte-level pieces of .wtrace version 2's block encoding (FORMAT.md) that the writer
// (block_record_builder) and the reader (block_record) share: a static instruction's table
// entry, the code by which an instruction steps through the table, and the address layouts.
#include <cstdint>

#include "traces/instruction.hpp"
#include "traces/wtrace/byte_codec.hpp"

namespace warpsim::traces::wtrace::block_encoding {

// A table entry's flags byte: bits 0-2 Unit, bits 3-4 Control, bit 5 registers follow, bit 6
// memory fields follow.
inline constexpr std::uint8_t kUnitMask = 0x07;
inline constexpr int kControlShift = 3;
inline constexpr std::uint8_t kHasRegisters = 0x20;
inline constexpr std::uint8_t kHasMemoryFields = 0x40;

// An instruction is varint(zigzag(table index - previous index - 1) << 2 | mask mode): a warp
// running straight through its table entries writes 0, one byte per instruction.
inline constexpr std::uint8_t kMaskFull = 0;      // 0xffffffff
inline constexpr std::uint8_t kMaskSame = 1;      // the warp's previous instruction's mask
inline constexpr std::uint8_t kMaskExplicit = 2;  // u32 follows
inline constexpr int kMaskModeBits = 2;

// How the active lanes after the first find their addresses (two or more active lanes).
inline constexpr std::uint8_t kLayoutDeltas = 0;  // one svarint per lane, from the previous active lane
inline constexpr std::uint8_t kLayoutStride = 1;  // one svarint stride for all
inline constexpr std::uint8_t kLayoutGroups = 2;  // u8 g, svarint s, svarint r: k-th lane at (k/g)*r + (k%g)*s

// The register and memory-field parts of an entry (also those of a version 1 instruction).
bool has_registers(const InstructionHead& head);
bool has_memory_fields(const InstructionHead& head);
void encode_registers(const InstructionHead& head, ByteWriter& out);
void decode_registers(ByteReader& in, InstructionHead& head);
void encode_memory_fields(const InstructionHead& head, ByteWriter& out);
void decode_memory_fields(ByteReader& in, InstructionHead& head);

// Writes `head`'s static fields (everything but the active mask and the two address-form flags,
// which decode as false); `prev_pc` is the previous entry's PC, 0 for the first.
void encode_entry(const InstructionHead& head, std::uint32_t& prev_pc, ByteWriter& out);
// Reads one entry into `head` (active mask full, address-form flags false). Throws DecodeError.
void decode_entry(ByteReader& in, std::uint32_t& prev_pc, InstructionHead& head);

}  // namespace warpsim::traces::wtrace::block_encoding
