import { describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE, parseDatabaseUrl } from "./database.js";

describe("parseDatabaseUrl", () => {
  it("hands a PostgreSQL URL over exactly as given, with the default pool", () => {
    const url = "postgres://app:p%40ss@db.internal:5432/auth?sslmode=require";
    expect(parseDatabaseUrl(url)).toEqual({ dialect: "postgres", location: url, poolSize: DEFAULT_POOL_SIZE });
  });

  it("takes connection_limit out of the URL as the pool size", () => {
    expect(parseDatabaseUrl("postgres://app@db/auth?connection_limit=3")).toEqual({
      dialect: "postgres",
      location: "postgres://app@db/auth",
      poolSize: 3,
    });
    expect(
      parseDatabaseUrl("postgresql://app:p%40ss@db/auth?sslmode=require&connection_limit=25&application_name=gh"),
    ).toEqual({
      dialect: "postgres",
      location: "postgresql://app:p%40ss@db/auth?sslmode=require&application_name=gh",
      poolSize: 25,
    });
  });

  it.each(["0", "1001", "-2", "2.5", "ten", ""])("refuses connection_limit=%j in words", (given) => {
    expect(() => parseDatabaseUrl(`postgres://app@db/auth?connection_limit=${given}`)).toThrow(
      `DATABASE_URL's connection_limit must be a whole number from 1 to 1000 (got "${given}")`,
    );
  });

  it("refuses a URL it cannot read the limit from in words", () => {
    expect(() => parseDatabaseUrl("postgres://app@db:notaport/auth?connection_limit=2")).toThrow(
      "DATABASE_URL is not a URL the connection_limit could be read from",
    );
  });

  it("reads SQLite locations as before", () => {
    expect(parseDatabaseUrl("sqlite:./data/x.sqlite")).toMatchObject({
      dialect: "sqlite",
      location: "./data/x.sqlite",
    });
    expect(() => parseDatabaseUrl("mysql://x")).toThrow(/must start with sqlite: or postgres:\/\//);
  });
});
