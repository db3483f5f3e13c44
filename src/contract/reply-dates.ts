import type { z } from "zod";

/** The parts of zod's internal definition this walk reads (zod 4's `_zod.def`). */
interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const definitionOf = (schema: z.ZodType): Definition => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/**
 * A JSON reply with Dates where its schema has `z.date()` (the wire carries ISO 8601 text), so a
 * server-side call answers what the schema's output type says. Only the schema's date positions
 * change: a string elsewhere that looks like a date stays a string.
 */
export function reviveDates(schema: z.ZodType, value: unknown): unknown {
  const def = definitionOf(schema);
  switch (def.type) {
    case "date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value) : value;
    case "object":
      if (!isRecord(value) || !def.shape) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, field]) => {
          const fieldSchema = def.shape?.[key];
          return [key, fieldSchema ? reviveDates(fieldSchema, field) : field];
        }),
      );
    case "array":
      return Array.isArray(value) && def.element
        ? value.map((item) => reviveDates(def.element as z.ZodType, item))
        : value;
    case "record":
      if (!isRecord(value) || !def.valueType) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, reviveDates(def.valueType as z.ZodType, item)]),
      );
    case "nullable":
    case "optional":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return value === null || value === undefined || !def.innerType ? value : reviveDates(def.innerType, value);
    case "pipe":
      return def.in ? reviveDates(def.in, value) : value;
    case "lazy":
      return def.getter ? reviveDates(def.getter(), value) : value;
    case "intersection":
      return def.left && def.right ? reviveDates(def.right, reviveDates(def.left, value)) : value;
    case "union":
      return reviveUnion(def.options ?? [], value);
    default:
      return value;
  }
}

/** The first option the revived value satisfies decides; none: the value as it came. */
function reviveUnion(options: readonly z.ZodType[], value: unknown): unknown {
  for (const option of options) {
    const revived = reviveDates(option, value);
    if (option.safeParse(revived).success) return revived;
  }
  return value;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
