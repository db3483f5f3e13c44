/**
 * How many requests a race test fires at once. PostgreSQL runs them side by side and takes the 150
 * the project's standard asks of every limit. SQLite writes one transaction at a time: a burst of 40
 * already puts many requests past each limit there, at a quarter of the cost.
 */
export const PARALLEL_REQUESTS = process.env.TEST_DIALECT === "postgres" ? 150 : 40;
