/**
 * How long to wait before attempt `attempt + 1` (the first retry is `attempt` 1): exponential
 * backoff from `base` milliseconds, capped at `max`, with jitter (a random point in the upper half)
 * so that many clients failing together do not retry together. A server's Retry-After wins when
 * it asks for longer, up to `max`.
 */
export function retryDelay(
  attempt: number,
  base: number,
  max: number,
  retryAfter: number | undefined,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(max, base * 2 ** (attempt - 1));
  const backoff = ceiling / 2 + (random() * ceiling) / 2;
  return Math.min(max, Math.max(backoff, retryAfter ?? 0));
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; `undefined` if absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms` milliseconds, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
