// The Plan view's model: the server's `strata.planPreview` answer grouped by action, and
// the status bar's summary, free of the VS Code API so that it can be unit-tested.

/** An LSP range. */
export interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** The parts of the `strata.planPreview` answer the view reads. */
export interface PlanAnswer {
  resource_changes?: { address: string; change: { actions: string[] } }[];
  /** Per change, in the same order: the words and the declaration. */
  places?: { description: string; uri?: string; range?: Range; rendered_line?: number }[];
  errors?: PlanError[];
  rendered?: string;
}

/** An error of the plan: `text` as `strata check` prints it (source lines included), and
 * where it is. */
export interface PlanError {
  summary: string;
  detail?: string;
  text?: string;
  uri?: string;
  location_range?: Range;
}

/** The line of `rendered` (from 0) that opens the change of `address`, if it shows it. */
export function renderedLineOf(answer: PlanAnswer, address: string): number | undefined {
  const i = (answer.resource_changes ?? []).findIndex((c) => c.address === address);
  return i < 0 ? undefined : answer.places?.[i]?.rendered_line;
}

/** What the Plan view shows of an error under its summary: the lines of its text after the
 * `Error: summary` line, blank lines left out. */
export function errorLines(error: PlanError): string[] {
  const lines = (error.text ?? "").split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 0 && /^(Error|Warning): /.test(lines[0])) lines.shift();
  return lines;
}

/** The kinds of planned action, in the order the view lists them. */
export type ActionKind = "create" | "update" | "replace" | "delete" | "read" | "forget" | "no-op";

/** What the view shows of each kind: a title and the codicon of its items. */
export const ACTIONS: Record<ActionKind, { title: string; icon: string }> = {
  create: { title: "Create", icon: "add" },
  update: { title: "Update in place", icon: "edit" },
  replace: { title: "Replace", icon: "sync" },
  delete: { title: "Destroy", icon: "trash" },
  read: { title: "Read", icon: "eye" },
  forget: { title: "Forget", icon: "circle-slash" },
  "no-op": { title: "No changes", icon: "check" },
};

/** One change of the view. */
export interface PlannedChange {
  address: string;
  kind: ActionKind;
  /** "will be replaced: triggers_replace changed", as the code lens says it. */
  description: string;
  uri?: string;
  range?: Range;
}

/** A change's kind from `show -json`'s `actions`. */
export function actionKind(actions: string[]): ActionKind {
  const key = actions.join(",");
  switch (key) {
    case "create":
    case "update":
    case "delete":
    case "read":
    case "forget":
      return key;
    case "delete,create":
    case "create,delete":
      return "replace";
    default:
      return "no-op";
  }
}

/** The changes grouped by kind, groups in the view's order, empty groups left out. */
export function groupChanges(answer: PlanAnswer): { kind: ActionKind; changes: PlannedChange[] }[] {
  const groups = new Map<ActionKind, PlannedChange[]>();
  (answer.resource_changes ?? []).forEach((c, i) => {
    const place = answer.places?.[i];
    const kind = actionKind(c.change.actions);
    const list = groups.get(kind) ?? [];
    list.push({ address: c.address, kind, description: place?.description ?? "", uri: place?.uri, range: place?.range });
    groups.set(kind, list);
  });
  return (Object.keys(ACTIONS) as ActionKind[])
    .filter((kind) => groups.has(kind))
    .map((kind) => ({ kind, changes: groups.get(kind) ?? [] }));
}

/** The status bar's words: `Plan: +1 ~1 -1 ±1` (create, update, destroy, replace), `Plan: no
 * changes`, or `Plan: errors` when the plan failed. */
export function planSummary(answer: PlanAnswer): string {
  if ((answer.errors ?? []).length > 0) return "Plan: errors";
  const count = (kind: ActionKind) =>
    (answer.resource_changes ?? []).filter((c) => actionKind(c.change.actions) === kind).length;
  const parts = [
    ["+", count("create")],
    ["~", count("update")],
    ["-", count("delete")],
    ["±", count("replace")],
  ].filter(([, n]) => (n as number) > 0).map(([sign, n]) => `${sign}${n}`);
  return parts.length > 0 ? `Plan: ${parts.join(" ")}` : "Plan: no changes";
}
