#ifndef HEALTHLOG_CRC32C_H
#define HEALTHLOG_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// The CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `count` bytes at `bytes`,
/// continuing from `seed` (the CRC of what came before, or 0). Uses the CPU's CRC-32C
/// instruction (SSE4.2 on x86-64, the CRC extension on ARMv8) when it has one, else a
/// slicing-by-8 table. On x86-64, inputs of 768 bytes or more are taken as three runs side
/// by side, whose CRCs are joined.
uint32_t healthlog_crc32c(uint32_t seed, const void *bytes, size_t count);

/// The same CRC computed with the table only, whatever the CPU: the reference the
/// instruction path is tested against.
uint32_t healthlog_crc32c_table(uint32_t seed, const void *bytes, size_t count);

/// Whether `healthlog_crc32c` uses a CPU instruction on this machine.
int healthlog_crc32c_uses_instruction(void);

#endif
