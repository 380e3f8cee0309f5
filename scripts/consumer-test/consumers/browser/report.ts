// How a browser consumer hands its result to the page's driver (scripts/consumer-test/browser.mjs):
// `globalThis.consumerResults[name]`, `{ ok, value }` or `{ ok: false, error }`.

type Results = Record<string, { ok: true; value: unknown } | { ok: false; error: string }>;

/** The base URL of the fixtures served over HTTP (the page's `?data=`). */
export const dataUrl = new URL(location.href).searchParams.get("data") ?? "";
/** A URL where every request is answered 403 Forbidden (the page's `?forbidden=`). */
export const forbiddenUrl = new URL(location.href).searchParams.get("forbidden") ?? "";
/** The base URL of the datasets xarray wrote (packages/xarray/test/fixtures; the page's `?xarray=`). */
export const xarrayUrl = new URL(location.href).searchParams.get("xarray") ?? "";
/** The base URL of a kerchunk reference set and its files (the page's `?references=`). */
export const referencesUrl = new URL(location.href).searchParams.get("references") ?? "";

export function report(name: string, body: () => Promise<unknown>): void {
  const results: Results = ((globalThis as { consumerResults?: Results }).consumerResults ??= {});
  body().then(
    (value) => {
      results[name] = { ok: true, value };
    },
    (error: unknown) => {
      results[name] = { ok: false, error: error instanceof Error ? (error.stack ?? String(error)) : String(error) };
    },
  );
}
