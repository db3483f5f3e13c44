import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashWorkerPool } from "./hash-workers.js";

/** phpass's MD5 rounds on this thread, to compare the workers' answer with. */
function md5Rounds(salt: string, password: string, rounds: number): Uint8Array {
  let digest = createHash("md5").update(salt).update(password).digest();
  for (let round = rounds; round > 0; round -= 1) digest = createHash("md5").update(digest).update(password).digest();
  return new Uint8Array(digest);
}

describe("hash worker pool", () => {
  it("runs more jobs than workers, each answered with its own result", async () => {
    const run = hashWorkerPool(2);
    const jobs = Array.from({ length: 6 }, (_, i) => ({ salt: `salt${i}xx`, password: `password ${i}`, rounds: 256 }));
    const results = await Promise.all(jobs.map((input) => run("phpass", input)));
    expect(results).toEqual(jobs.map(({ salt, password, rounds }) => md5Rounds(salt, password, rounds)));
  });

  it("a job that throws in the worker is refused, and the pool serves the next one", async () => {
    const run = hashWorkerPool(1);
    await expect(run("bcrypt", { password: "x", hash: "not bcrypt" })).rejects.toThrow();
    expect(await run("phpass", { salt: "saltsalt", password: "x", rounds: 1 })).toEqual(md5Rounds("saltsalt", "x", 1));
  });
});
