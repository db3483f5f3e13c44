/**
 * What start-up logs and `gatehouse doctor` says when production serves the metrics without a token:
 * anyone who reaches the path reads route names, sign-in counts and outbox backlogs. Null when fine.
 */
export function openMetricsWarning(
  metrics: { enabled: boolean; path: string; token?: string },
  production: boolean,
): string | null {
  if (!production || !metrics.enabled || metrics.token !== undefined) return null;
  return `metrics.enabled without metrics.token: ${metrics.path} is served to anyone who reaches this port; set metrics.token (scrapers send it as a bearer token) or keep the port off public networks`;
}
