import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Every file and directory under `root`, relative, `/`-separated, directories ending in `/`, sorted. */
export async function fileTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        out.push(`${rel}${entry.name}/`);
        await walk(join(dir, entry.name), `${rel}${entry.name}/`);
      } else {
        out.push(rel + entry.name);
      }
    }
  };
  await walk(root, "");
  return out.sort();
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
