/*
 * One WebAssembly module of this package, compiled and instantiated on first use. Where
 * WebAssembly (or its SIMD) is unavailable, or the module fails to load, `load` resolves to
 * `undefined` and callers use their TypeScript paths.
 */
import { adviseLargeBuffer } from "@z/codecs/define";

/** What every module of this package exports besides its functions. */
export interface ModuleExports {
  readonly memory: WebAssembly.Memory;
  readonly __heap_base: WebAssembly.Global;
}

/** An instance and where free memory starts in it. */
export interface Instance<E extends ModuleExports> {
  readonly exports: E;
  readonly heapBase: number;
}

export class LazyWasm<E extends ModuleExports> {
  readonly #base64: () => string | Promise<string>;
  #compiled: Promise<WebAssembly.Module | undefined> | undefined;
  #current: Instance<E> | undefined;
  #pending: Promise<Instance<E> | undefined> | undefined;
  #unavailable = false;
  #disabled = false;
  /** Memory above this is given back after use (by dropping the instance). */
  keepMemory: number;

  /** `base64` gives the module's bytes (it may import them, so they load only when needed). */
  constructor(base64: () => string | Promise<string>, keepMemory: number) {
    this.#base64 = base64;
    this.keepMemory = keepMemory;
  }

  /** The instance if it is ready now (else `undefined`; see `load`). */
  ready(): Instance<E> | undefined {
    return this.#disabled ? undefined : this.#current;
  }

  /** Whether loading was tried and failed, or the module is turned off. */
  unavailable(): boolean {
    return this.#disabled || this.#unavailable;
  }

  /**
   * `run` with the instance: at once when it is ready, after loading it otherwise; `fallback`
   * where it is unavailable.
   */
  use<T>(run: (instance: Instance<E>) => T | Promise<T>, fallback: () => T | Promise<T>): T | Promise<T> {
    const ready = this.ready();
    if (ready !== undefined) return run(ready);
    if (this.unavailable()) return fallback();
    return this.load().then((loaded) => (loaded !== undefined ? run(loaded) : fallback()));
  }

  /** Instantiates the module (once); resolves to `undefined` where it cannot load. */
  load(): Promise<Instance<E> | undefined> {
    if (this.#disabled) return Promise.resolve(undefined);
    if (this.#current) return Promise.resolve(this.#current);
    this.#pending ??= (async () => {
      try {
        this.#compiled ??= compile(await this.#base64());
        const module = await this.#compiled;
        if (module === undefined) throw new Error("the module does not compile here");
        const exports = (await WebAssembly.instantiate(module, {})).exports as unknown as E;
        this.#current = { exports, heapBase: Number(exports.__heap_base.value) };
        return this.#current;
      } catch {
        this.#unavailable = true;
        return undefined;
      } finally {
        this.#pending = undefined;
      }
    })();
    return this.#pending;
  }

  /**
   * Makes the instance's memory hold at least `bytes` past the heap base and returns a byte view
   * of all of it, or `undefined` if it cannot grow that far. Earlier views may be detached by it.
   */
  reserve(instance: Instance<E>, bytes: number): Uint8Array | undefined {
    const memory = instance.exports.memory;
    const needed = instance.heapBase + bytes;
    const have = memory.buffer.byteLength;
    if (needed > have) {
      try {
        memory.grow(Math.ceil((needed - have) / 65536));
      } catch {
        return undefined;
      }
      // The new pages are not written yet: advice (huge pages in Node) still applies to them.
      adviseLargeBuffer(new Uint8Array(memory.buffer));
    }
    // One view per memory buffer (a grown memory has a new one): a decode per small chunk should not make a view each.
    if (this.#view?.buffer !== memory.buffer) this.#view = new Uint8Array(memory.buffer);
    return this.#view;
  }

  #view: Uint8Array | undefined;

  /** Called after use: drops an instance whose memory grew past `keepMemory`, so it can be collected. */
  release(instance: Instance<E>): void {
    if (instance.exports.memory.buffer.byteLength > this.keepMemory && this.#current === instance) {
      this.#current = undefined;
      void this.load();
    }
  }

  /** For tests: turn the module off (callers take their TypeScript paths) or back on. */
  setEnabled(enabled: boolean): void {
    this.#disabled = !enabled;
  }
}

async function compile(base64: string): Promise<WebAssembly.Module | undefined> {
  if (typeof WebAssembly !== "object") return undefined;
  const bytes = fromBase64(base64);
  if (!WebAssembly.validate(bytes)) return undefined;
  return WebAssembly.compile(bytes);
}

/**
 * The bytes of a padded base64 text (this package's modules), four characters at a time: a
 * process that reads one small chunk pays for this, and `atob` plus a callback per byte cost
 * several milliseconds before the code is optimised.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const n = text.length;
  const pad = n > 0 && text.charCodeAt(n - 1) === 61 ? (text.charCodeAt(n - 2) === 61 ? 2 : 1) : 0;
  const out = new Uint8Array((n / 4) * 3 - pad);
  const table = base64Table();
  let o = 0;
  for (let i = 0; i < n; i += 4) {
    const v =
      (table[text.charCodeAt(i)]! << 18) |
      (table[text.charCodeAt(i + 1)]! << 12) |
      (table[text.charCodeAt(i + 2)]! << 6) |
      table[text.charCodeAt(i + 3)]!;
    out[o++] = v >>> 16;
    if (o < out.length) out[o++] = (v >>> 8) & 255;
    if (o < out.length) out[o++] = v & 255;
  }
  return out;
}

let table: Uint8Array | undefined;
function base64Table(): Uint8Array {
  if (table === undefined) {
    table = new Uint8Array(128); // "=" and anything else: 0 (padding, cut off above)
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
  }
  return table;
}
