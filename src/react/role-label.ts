import { isMessageKey, type Translate } from "../i18n/index.js";

/** "owner,admin" -> "Owner, Admin": built-in roles from the catalogue, custom ones capitalised. */
export const roleLabel = (role: string, t: Translate) =>
  role
    .split(",")
    .map((r) => {
      const name = r.trim();
      const key = `role.${name}`;
      return isMessageKey(key) ? t(key) : name.charAt(0).toUpperCase() + name.slice(1);
    })
    .join(", ");
