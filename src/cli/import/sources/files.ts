import { createReadStream, existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { SourceError } from "./sql-reader.js";

function mustExist(path: string): void {
  if (!existsSync(path)) throw new SourceError(`no file at ${path}`);
}

/** Each non-empty line of a JSON-lines file, parsed, with its line number; a line that is not JSON is `null`. */
export async function* jsonLines(path: string): AsyncIterable<{ line: number; value: unknown }> {
  mustExist(path);
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    if (text.trim() === "") continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch {
      yield { line, value: null };
    }
  }
}

/** How many non-empty lines a JSON-lines file has: the users of an export, for the progress bar. */
export async function countJsonLines(path: string): Promise<number> {
  mustExist(path);
  let count = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text.trim() !== "") count += 1;
  }
  return count;
}

/** How many records (the header row aside) a CSV file has. */
export async function countCsvRecords(path: string): Promise<number> {
  let count = 0;
  for await (const _ of csvRecords(path)) count += 1;
  return count;
}

/** A whole JSON document; a file that is not JSON is said to the operator. */
export async function jsonDocument(path: string): Promise<unknown> {
  mustExist(path);
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch {
    throw new SourceError(`${path} is not a JSON document`);
  }
}

/**
 * The records of a CSV file (RFC 4180: quoted fields may hold commas, quotes doubled, line breaks) as
 * objects keyed by the header row, each with the line it starts on.
 */
export async function* csvRecords(path: string): AsyncIterable<{ line: number; value: Record<string, string> }> {
  mustExist(path);
  const text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  let header: string[] | null = null;
  for (const { line, fields } of csvRows(text)) {
    if (!header) {
      header = fields.map((field) => field.trim());
      continue;
    }
    if (fields.length === 1 && fields[0] === "") continue;
    yield { line, value: Object.fromEntries(header.map((name, index) => [name, fields[index] ?? ""])) };
  }
}

function* csvRows(text: string): Iterable<{ line: number; fields: string[] }> {
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line += 1;
        field += char;
      }
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i += 1;
      fields.push(field);
      yield { line: start, fields };
      fields = [];
      field = "";
      line += 1;
      start = line;
    } else field += char;
  }
  if (field !== "" || fields.length > 0) {
    fields.push(field);
    yield { line: start, fields };
  }
}
