/** resource -> actions a role may perform on it (the statement format of organization and admin roles). */
export type Statements = Readonly<Record<string, readonly string[]>>;

/** `"admin, member"` or `["admin","member"]` -> `["admin","member"]`: trimmed, empties and repeats dropped. */
export function parseRoles(input: string | readonly string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const parts = typeof input === "string" ? input.split(",") : input.flatMap((r) => r.split(","));
  return [...new Set(parts.map((r) => r.trim()).filter((r) => r.length > 0))];
}

/**
 * Whether some single grant allows every requested action on every requested resource. Nothing
 * asked, or an unknown resource, allows nothing. Own keys only, so `constructor` is not a resource.
 */
export function someGrantAllows(grants: readonly Statements[], request: Record<string, readonly string[]>): boolean {
  const asked = Object.entries(request);
  if (asked.length === 0 || asked.some(([, actions]) => actions.length === 0)) return false;
  return grants.some((statements) =>
    asked.every(([resource, actions]) => {
      const allowed = Object.hasOwn(statements, resource) ? statements[resource] : undefined;
      return allowed !== undefined && actions.every((action) => allowed.includes(action));
    }),
  );
}

/** The statements of each named role that the table defines (own keys only). */
export function grantsOf(table: Readonly<Record<string, Statements>>, roles: readonly string[]): Statements[] {
  return roles.flatMap((name) => (Object.hasOwn(table, name) && table[name] ? [table[name]] : []));
}
