import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * The legacy hash computations that are plain CPU work in JavaScript or WebAssembly (bcrypt through
 * hash-wasm, phpass's MD5 rounds), run in worker threads: on the event loop a single one stopped
 * every request until it ended. node:crypto's scrypt and PBKDF2 need none of this (libuv's pool).
 *
 * The worker's code is a string evaluated as CommonJS, so the same code runs from the sources (tsx,
 * vitest), from tsc's output and from the esbuild bundles, which would not carry a worker file.
 * hash-wasm is resolved here and handed over as a path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { bcryptVerify } = require(workerData.hashWasm);
const tasks = {
  // bcrypt reads 72 bytes of the password, and the systems that made these hashes dropped the rest.
  bcrypt: ({ password, hash }) => bcryptVerify({ password: Buffer.from(password).subarray(0, 72), hash }),
  phpass: ({ salt, password, rounds }) => {
    const secret = Buffer.from(password);
    let digest = createHash("md5").update(salt).update(secret).digest();
    for (let round = rounds; round > 0; round -= 1) digest = createHash("md5").update(digest).update(secret).digest();
    return new Uint8Array(digest);
  },
};
parentPort.on("message", async ({ task, input }) => {
  try {
    parentPort.postMessage({ result: await tasks[task](input) });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

export interface HashTasks {
  /** hash-wasm's bcryptVerify of a well-formed bcrypt text. */
  bcrypt: { input: { password: string; hash: string }; result: boolean };
  /** phpass's digest: MD5 of salt + password, then `rounds` times of the digest + password. */
  phpass: { input: { salt: string; password: string; rounds: number }; result: Uint8Array };
}

interface Job {
  task: keyof HashTasks;
  input: unknown;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

/**
 * Up to `size` workers, started when first needed; jobs beyond them wait in order. An idle worker
 * does not keep the process alive; a worker that dies fails its job and is replaced by the next one.
 */
export function hashWorkerPool(
  size: number,
): <T extends keyof HashTasks>(task: T, input: HashTasks[T]["input"]) => Promise<HashTasks[T]["result"]> {
  const hashWasm = createRequire(import.meta.url).resolve("hash-wasm");
  const idle: Worker[] = [];
  const waiting: Job[] = [];
  let started = 0;

  const start = (): Worker => {
    started += 1;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { hashWasm } });
    worker.unref();
    worker.once("exit", () => {
      started -= 1;
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const queued = waiting.shift();
      if (queued) runOn(start(), queued);
    });
    return worker;
  };

  const runOn = (worker: Worker, job: Job) => {
    const settle = (outcome: () => void) => {
      worker.off("message", onMessage).off("error", onFailure).off("exit", onFailure);
      worker.unref();
      outcome();
    };
    const onMessage = (message: { result?: unknown; error?: string }) =>
      settle(() => {
        if (message.error === undefined) job.resolve(message.result);
        else job.reject(new Error(message.error));
        next(worker);
      });
    const onFailure = (error: unknown) =>
      settle(() => {
        void worker.terminate();
        job.reject(error instanceof Error ? error : new Error(`hash worker exited (${String(error)})`));
      });
    worker.on("message", onMessage).once("error", onFailure).once("exit", onFailure);
    worker.ref();
    worker.postMessage({ task: job.task, input: job.input });
  };

  const next = (worker: Worker) => {
    const queued = waiting.shift();
    if (queued) runOn(worker, queued);
    else idle.push(worker);
  };

  return (task, input) =>
    new Promise((resolve, reject) => {
      const job: Job = { task, input, resolve: resolve as (result: unknown) => void, reject };
      const worker = idle.pop() ?? (started < size ? start() : undefined);
      if (worker) runOn(worker, job);
      else waiting.push(job);
    });
}

let shared: ReturnType<typeof hashWorkerPool> | undefined;

/** The process's pool, one worker per usable core at most. */
export function runHashTask<T extends keyof HashTasks>(
  task: T,
  input: HashTasks[T]["input"],
): Promise<HashTasks[T]["result"]> {
  shared ??= hashWorkerPool(availableParallelism());
  return shared(task, input);
}
