// The rule lives with the components (UserProfile checks it too); the app reads it from there.
export * from "../../react/picture-url.js";
