import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The application: sources in src/app, built into dist/app, which src/main.ts serves. */
export default defineConfig({
  root: "src/app",
  plugins: [react()],
  build: { outDir: "../../dist/app", emptyOutDir: true },
  server: { proxy: { "/api/auth": "http://localhost:3000" } },
});
