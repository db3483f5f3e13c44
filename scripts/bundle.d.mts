/** Bundles `entry` into `outdir` (emptied first): ESM for Node, dependencies left as imports. */
export function bundle(entry: string, outdir: string): Promise<void>;
