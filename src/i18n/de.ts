import type { Catalogue } from "./catalogue.js";

/** German. The type makes it complete: a key missing here, or one English no longer has, fails tsc. */
export const de: Catalogue = {
  "app.name": "Gatehouse",
  "common.save": "Speichern",
  "common.cancel": "Abbrechen",
  "common.error.generic": "Etwas ist schiefgelaufen. Versuchen Sie es noch einmal.",
  "settings.language": "Sprache",
  "members.count#one": "{count} Mitglied",
  "members.count#other": "{count} Mitglieder",
};
