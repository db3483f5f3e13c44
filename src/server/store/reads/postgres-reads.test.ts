import { describe, expect, it } from "vitest";
import { batchSize, MOST_READS_PER_ROUND_TRIP, statementText } from "./postgres-reads.js";

describe("batchSize", () => {
  it("takes the largest power of two up to the most one statement carries", () => {
    expect(MOST_READS_PER_ROUND_TRIP).toBe(8);
    expect([1, 2, 3, 4, 5, 7, 8, 9, 20].map(batchSize)).toEqual([1, 2, 2, 4, 4, 4, 8, 8, 8]);
  });

  it("splits any number of waiting reads into at most log2(8) + 1 statement sizes, none lost", () => {
    const sizes = new Set<number>();
    for (let waiting = 1; waiting <= 100; waiting++) {
      let left = waiting;
      while (left > 0) {
        const size = batchSize(left);
        expect(size).toBeGreaterThan(0);
        expect(size).toBeLessThanOrEqual(left);
        sizes.add(size);
        left -= size;
      }
    }
    expect([...sizes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8]);
  });
});

describe("statementText", () => {
  const shape = { sqlText: 'select "id" from "session" where "userId" = $1 order by "createdAt" desc', arity: 1 };

  it("runs one read as it is, each row as json", () => {
    expect(statementText(shape, 1)).toBe(`select row_to_json(t) as j from (${shape.sqlText}) as t`);
  });

  it("orders coalesced rows by read and by place within the read, in the outer query", () => {
    const text = statementText(shape, 2);
    expect(text).toContain("$1 order by");
    expect(text).toContain("$2 order by");
    expect(text.match(/row_number\(\) over \(\) as p/g)).toHaveLength(2);
    expect(text).toMatch(/\) as reads order by r, p$/);
  });
});
