// The Plan view in the Explorer: the plan of the active module's resources grouped by
// action, each with its icon and Terraform's reason; a click reveals the block. A plan's
// errors come first, each with its source lines as `strata check` prints them; a click
// reveals the place. The status bar item beside it says `Plan: +1 ~1 -1 ±1`. Both refresh
// when the active module changes and when one of its files is saved.
import * as vscode from "vscode";
import {
  ACTIONS,
  ActionKind,
  errorLines,
  groupChanges,
  PlanAnswer,
  PlanError,
  PlannedChange,
  planSummary,
  Range,
} from "./plan";

type Group = { kind: ActionKind; changes: PlannedChange[] };
/** An error, and one line of the text under its summary. */
type ErrorNode = { error: PlanError; line?: string };
type Node = Group | PlannedChange | ErrorNode;

function isGroup(node: Node): node is Group {
  return "changes" in node;
}

function isError(node: Node): node is ErrorNode {
  return "error" in node;
}

/** LSP's error code for a request an edit made moot. */
const CONTENT_MODIFIED = -32801;

/** The command a change's item runs: opens its file with the block selected. */
export const REVEAL_COMMAND = "strata.revealPlannedChange";

export class PlanView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private groups: Group[] = [];
  private errors: PlanError[] = [];
  /** The module directory planned last (a URI string). */
  private module: string | undefined;
  private view: vscode.TreeView<Node> | undefined;

  constructor(
    private readonly plan: (source: vscode.Uri) => Promise<PlanAnswer | undefined>,
    private readonly status: vscode.StatusBarItem,
  ) {}

  /** Registers the view, its commands and the events that refresh it. */
  register(context: vscode.ExtensionContext) {
    this.view = vscode.window.createTreeView("strata.planView", { treeDataProvider: this });
    context.subscriptions.push(
      this.view,
      vscode.commands.registerCommand(REVEAL_COMMAND, async (uri: string, range: vscode.Range) => {
        const editor = await vscode.window.showTextDocument(vscode.Uri.parse(uri), { preview: true });
        editor.selection = new vscode.Selection(range.start, range.end);
        editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }),
      vscode.commands.registerCommand("strata.refreshPlanView", () => this.refreshActive(true)),
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshActive(false)),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (moduleOf(doc.uri) === this.module) void this.refresh(doc.uri);
      }),
    );
    void this.refreshActive(false);
  }

  /** Plans the active editor's module: always when `force`, else when it is another one. */
  async refreshActive(force: boolean) {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== "file" || !isTerraform(doc)) return;
    if (force || moduleOf(doc.uri) !== this.module) await this.refresh(doc.uri);
  }

  /** Plans the module of `source` and shows it. */
  async refresh(source: vscode.Uri) {
    this.module = moduleOf(source);
    let answer: PlanAnswer | undefined;
    try {
      answer = await this.plan(source);
    } catch (e) {
      // An edit superseded the plan (LSP's ContentModified): the next refresh shows it.
      if ((e as { code?: number }).code === CONTENT_MODIFIED) return;
      answer = { errors: [{ summary: e instanceof Error ? e.message : String(e) }] };
    }
    if (!answer) return;
    this.groups = groupChanges(answer);
    const errors = answer.errors ?? [];
    this.errors = errors;
    if (this.view) {
      this.view.message = errors.length > 0
        ? `The plan has errors: ${errors.map((e) => e.summary).join("; ")}`
        : this.groups.length === 0 ? "No resources to plan." : undefined;
    }
    this.status.text = `$(list-tree) ${planSummary(answer)}`;
    this.status.tooltip = "Strata: the plan of this module (click for its text)";
    this.status.show();
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (isError(node)) return errorItem(node);
    if (isGroup(node)) {
      const { title, icon } = ACTIONS[node.kind];
      const item = new vscode.TreeItem(`${title} (${node.changes.length})`,
        node.kind === "no-op" ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon(icon);
      item.contextValue = "strata.planGroup";
      return item;
    }
    const item = new vscode.TreeItem(node.address, vscode.TreeItemCollapsibleState.None);
    item.description = node.description;
    item.tooltip = `${node.address} ${node.description}`;
    item.iconPath = new vscode.ThemeIcon(ACTIONS[node.kind].icon);
    item.command = revealCommand(node.uri, node.range);
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return [...this.errors.map((error) => ({ error })), ...this.groups];
    if (isError(node)) return node.line === undefined ? errorLines(node.error).map((line) => ({ error: node.error, line })) : [];
    return isGroup(node) ? node.changes : [];
  }
}

/** The command revealing a range of a file, when there is one. */
function revealCommand(uri: string | undefined, r: Range | undefined): vscode.Command | undefined {
  if (!uri || !r) return undefined;
  return {
    command: REVEAL_COMMAND,
    title: "Reveal",
    arguments: [uri, new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character)],
  };
}

/** An error (expanded: its source lines and detail under it), or one of those lines. */
function errorItem(node: ErrorNode): vscode.TreeItem {
  const { error, line } = node;
  const item = line === undefined
    ? new vscode.TreeItem(error.summary, vscode.TreeItemCollapsibleState.Expanded)
    : new vscode.TreeItem(line, vscode.TreeItemCollapsibleState.None);
  if (line === undefined) {
    item.iconPath = new vscode.ThemeIcon("error", new vscode.ThemeColor("problemsErrorIcon.foreground"));
    item.contextValue = "strata.planError";
  }
  if (error.text) item.tooltip = new vscode.MarkdownString().appendCodeblock(error.text, "text");
  item.command = revealCommand(error.uri, error.location_range);
  return item;
}

/** The directory of a document, as a URI string. */
function moduleOf(uri: vscode.Uri): string {
  return vscode.Uri.joinPath(uri, "..").toString();
}

function isTerraform(doc: vscode.TextDocument): boolean {
  return doc.languageId === "terraform" || /\.(tf|tofu)(\.json)?$/.test(doc.uri.path);
}
