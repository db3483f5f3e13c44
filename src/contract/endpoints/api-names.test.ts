import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiEndpoints } from "./api-names.js";
import type { Endpoint } from "./define.js";

const DOC = new URL("../../../docs/server-api.md", import.meta.url);
const START = "<!-- calls:start (generated from src/contract/endpoints/api-names.ts) -->";
const END = "<!-- calls:end -->";

function inputOf(endpoint: Endpoint): string {
  const slots = [endpoint.body && "body", endpoint.query && "query", endpoint.path.includes(":") && "params"];
  return slots.filter(Boolean).join(", ") || "—";
}

/** The table docs/server-api.md carries between its markers: one row per call. */
function callTable(): string {
  const rows = Object.entries(apiEndpoints).map(([name, endpoint]: [string, Endpoint]) => {
    const session = endpoint.policy.session ?? "—";
    const feature = endpoint.policy.feature ?? "—";
    const answer = endpoint.reply ? (endpoint.answers ? "JSON or Response" : "JSON") : "Response";
    return `| \`${name}\` | ${endpoint.method} ${endpoint.path} | ${inputOf(endpoint)} | ${session} | ${feature} | ${answer} | ${endpoint.summary} |`;
  });
  return [
    "| call | route | takes | session | switch | answers | what |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

describe("docs/server-api.md", () => {
  it("lists every auth.api call of the endpoint table (GATEHOUSE_UPDATE_DOCS=1 rewrites it)", () => {
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, "the doc's generated-table markers").toBeGreaterThanOrEqual(0);
    const generated = `${START}\n${callTable()}\n${END}`;
    const current = doc.slice(start, end + END.length);
    if (process.env.GATEHOUSE_UPDATE_DOCS === "1" && current !== generated) {
      writeFileSync(DOC, doc.replace(current, generated));
      return;
    }
    expect(current).toBe(generated);
  });
});
