/// <reference types="node" />
import { connect, type Socket } from "node:net";

/** How much one read takes when it does not go straight into a body: heads, small bodies, chunk lines. */
const SCRATCH_BYTES = 64 * 1024;

/** Who a connection's bytes go to while a request is on it. */
export interface ConnectionUser {
  /** Where the next read should land, when it can go straight into a body; else the scratch buffer. */
  target(): Uint8Array | undefined;
  /** `n` bytes were read into the last target. */
  filled(n: number): void;
  /** Bytes read into the scratch buffer, valid until the call returns. */
  data(bytes: Uint8Array): void;
  /** The server closed its side. */
  end(): void;
  /** The socket failed or closed. */
  error(err: Error): void;
}

/**
 * One TCP connection to an origin, reading with `onread`: the kernel writes into the buffer its
 * user asks for (the rest of a body) or into one scratch buffer reused for every read, so no
 * buffer is allocated per read and no `'data'` event is emitted. Bytes that come while nobody
 * uses it (a server that sends more than it framed) close it.
 */
export class Connection {
  readonly origin: string;
  /** Whether it served a request before the current one (an idle connection the server may since have closed). */
  reused = false;
  closed = false;
  /** Called once when it closes, whatever the cause. */
  onClose: (() => void) | undefined;
  readonly #socket: Socket;
  readonly #scratch = new Uint8Array(SCRATCH_BYTES);
  #user: ConnectionUser | undefined;
  #target: Uint8Array | undefined;

  constructor(origin: string, host: string, port: number) {
    this.origin = origin;
    this.#socket = connect({
      host,
      port,
      noDelay: true,
      onread: { buffer: () => this.#nextBuffer(), callback: (n: number, buffer: Uint8Array) => this.#read(n, buffer) },
    });
    this.#socket.setNoDelay(true);
    this.#socket.on("error", (err) => this.#lost(err));
    this.#socket.on("end", () => {
      const user = this.#user;
      if (user === undefined) this.destroy();
      else user.end();
    });
    this.#socket.on("close", () => {
      this.#lost(new Error("the connection closed"));
      this.#closed();
    });
  }

  /** Hands the connection to `user` and sends `head` and `body` in one write. */
  begin(user: ConnectionUser, head: string, body: Uint8Array | undefined): void {
    this.#user = user;
    this.#socket.ref();
    const socket = this.#socket;
    if (body === undefined || body.length === 0) {
      socket.write(head, "latin1");
      return;
    }
    socket.cork();
    socket.write(head, "latin1");
    socket.write(body);
    socket.uncork();
  }

  /** The request on it is over and it may serve another: it no longer keeps the process alive. */
  idle(): void {
    this.#user = undefined;
    this.#socket.unref();
  }

  destroy(): void {
    this.#user = undefined;
    this.#socket.destroy();
    this.#closed();
  }

  #closed(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose?.();
  }

  #nextBuffer(): Uint8Array {
    this.#target = this.#user?.target();
    return this.#target ?? this.#scratch;
  }

  #read(n: number, buffer: Uint8Array): boolean {
    const user = this.#user;
    if (user === undefined) {
      this.destroy();
      return false;
    }
    if (buffer === this.#target) user.filled(n);
    else user.data(this.#scratch.subarray(0, n));
    return true;
  }

  #lost(err: Error): void {
    const user = this.#user;
    this.#user = undefined;
    user?.error(err);
  }
}
