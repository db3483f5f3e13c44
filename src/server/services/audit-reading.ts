/** The audit trail's readers now live with the rest of the feature (src/server/audit/); kept for its callers. */
export * from "../audit/reading.js";
