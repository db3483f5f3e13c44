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
  // issue 16 item 10: details
  "details.profile.picture": "Profile picture",
  "details.profile.pictureNone": "No picture yet: your initials are shown instead.",
  "details.profile.imageHint": "The https:// address of an image. Leave it empty to show your initials.",
  "details.profile.imageInvalid": "Enter an address that starts with https:// (http:// only on this computer).",
  "details.profile.removePicture": "Remove picture",
  "details.profile.pictureRemoved": "Picture removed.",
  "details.verified.approvedTitle": "Change approved",
  "details.verified.approved":
    "We have sent a link to your new email address. The change finishes when you open that link; until then you keep signing in with your current address.",
  "details.verified.changedTitle": "Email address changed",
  "details.verified.changed": "Your new email address is verified. Use it to sign in from now on.",
  "details.verified.changedTo": "Your email address is now {email}. Use it to sign in from now on.",
  "details.verified.emailTaken":
    "Another account took the new address in the meantime, so your email address was not changed.",
  "details.members.invitedBy": "Invited by {name}",
  "details.members.invitedByFormer": "Invited by a former member",
  "details.team.label": "Active team",
  "details.team.none": "No team",
  "details.team.switch": "Switch team",
  "details.team.switched": "{team} is now your active team.",
  "details.team.cleared": "No team is active now.",
  "details.loading.page": "Loading page",
} as const;
