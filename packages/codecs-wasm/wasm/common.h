/*
 * What every C file of this package's WebAssembly modules shares: fixed-width names, the export
 * attribute, and unaligned little-endian loads and 16-byte copies (WebAssembly allows unaligned
 * access, and is little-endian).
 */
#ifndef Z_COMMON_H
#define Z_COMMON_H

#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

typedef uint8_t u8;
typedef uint16_t u16;
typedef int16_t i16;
typedef uint32_t u32;
typedef uint64_t u64;

static inline u16 rd16(const u8 *p) {
  u16 v;
  __builtin_memcpy(&v, p, 2);
  return v;
}
static inline u32 rd32(const u8 *p) {
  u32 v;
  __builtin_memcpy(&v, p, 4);
  return v;
}
static inline u64 rd64(const u8 *p) {
  u64 v;
  __builtin_memcpy(&v, p, 8);
  return v;
}
static inline void copy16(u8 *d, const u8 *s) { wasm_v128_store(d, wasm_v128_load(s)); }

#endif
