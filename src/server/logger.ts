/** Where the service reports what happened; a leaf module, so any layer may log without import circles. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

type Level = "info" | "warn" | "error";

/**
 * One JSON object per line (docs/operations.md): `time` (ISO 8601), `level`, `message`, then the
 * fields (a request's `requestId` among them); no field can stand in for those three.
 */
export function logLine(level: Level, message: string, fields?: Record<string, unknown>): string {
  const line: Record<string, unknown> = { time: new Date().toISOString(), level, message };
  if (fields) for (const key of Object.keys(fields)) if (!(key in line)) line[key] = fields[key];
  return JSON.stringify(line);
}

/**
 * Info on stdout, warnings and errors on stderr, for any log collector.
 *
 * @example
 * const auth = await createAuth({
 *   baseURL, secret, database,
 *   logger: { ...consoleLogger, info: () => {} }, // warnings and errors only
 * });
 */
export const consoleLogger: Logger = {
  info: (message, fields) => console.log(logLine("info", message, fields)),
  warn: (message, fields) => console.warn(logLine("warn", message, fields)),
  error: (message, fields) => console.error(logLine("error", message, fields)),
};
