// Stylesheets imported for their side effect (main.tsx): Vite bundles them; TypeScript 7 checks
// that every side-effect import resolves.
/// <reference types="vite/client" />
