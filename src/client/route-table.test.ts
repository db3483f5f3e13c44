import { expect, it } from "vitest";
import { allEndpoints, type Refresh } from "../contract/endpoints/index.js";

/**
 * The browser client needs only each path's methods and what a success makes stale. It reads them
 * from route-table.ts, written from the endpoint table here, so the browser bundle carries neither
 * the endpoint table nor zod (about 480 KB minified). A change to the table fails this test until
 * the file is written again: `npx vitest run --project unit -u src/client/route-table.test.ts`.
 */
it("route-table.ts is the endpoint table's paths, methods and refreshes", async () => {
  const routes = new Map<string, { methods: Set<string>; refreshes: Set<Refresh> }>();
  // The SCIM protocol is a directory's API, not the browser's: the client never calls it. Nor
  // does it PUT or DELETE (RFC 7592's client configuration is a registered client's).
  const browserMethod = (method: string) => method === "GET" || method === "POST";
  for (const endpoint of allEndpoints.filter((entry) => !entry.policy.directory && browserMethod(entry.method))) {
    const route = routes.get(endpoint.path) ?? { methods: new Set(), refreshes: new Set() };
    route.methods.add(endpoint.method);
    for (const refresh of endpoint.policy.refreshes ?? []) route.refreshes.add(refresh);
    routes.set(endpoint.path, route);
  }
  const lines = [...routes]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, { methods, refreshes }]) => {
      const refreshList = [...refreshes].sort().map((r) => JSON.stringify(r));
      const methodList = [...methods].sort().map((m) => JSON.stringify(m));
      // One key per line, as the formatter keeps it.
      return [
        `  ${JSON.stringify(path)}: {`,
        `    methods: [${methodList.join(", ")}],`,
        `    refreshes: [${refreshList.join(", ")}],`,
        "  },",
      ].join("\n");
    });
  const source = [
    "// Written by src/client/route-table.test.ts from the endpoint table (src/contract/endpoints); do not edit.",
    'import type { Refresh } from "../contract/endpoints/define.js";',
    "",
    "export interface Route {",
    '  readonly methods: readonly ("GET" | "POST")[];',
    "  readonly refreshes: readonly Refresh[];",
    "}",
    "",
    "export const ROUTES: Readonly<Record<string, Route>> = {",
    ...lines,
    "};",
    "",
  ].join("\n");
  await expect(source).toMatchFileSnapshot("./route-table.ts");
});
