/** Row values as either dialect returns them, mapped to what the domain expects. */
export function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

export function toDateOrNull(value: Date | string | number | null | undefined): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBool(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}
