// Codes become words in one place, shared with the exported components (src/react/messages.ts).
export { adminError, enrolError, type HasCode, messageFor } from "../../react/messages.js";
