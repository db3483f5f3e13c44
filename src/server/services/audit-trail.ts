/** The audit trail's service now lives with the rest of the feature (src/server/audit/); kept for its callers. */
export * from "../audit/trail.js";
