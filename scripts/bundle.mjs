// The service's and the CLI's bundles (npm run build:server, build:cli), and the same bundles the
// tests start as child processes (test/helpers/bundle.ts): one set of esbuild options for both.
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** Bundles `entry` into `outdir` (emptied first): ESM for Node, dependencies left as imports. */
export async function bundle(entry, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "warning",
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [entry, outdir] = process.argv.slice(2);
  if (!entry || !outdir) throw new Error("usage: node scripts/bundle.mjs <entry> <outdir>");
  await bundle(entry, outdir);
}
