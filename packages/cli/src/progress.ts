import type { Io } from "./command.js";

/** Reports how much of a long job is done. */
export interface Progress {
  /** Sets the total amount of work (it may grow as work is discovered). */
  setTotal(total: number): void;
  /** Adds `amount` (default 1) to the work done. */
  tick(amount?: number): void;
  /** A `(done, total)` callback for one library call (`RunOptions.progress`), counted after the work done before. */
  callback(): (done: number, total: number) => void;
  /** Clears the bar. */
  finish(): void;
}

const SILENT: Progress = {
  setTotal: () => undefined,
  tick: () => undefined,
  callback: () => () => undefined,
  finish: () => undefined,
};

/**
 * A progress bar on stderr, drawn only when stderr is a terminal (so logs and pipes stay clean),
 * redrawn at most every `interval` ms: `label [#######.......]  45%  123/456`.
 */
export function progressBar(io: Io, label: string, options: { interval?: number; now?: () => number } = {}): Progress {
  if (!io.interactive) return SILENT;
  const interval = options.interval ?? 100;
  const now = options.now ?? Date.now;
  let total = 0;
  let done = 0;
  let last = -Infinity;
  let drawn = false;
  const draw = (force: boolean): void => {
    const t = now();
    if (!force && t - last < interval) return;
    last = t;
    io.err(`\r${renderBar(label, done, total, io.columns ?? 80)}`);
    drawn = true;
  };
  return {
    setTotal(n) {
      total = n;
      draw(false);
    },
    tick(amount = 1) {
      done += amount;
      draw(done >= total);
    },
    callback() {
      const base = done;
      return (d, t) => {
        done = base + d;
        total = Math.max(total, base + t);
        draw(done >= total);
      };
    },
    finish() {
      if (drawn) io.err(`\r${" ".repeat(Math.max(0, (io.columns ?? 80) - 1))}\r`);
      drawn = false;
    },
  };
}

/** One line of the bar, at most `columns - 1` characters wide. */
export function renderBar(label: string, done: number, total: number, columns: number): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const counts = `${done}/${total}`;
  const room = Math.max(0, columns - 1 - label.length - percent.length - counts.length - 6);
  const width = Math.min(40, room);
  const filled = Math.round(fraction * width);
  const bar = width > 0 ? ` [${"#".repeat(filled)}${".".repeat(width - filled)}]` : "";
  return `${label}${bar} ${percent}  ${counts}`;
}
