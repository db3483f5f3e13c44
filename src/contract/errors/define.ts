/** One entry of an error table: the message clients see and the HTTP status it usually travels with. */
export interface ErrorEntry {
  readonly message: string;
  readonly status: number;
}

/** Keeps the literal code names while checking every entry's shape. */
export function defineErrors<const T extends Record<string, ErrorEntry>>(table: T): T {
  return table;
}
