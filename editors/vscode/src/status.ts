// The status bar text for the server's work-done progress (workspace indexing) and its
// provider schemas, kept free of the VS Code API so that it can be unit-tested.

/** A `$/progress` value as the server sends it. */
export interface Progress {
  kind: "begin" | "report" | "end";
  title?: string;
  message?: string;
  percentage?: number;
}

/** What the status bar says while `progress` is under way, and after it ends. */
export function progressText(progress: Progress): string {
  if (progress.kind === "end") return "ready";
  const what = (progress.title ?? "indexing").toLowerCase();
  const parts = [what];
  if (typeof progress.percentage === "number") parts.push(`${Math.round(progress.percentage)}%`);
  if (progress.message) parts.push(`(${progress.message})`);
  return parts.join(" ");
}

/** The server's `strata/providerSchemaStatus` notification (and command answer). */
export interface SchemaStatus {
  loading: boolean;
  summary: string;
  providers: { provider: string; state: { state: string } }[];
  errors: string[];
  lines: string[];
}

/** The status bar's part for provider schemas (`schemas 1/2`), and its tooltip lines. */
export function schemaStatusText(status: SchemaStatus): { text: string; tooltip: string } {
  const loaded = status.providers.filter((p) => p.state.state === "loaded").length;
  const total = status.providers.length;
  const text = status.loading ? "schemas loading" : `schemas ${loaded}/${total}`;
  const lines = [...status.errors, ...status.lines];
  const tooltip = lines.length > 0 ? lines.join("\n") : status.summary;
  return { text, tooltip };
}
