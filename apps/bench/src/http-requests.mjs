// The HTTP cases' request table (H1, H2, H3): what the bench's file server (src/http-server.mjs)
// counted for each runner process, per operation.
import { overHttp } from "./cases.mjs";
import { markdownTable, median } from "./lib.mjs";

/**
 * Per HTTP case and implementation, medians over rounds of the server's counts for the runner's
 * process divided by its operations (each process runs `--repeat` of them): requests (by method, of
 * the first round), the ranged
 * ones among them (and the suffix ranges, `bytes=-n`), 404s, MiB of bodies, and the most requests
 * in flight at once. `undefined` when no run has counts.
 */
export function formatHttpTable(runs, cases, impls) {
  const rows = [];
  for (const c of cases) {
    if (!overHttp(c)) continue;
    for (const impl of impls) {
      const mine = runs.filter((r) => r.case === c.id && r.impl === impl && r.status === "ok" && r.http);
      if (mine.length === 0) continue;
      const ops = (r) => r.opSeconds?.length ?? 1;
      const per = (field) => median(mine.map((r) => r.http[field] / ops(r)));
      const methods = Object.entries(mine[0].http.byMethod)
        .map(([m, n]) => `${m} ${fewDigits(n / ops(mine[0]))}`)
        .join(", ");
      rows.push([
        c.id,
        impl,
        fewDigits(per("requests")),
        methods,
        fewDigits(per("ranged")),
        fewDigits(per("suffixRanged")),
        fewDigits(per("notFound")),
        `${(per("bodyBytes") / 2 ** 20).toFixed(1)} MiB`,
        String(median(mine.map((r) => r.http.maxInFlight))),
      ]);
    }
  }
  if (rows.length === 0) return undefined;
  return markdownTable(
    [
      "case",
      "impl",
      "requests / op",
      "by method / op",
      "ranged / op",
      "of them suffix",
      "404 / op",
      "body / op",
      "most in flight",
    ],
    rows,
  );
}

/** Whole numbers as they are, others with one decimal (a count per operation over 3 operations). */
const fewDigits = (x) => (x === undefined ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(1));
