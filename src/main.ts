import { readEnvironment } from "./server/environment.js";
import { ConfigError } from "./server/options.js";
import { startService } from "./service.js";

/**
 * `npm start`: the service, configured from the environment (CONFIG.md). The environment is read
 * inside the promise, so its ConfigError (bad AUTH_CONFIG JSON, no secret in production) is said
 * in words with exit 78, never thrown as a stack trace.
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
