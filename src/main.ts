import { restartWithMallocSettings } from "./malloc-settings.js";

// Before the service's modules load: on Linux this may replace the process (see malloc-settings.ts).
restartWithMallocSettings();

const { readEnvironment } = await import("./server/environment.js");
const { ConfigError } = await import("./server/options.js");
const { startService } = await import("./service.js");

/**
 * `npm start`: the service, configured from the environment (docs/configuration.md). The environment
 * is read inside the promise, so its ConfigError (bad AUTH_CONFIG JSON, no secret in production) is
 * said in words with exit 78, never thrown as a stack trace.
 */
Promise.resolve()
  .then(() => startService(readEnvironment()))
  .catch((error) => {
    if (error instanceof ConfigError) {
      console.error(`Gatehouse cannot start:\n${error.message}`);
      process.exit(78);
    }
    console.error(error);
    process.exit(1);
  });
