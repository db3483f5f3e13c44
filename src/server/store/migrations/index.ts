import type { Migration } from "kysely";
import type { DialectName } from "../dialect.js";
import { initialMigration } from "./0001_initial.js";
import { organizationIndexesMigration } from "./0004_organization_indexes.js";
import { adminAuditMigration } from "./0005_admin_audit.js";
import { jwksGenerationMigration } from "./0006_jwks_generation.js";

/** All migrations in order. Names sort by their numeric prefix; never rename or edit a landed one. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "0001_initial": initialMigration(dialect),
    "0004_organization_indexes": organizationIndexesMigration(),
    "0005_admin_audit": adminAuditMigration(dialect),
    "0006_jwks_generation": jwksGenerationMigration(),
  };
}
