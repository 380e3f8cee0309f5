/*
 * One WebAssembly module of this package, compiled and instantiated on first use. Where
 * WebAssembly (or its SIMD) is unavailable, or the module fails to load, `load` resolves to
 * `undefined` and callers use their TypeScript paths.
 */

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
    try {
      if (needed > have) memory.grow(Math.ceil((needed - have) / 65536));
    } catch {
      return undefined;
    }
    return new Uint8Array(memory.buffer);
  }

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
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  if (!WebAssembly.validate(bytes)) return undefined;
  return WebAssembly.compile(bytes);
}
