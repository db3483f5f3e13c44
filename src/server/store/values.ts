/** Row values as either dialect returns them, mapped to what the domain expects. */
export function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** How a mapper makes a timestamp: the domain's Date (toDate), or a reply's ISO 8601 text (isoTimestamp). */
export type TimeOf<T> = (value: Date | string | number) => T;

/** A model with its timestamps as `T`. */
export type WithTimes<M, T> = { [K in keyof M]: M[K] extends Date ? T : M[K] extends Date | null ? T | null : M[K] };

/**
 * A row's timestamp as the ISO 8601 text JSON gives a Date (`2026-11-25T16:41:14.281Z`), without a
 * Date when the row holds it so (SQLite stores that text) or in UTC (PostgreSQL's JSON in a UTC
 * session): JSON.stringify calls a Date's toJSON outside its fast path, which cost get-session's
 * reply more than all its other fields.
 */
export function isoTimestamp(value: Date | string | number): string {
  if (typeof value === "string") {
    if (value.length === 24 && value.charCodeAt(23) === 90 && value.charCodeAt(10) === 84) return value;
    // PostgreSQL's JSON text in a UTC session: the same instant written in place, its fraction cut
    // to milliseconds as a Date cuts it (far cheaper than through a Date).
    const utc = POSTGRES_UTC_TEXT.exec(value);
    if (utc) return `${value.slice(0, 19)}.${`${utc[1] ?? ""}000`.slice(0, 3)}Z`;
  }
  return toDate(value).toISOString();
}

/** `2026-11-25T16:41:14.281+00:00`, the fraction shorter (trailing zeros dropped) or absent. */
const POSTGRES_UTC_TEXT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00:00$/;

/** A nullable timestamp made by `time` (toDate or isoTimestamp). */
export function timeOrNull<T>(time: TimeOf<T>, value: Date | string | number | null | undefined): T | null {
  return value === null || value === undefined ? null : time(value);
}

export function toDateOrNull(value: Date | string | number | null | undefined): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}
