/**
 * English, the source catalogue: every key the application, its components and the mails show.
 * Keys are grouped by screen (`area.thing`). `{name}` is filled in by translate(); a key with
 * `#one` / `#other` variants is chosen by the plural rules of the locale for `{count}`.
 */
export const en = {
  "app.name": "Gatehouse",
  "common.save": "Save",
  "common.cancel": "Cancel",
  "common.error.generic": "Something went wrong. Try again.",
  "settings.language": "Language",
  "members.count#one": "{count} member",
  "members.count#other": "{count} members",
} as const;
