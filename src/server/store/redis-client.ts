/**
 * The part of an ioredis client Gatehouse calls, described by shape. The package's public
 * declarations name this instead of ioredis's `Redis`, so a consumer type-checking with
 * skipLibCheck off compiles without ioredis installed (it is an optional peer). An ioredis `Redis`
 * fits it as it is.
 */
export interface RedisClient {
  publish(channel: string, message: string): Promise<unknown>;
  eval(script: string, numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
  duplicate(options: { autoResubscribe: boolean; lazyConnect: boolean }): RedisSubscriber;
}

/** A dedicated connection for SUBSCRIBE (a subscribed Redis connection can do nothing else). */
export interface RedisSubscriber {
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "close" | "ready", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  connect(): Promise<unknown>;
  disconnect(): void;
}
