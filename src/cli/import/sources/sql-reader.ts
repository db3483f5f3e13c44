import { existsSync } from "node:fs";

/** Read-only queries on a source database, with `?` placeholders on both dialects. */
export interface SqlReader {
  all(text: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A postgres:// URL, or an SQLite file (a path, or `sqlite:path`) opened read-only. */
export async function openSqlReader(location: string): Promise<SqlReader> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: location });
    try {
      await client.connect();
    } catch (error) {
      throw new SourceError(`cannot connect to the source database: ${(error as Error).message}`);
    }
    return {
      async all(text, parameters = []) {
        let index = 0;
        const numbered = text.replace(/\?/g, () => `$${++index}`);
        return (await client.query(numbered, parameters)).rows;
      },
      close: () => client.end(),
    };
  }
  const path = location.replace(/^sqlite:/, "");
  if (!existsSync(path)) throw new SourceError(`no SQLite database at ${path}`);
  const Database = (await import("better-sqlite3")).default;
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  return {
    all: async (text, parameters = []) => sqlite.prepare(text).all(...parameters) as Record<string, unknown>[],
    close: async () => {
      sqlite.close();
    },
  };
}

/** A source that cannot be read as given: said to the operator, not thrown as a bug. */
export class SourceError extends Error {}
