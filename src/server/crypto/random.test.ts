import { describe, expect, it } from "vitest";
import { newSortableId } from "./random.js";

describe("newSortableId", () => {
  it("sorts in the order made, within one millisecond and across them", () => {
    const at = new Date("2026-12-06T09:00:00.000Z");
    const later = new Date("2026-12-06T09:00:00.001Z");
    const ids = [newSortableId(at), newSortableId(at), newSortableId(at), newSortableId(later)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });
});
