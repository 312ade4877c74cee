// The Plan view in the Explorer: the plan of the active module's resources grouped by
// action, each with its icon and Terraform's reason; a click reveals the block. The
// status bar item beside it says `Plan: +1 ~1 -1 ±1`. Both refresh when the active module
// changes and when one of its files is saved.
import * as vscode from "vscode";
import { ACTIONS, ActionKind, groupChanges, PlanAnswer, PlannedChange, planSummary } from "./plan";

type Node = { kind: ActionKind; changes: PlannedChange[] } | PlannedChange;

function isGroup(node: Node): node is { kind: ActionKind; changes: PlannedChange[] } {
  return "changes" in node;
}

/** The command a change's item runs: opens its file with the block selected. */
export const REVEAL_COMMAND = "strata.revealPlannedChange";

export class PlanView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private groups: { kind: ActionKind; changes: PlannedChange[] }[] = [];
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
      answer = { errors: [{ summary: e instanceof Error ? e.message : String(e) }] };
    }
    if (!answer) return;
    this.groups = groupChanges(answer);
    const errors = answer.errors ?? [];
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
    if (node.uri && node.range) {
      const r = node.range;
      item.command = {
        command: REVEAL_COMMAND,
        title: "Reveal",
        arguments: [node.uri, new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character)],
      };
    }
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups;
    return isGroup(node) ? node.changes : [];
  }
}

/** The directory of a document, as a URI string. */
function moduleOf(uri: vscode.Uri): string {
  return vscode.Uri.joinPath(uri, "..").toString();
}

function isTerraform(doc: vscode.TextDocument): boolean {
  return doc.languageId === "terraform" || /\.(tf|tofu)(\.json)?$/.test(doc.uri.path);
}
