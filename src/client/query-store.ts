import type { AuthClientError, Result } from "./request.js";

export interface QueryState<T> {
  data: T | null;
  error: AuthClientError | null;
  /** True until the first answer arrives. */
  isPending: boolean;
  /** True while a later read is in flight (data stays visible meanwhile). */
  isRefetching: boolean;
}

/**
 * One piece of server state the UI watches (the session, the active organization, ...): loaded on
 * first use, read again on demand, with subscribers told about every change. Built for
 * React's useSyncExternalStore: getSnapshot returns the same object until something changes.
 */
export class QueryStore<T> {
  #state: QueryState<T> = { data: null, error: null, isPending: true, isRefetching: false };
  readonly #listeners = new Set<() => void>();
  readonly #load: () => Promise<Result<T>>;
  #inFlight: Promise<void> | null = null;
  #again = false;
  #started = false;

  constructor(load: () => Promise<Result<T>>) {
    this.#load = load;
  }

  getSnapshot = (): QueryState<T> => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    this.start();
    return () => this.#listeners.delete(listener);
  };

  /** Hears every change without starting a read (subscribe starts one). */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Whether anything asked for this state yet (stores nobody watches are not read again). */
  get started(): boolean {
    return this.#started;
  }

  /** Loads once if nothing has been loaded yet. */
  start(): Promise<void> {
    if (this.#started) return this.#inFlight ?? Promise.resolve();
    return this.refetch();
  }

  /** Reads again; calls made while a read is in flight share one follow-up read. */
  refetch(): Promise<void> {
    this.#started = true;
    if (this.#inFlight) {
      this.#again = true;
      return this.#inFlight;
    }
    if (!this.#state.isPending) this.#set({ ...this.#state, isRefetching: true });
    this.#inFlight = this.#run().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  /** Replaces the data without a request (e.g. after sign-out the session is known to be gone). */
  setData(data: T | null): void {
    this.#set({ ...this.#state, data, error: null, isPending: false });
  }

  async #run(): Promise<void> {
    do {
      this.#again = false;
      const result = await this.#load();
      this.#set({ data: result.data, error: result.error, isPending: false, isRefetching: this.#again });
    } while (this.#again);
  }

  #set(state: QueryState<T>): void {
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}
