// The status bar text for the server's work-done progress (workspace indexing), kept
// free of the VS Code API so that it can be unit-tested.

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
