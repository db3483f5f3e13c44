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
  // issue 16 item 10: details
  "details.profile.picture": "Profilbild",
  "details.profile.pictureNone": "Noch kein Bild: Stattdessen werden Ihre Initialen gezeigt.",
  "details.profile.imageHint":
    "Die https://-Adresse eines Bildes. Lassen Sie das Feld leer, um Ihre Initialen zu zeigen.",
  "details.profile.imageInvalid":
    "Geben Sie eine Adresse ein, die mit https:// beginnt (http:// nur auf diesem Computer).",
  "details.profile.removePicture": "Bild entfernen",
  "details.profile.pictureRemoved": "Bild entfernt.",
  "details.verified.approvedTitle": "Änderung bestätigt",
  "details.verified.approved":
    "Wir haben einen Link an Ihre neue E-Mail-Adresse gesendet. Die Änderung ist abgeschlossen, sobald Sie diesen Link öffnen; bis dahin melden Sie sich weiter mit Ihrer bisherigen Adresse an.",
  "details.verified.changedTitle": "E-Mail-Adresse geändert",
  "details.verified.changed": "Ihre neue E-Mail-Adresse ist bestätigt. Melden Sie sich ab jetzt mit ihr an.",
  "details.verified.changedTo": "Ihre E-Mail-Adresse ist jetzt {email}. Melden Sie sich ab jetzt mit ihr an.",
  "details.verified.emailTaken":
    "Ein anderes Konto hat die neue Adresse inzwischen übernommen, daher wurde Ihre E-Mail-Adresse nicht geändert.",
  "details.members.invitedBy": "Eingeladen von {name}",
  "details.members.invitedByFormer": "Eingeladen von einem ehemaligen Mitglied",
  "details.team.label": "Aktives Team",
  "details.team.none": "Kein Team",
  "details.team.switch": "Team wechseln",
  "details.team.switched": "{team} ist jetzt Ihr aktives Team.",
  "details.team.cleared": "Jetzt ist kein Team aktiv.",
  "details.loading.page": "Seite wird geladen",
};
