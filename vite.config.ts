import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** The application: sources in src/app, built into dist/app, which src/main.ts serves. */
export default defineConfig({
  root: "src/app",
  plugins: [react()],
  build: {
    outDir: "../../dist/app",
    emptyOutDir: true,
    // React and the other libraries change less often than the app: separate chunks cache longer
    // and keep each under the 500 kB warning.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "react-dom", test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: "react", test: /node_modules[\\/](react|react-router)[\\/]/ },
            // The common-password list behind the password meter: ~600 kB, loaded only when a new
            // password is typed, so never part of the vendor chunk every page loads.
            { name: "common-passwords", test: /node_modules[\\/]@zxcvbn-ts[\\/]/, priority: 1 },
            { name: "vendor", test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { "/api/auth": "http://localhost:3000" } },
});
