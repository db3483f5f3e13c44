import type { ImportIssue, ImportReport } from "./importer.js";

/** Issues listed one a line up to this many per kind; the rest are counted. */
const LISTED = 50;

/** The report as lines for the terminal: counts first, then each conflict and refused row. */
export function formatReport(report: ImportReport): string[] {
  const verb = report.applied ? "imported" : "to import";
  const formats = [...report.hashFormats].map(([format, count]) => `${format} ${count}`).join(", ") || "none";
  const lines = [
    `${report.applied ? "Import" : "Dry run (nothing written; --apply writes)"}:`,
    `  users read: ${report.usersRead}`,
    `  users ${verb}: ${report.usersImported}`,
    `  users already imported (skipped): ${report.usersAlreadyImported}`,
    `  conflicts (skipped): ${report.conflicts.length}`,
    `  rows refused: ${report.refused.length}`,
    `  password hash formats: ${formats}`,
    `  organizations ${verb}: ${report.organizationsImported}, already imported: ${report.organizationsAlreadyImported}, conflicts: ${report.organizationConflicts.length}`,
  ];
  if (report.usersMerged > 0) {
    lines.push(`  users merged into the existing user of their email (--merge link): ${report.usersMerged}`);
  }
  if (report.weakHashesLeftOut > 0) {
    lines.push(`  weak hashes left out (--refuse-weak; those users reset their password): ${report.weakHashesLeftOut}`);
  }
  if (report.membershipsDropped > 0) {
    lines.push(`  memberships left out (their organization was not imported): ${report.membershipsDropped}`);
  }
  lines.push(...listed("conflicts", report.conflicts));
  lines.push(...listed("organization conflicts", report.organizationConflicts));
  lines.push(...listed("refused", report.refused));
  return lines;
}

function listed(title: string, issues: ImportIssue[]): string[] {
  if (issues.length === 0) return [];
  const lines = issues
    .slice(0, LISTED)
    .map((issue) => `  line ${issue.line}: ${issue.email ? `${issue.email}: ` : ""}${issue.reason}`);
  if (issues.length > LISTED) lines.push(`  ... and ${issues.length - LISTED} more`);
  return [`${title}:`, ...lines];
}
