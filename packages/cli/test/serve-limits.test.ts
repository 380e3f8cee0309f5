import { readFile, truncate, writeFile } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixtureCopy, run, serving, STORE } from "./helpers.js";

// The limits `zarr serve` sets so that slow or stuck clients cannot hold up the others. Each test
// sets the limit small and asserts what the server does when it is crossed (an answer, a closed
// connection), never how long that took: a server without the limit fails the test (by the
// test's timeout) instead of passing it.

/** A raw connection to the server at `base`, collecting what it answers until it is closed. */
class Connection {
  readonly socket: Socket;
  received = "";
  readonly closed: Promise<void>;
  constructor(base: string) {
    const { port } = new URL(base);
    this.socket = connect(Number(port), "127.0.0.1");
    this.socket.setEncoding("latin1");
    this.socket.on("data", (text: string) => void (this.received += text));
    this.socket.on("error", () => undefined); // a reset is one way of being closed
    this.closed = new Promise((resolve) => this.socket.on("close", () => resolve()));
  }
  send(text: string): void {
    this.socket.write(text);
  }
  /** Resolves once the answers received hold `count` status lines. */
  async answers(count: number): Promise<string[]> {
    for (;;) {
      const lines = this.received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
      if (lines.length >= count) return lines;
      await new Promise<void>((resolve, reject) => {
        this.socket.once("data", () => resolve());
        this.socket.once("close", () => reject(new Error(`closed after ${JSON.stringify(this.received)}`)));
      });
    }
  }
}

const request = (key: string, headers = "") => `GET /${key} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`;

/** One GET on a connection of its own: the status, or the error when the server closed it unanswered. */
function getOnce(url: string): Promise<number | Error> {
  return new Promise((resolve) => {
    const req = httpGet(url, { agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    req.on("error", (error) => resolve(error));
  });
}

/** The most a TCP socket's receive and send buffers may grow to together (Linux), 0 where unknown. */
async function kernelBufferMax(): Promise<number> {
  const max = async (name: string) =>
    Number((await readFile(`/proc/sys/net/ipv4/${name}`, "utf8").catch(() => "0")).trim().split(/\s+/).at(-1));
  return (await max("tcp_rmem")) + (await max("tcp_wmem"));
}

describe("zarr serve: limits", () => {
  it("answers a head over --max-header-size with 431", async () => {
    await serving(STORE, ["--max-header-size", "1024"], async (base) => {
      const big = new Connection(base);
      big.send(request("grp/a/.zarray", `X-Padding: ${"x".repeat(2000)}\r\n`));
      expect(await big.answers(1)).toEqual(["HTTP/1.1 431"]);
      await big.closed;
      const small = new Connection(base);
      small.send(request("grp/a/.zarray", `X-Padding: ${"x".repeat(500)}\r\n`));
      expect(await small.answers(1)).toEqual(["HTTP/1.1 200"]);
      small.socket.destroy();
    });
  });

  it("closes a connection whose head is still dripping in at --header-timeout, serving others meanwhile", async () => {
    await serving(STORE, ["--header-timeout", "200", "--request-timeout", "200"], async (base) => {
      const slow = new Connection(base);
      const head = request("grp/a/.zarray", `X-Slow: ${"s".repeat(10_000)}\r\n`);
      let sent = 0;
      // a byte every 20 ms: each arrives well within any idle time, the head never completes
      const drip = setInterval(() => slow.send(head[sent++]!), 20);
      try {
        expect(await getOnce(`${base}grp/a/.zarray`)).toBe(200);
        await slow.closed;
      } finally {
        clearInterval(drip);
      }
      expect(sent).toBeLessThan(head.length);
      expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
    });
  });

  it("closes a connection whose request body never arrives at --request-timeout", async () => {
    const args = ["--header-timeout", "100", "--request-timeout", "300", "--keep-alive-timeout", "600000"];
    await serving(STORE, [...args, "--idle-timeout", "600000"], async (base) => {
      const connection = new Connection(base);
      connection.send(`${request("grp/a/.zarray", "Content-Length: 10\r\n")}ab`);
      expect((await connection.answers(1))[0]).toBe("HTTP/1.1 200");
      await connection.closed;
      expect(connection.received).toContain("HTTP/1.1 408 Request Timeout");
    });
  });

  it("closes a kept-alive connection left idle for --keep-alive-timeout", async () => {
    await serving(STORE, ["--keep-alive-timeout", "100"], async (base) => {
      const connection = new Connection(base);
      connection.send(request("grp/a/.zarray"));
      expect(await connection.answers(1)).toEqual(["HTTP/1.1 200"]);
      expect(connection.received).toContain("Keep-Alive: timeout=");
      await connection.closed;
      expect(connection.received.match(/HTTP\/1\.1/g)).toHaveLength(1);
    });
  });

  it("closes connections past --max-connections on arrival, serving those it holds", async () => {
    await serving(STORE, ["--max-connections", "2", "--keep-alive-timeout", "600000"], async (base) => {
      const held = [new Connection(base), new Connection(base)];
      for (const connection of held) {
        connection.send(request("grp/a/.zarray"));
        await connection.answers(1); // accepted and counted by the server
      }
      const third = new Connection(base);
      third.send(request("grp/a/.zarray"));
      await third.closed;
      expect(third.received).toBe("");
      held[0]!.send(request("b/.zarray"));
      expect(await held[0]!.answers(2)).toEqual(["HTTP/1.1 200", "HTTP/1.1 200"]);
      for (const connection of held) connection.socket.destroy();
    });
  });

  it("closes a connection whose client stops reading the body at --idle-timeout", async () => {
    // A value far larger than what the kernel buffers on both ends: the server's write stalls.
    const store = await fixtureCopy();
    const size = Math.max(32 << 20, 2 * (await kernelBufferMax()));
    await writeFile(join(store, "unread-value"), "");
    await truncate(join(store, "unread-value"), size); // sparse: zeros that take no disk
    // One connection at a time: the others get in only once the stalled one is closed.
    const args = ["--idle-timeout", "200", "--max-connections", "1", "--keep-alive-timeout", "600000"];
    await serving(store, args, async (base) => {
      const stalled = new Connection(base);
      stalled.send(request("unread-value"));
      await stalled.answers(1);
      stalled.socket.pause();
      let answer: number | Error;
      // refused while the stalled connection holds the one place
      while ((answer = await getOnce(`${base}grp/a/.zarray`)) instanceof Error)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(answer).toBe(200);
      stalled.socket.resume();
      await stalled.closed;
      expect(stalled.received.length).toBeLessThan(size);
    });
  }, 60_000);

  it("refuses a request timeout below the header timeout", async () => {
    const result = await run(["serve", STORE, "--header-timeout", "500", "--request-timeout", "100"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("--request-timeout (100 ms) must be at least --header-timeout (500 ms)");
  });
});
