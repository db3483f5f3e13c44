import { build } from "esbuild";
import { expect, it } from "vitest";

/** What a browser downloads for `gatehouse-auth/client`: no zod, no endpoint table, a few kilobytes. */
it("the browser client bundles without zod or the endpoint table", async () => {
  const result = await build({
    entryPoints: [new URL("./index.ts", import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((path) => path.includes("node_modules/"))).toEqual([]);
  expect(inputs.filter((path) => path.includes("contract/endpoints/"))).toEqual([]);
  expect(result.outputFiles[0]!.contents.byteLength).toBeLessThan(40_000);
});
