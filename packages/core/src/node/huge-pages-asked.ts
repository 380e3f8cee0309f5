/// <reference types="node" />
/**
 * Whether `@z/core` in Node advises its large buffers (results, scratch, WebAssembly memory) for
 * 2 MiB pages through `@z/huge-pages`: only when asked, with `Z_HUGE_PAGES=1` in the environment
 * (of the process; its pool threads inherit it). Off by default because it was measured to lose
 * where users meet it first: on this project's 2-core VMs (Intel 2026-12-01, AMD 2026-12-02), the
 * first full reads of a process took 1.6-4× longer with the advice (the host backs each 2 MiB page
 * it has not backed before slowly: ~1 s of system time per 256 MiB). Later reads, into memory
 * the host already backs, gained nothing on one (Intel) and up to 1.8× on the other (AMD: 4 KiB
 * pages cost ~0.25 s of system time per 256 MiB result). Issue 29: on by default only where it
 * wins both; a process doing many large reads can turn it on, or pass `out` to reuse one result.
 */
export function hugePagesAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.Z_HUGE_PAGES === "1";
}
