// The Strata extension: starts `strata serve` with vscode-languageclient (the binary in
// strata.server.path, else on PATH, else the one the platform's package carries), keeps
// its settings in step, and adds the Plan view, Plan Preview, Show Effective Block and
// Restart Server. The planned-action code lens opens the plan text at its resource.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  Trace,
} from "vscode-languageclient/node";
import {
  mergedBlockArgument,
  missingServerMessage,
  offerToTurnOffOtherServer,
  planPreviewArgument,
  readSettings,
  resolveServer,
  serverSettings,
  StrataSettings,
} from "./settings";
import { PlanAnswer, renderedLineOf } from "./plan";
import { PlanView } from "./planView";
import { Progress, progressText, SchemaStatus, schemaStatusText } from "./status";

const PLAN_SCHEME = "strata-plan";
/** The plan text's language: no grammar, and word wrap on by default (package.json). */
const PLAN_LANGUAGE = "strata-plan";
/** HashiCorp's Terraform extension, whose language server would answer the same files. */
const HASHICORP_EXTENSION = "hashicorp.terraform";
const ASKED_ABOUT_OTHER_SERVER = "strata.askedAboutHashicorpServer";
const EFFECTIVE_SCHEME = "strata-effective";
/** The server's command behind the planned-action lens, run here instead (middleware). */
const SHOW_PLANNED_CHANGE = "strata.showPlannedChange";

let client: LanguageClient | undefined;
let progressTitle: string | undefined;
let status: vscode.StatusBarItem;
/** The server's state as last shown, and the provider schemas' part of the item. */
let shown = { text: "starting", tooltip: "" };
let schemas: { text: string; tooltip: string } | undefined;
let planView: PlanView | undefined;
/** Opens the plan text of the module holding a file, at a resource's change if given. */
let openPlan: (source: vscode.Uri, address?: string) => Promise<void> = async () => {};

function settings(): StrataSettings {
  const config = vscode.workspace.getConfiguration("strata");
  return readSettings((key) => config.get(key));
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Restores the executable bit of the bundled binary where unpacking the package lost it. */
function makeExecutable(file: string) {
  if (process.platform === "win32") return;
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(file, 0o755);
    } catch {
      // Starting it reports the problem.
    }
  }
}

function traceOf(s: StrataSettings): Trace {
  return s.trace === "verbose" ? Trace.Verbose : s.trace === "messages" ? Trace.Messages : Trace.Off;
}

/** Shows the server state (and the provider schemas' status) in the status bar. */
function showState(text: string, tooltip: string) {
  shown = { text, tooltip };
  const restricted = !vscode.workspace.isTrusted;
  status.text = `$(layers) Strata: ${text}` + (schemas ? ` · ${schemas.text}` : "") + (restricted ? " · restricted" : "");
  const lines = [tooltip];
  if (schemas) lines.push(schemas.tooltip);
  if (restricted) lines.push(RESTRICTED);
  status.tooltip = lines.join("\n\n");
  status.show();
}

const RESTRICTED = "Restricted mode: this workspace is not trusted, so Strata starts no provider " +
  "binary found inside it; provider schemas come from the cache, plugin caches, mirrors and " +
  "strata.providerSchemas.files.";

async function startClient(context: vscode.ExtensionContext, timing?: { start: number; activated: number }): Promise<void> {
  const s = settings();
  const exe = process.platform === "win32" ? "strata.exe" : "strata";
  const bundled = context.asAbsolutePath(path.join("server", exe));
  const command = resolveServer(s, process.env.PATH, isFile, bundled, exe);
  if (command === bundled) makeExecutable(bundled);
  if (!command) {
    showState("not found", missingServerMessage(s));
    void vscode.window.showErrorMessage(missingServerMessage(s));
    return;
  }
  const serverOptions: ServerOptions = { command, args: ["serve"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "terraform" },
      { scheme: "file", language: "terraform-vars" },
      { scheme: "file", pattern: "**/*.{tf,tofu}.json" },
    ],
    initializationOptions: serverSettings(s, vscode.workspace.isTrusted),
    outputChannelName: "Strata",
    middleware: {
      // Indexing progress shows in the status bar item as well as VS Code's own UI.
      handleWorkDoneProgress: (token, params, next) => {
        const progress = params as Progress;
        if (progress.kind === "begin") progressTitle = progress.title;
        showState(progressText({ ...progress, title: progressTitle }), command);
        next(token, params);
      },
      // The planned-action lens opens the plan text at its resource; the server's own
      // answer (a message) is for clients without a plan view.
      executeCommand: (name, args, next) => {
        const argument = args[0] as { uri?: string; address?: string } | undefined;
        if (name !== SHOW_PLANNED_CHANGE || !argument?.uri) return next(name, args);
        return openPlan(vscode.Uri.parse(argument.uri), argument.address);
      },
    },
  };
  client = new LanguageClient("strata", "Strata", serverOptions, clientOptions);
  schemas = undefined;
  context.subscriptions.push(
    client.onNotification("strata/providerSchemaStatus", (answer: SchemaStatus) => {
      schemas = schemaStatusText(answer);
      showState(shown.text, shown.tooltip);
    }),
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) showState("ready", `Serving with ${command}`);
      else if (e.newState === State.Starting) showState("starting", command);
      else showState("stopped", "The server stopped; run Strata: Restart Server");
    }),
  );
  showState("starting", command);
  await client.start();
  await client.setTrace(traceOf(s));
  if (timing) {
    // How long `activate` took (it does not wait for the server), and when the server
    // answered `initialize`, both from activate's first line: the e2e test reads them from
    // the output channel's log.
    const ready = Math.round(performance.now() - timing.start);
    client.outputChannel.appendLine(`Strata: activated in ${timing.activated} ms; server ready after ${ready} ms`);
  }
  void planView?.refreshActive(true);
}

/** The server's plan of the module holding `source`. */
async function planOf(source: vscode.Uri): Promise<PlanAnswer | undefined> {
  if (!client) return undefined;
  return (await client.sendRequest("workspace/executeCommand", {
    command: "strata.planPreview",
    arguments: [planPreviewArgument(source.toString(), settings())],
  })) as PlanAnswer | null ?? undefined;
}

/** Read-only documents for the plan and the effective block, filled from the server. */
class ServerText implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();

  set(uri: vscode.Uri, text: string) {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "";
  }
}

/** The plan document of the module holding `source`. */
function planUri(source: vscode.Uri): vscode.Uri {
  const dir = vscode.Uri.joinPath(source, "..");
  return vscode.Uri.from({ scheme: PLAN_SCHEME, path: `${dir.path}/plan`, query: dir.toString() });
}

/** The line of the plan text opening the change of the address last asked for, by plan URI. */
const lines = new Map<string, number | undefined>();

async function refreshPlan(text: ServerText, source: vscode.Uri, address?: string): Promise<vscode.Uri | undefined> {
  if (!client) return undefined;
  const result = await planOf(source);
  const uri = planUri(source);
  text.set(uri, result?.rendered ?? "No plan.");
  lines.set(uri.toString(), result && address !== undefined ? renderedLineOf(result, address) : undefined);
  return uri;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const activated = performance.now();
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  status.command = "strata.showPlanPreview";
  const planStatus = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 9);
  planStatus.command = "strata.showPlanPreview";
  context.subscriptions.push(status, planStatus);
  planView = new PlanView(planOf, planStatus);
  planView.register(context);
  const text = new ServerText();
  const previewed = new Map<string, vscode.Uri>();
  openPlan = async (source, address) => {
    const uri = await refreshPlan(text, source, address);
    if (!uri) return;
    previewed.set(vscode.Uri.joinPath(source, "..").toString(), source);
    let doc = await vscode.workspace.openTextDocument(uri);
    // Its own language, whose default turns word wrap on: plan lines are long.
    if (doc.languageId !== PLAN_LANGUAGE) doc = await vscode.languages.setTextDocumentLanguage(doc, PLAN_LANGUAGE);
    const line = address === undefined ? undefined : lines.get(uri.toString());
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      // A lens's click moves to the change; the command keeps the focus where it was.
      preserveFocus: line === undefined,
    });
    if (line !== undefined) {
      const at = new vscode.Position(line, 0);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.AtTop);
    }
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, text),
    vscode.workspace.registerTextDocumentContentProvider(EFFECTIVE_SCHEME, text),
    // Not "strata.planPreview": that is the server's command, which the language client
    // registers itself.
    vscode.commands.registerCommand("strata.showPlanPreview", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme !== "file") {
        void vscode.window.showWarningMessage("Strata: open a Terraform file of the module to plan.");
        return;
      }
      try {
        await openPlan(editor.document.uri);
      } catch (e) {
        void vscode.window.showErrorMessage(`Strata: ${e instanceof Error ? e.message : String(e)}`);
      }
    }),
    vscode.commands.registerCommand("strata.showEffectiveBlock", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !client) return;
      const p = editor.selection.active;
      const result = (await client.sendRequest("workspace/executeCommand", {
        command: "strata.mergedBlock",
        arguments: [mergedBlockArgument(editor.document.uri.toString(), p.line, p.character)],
      })) as { address: string; text: string } | null;
      if (!result) {
        void vscode.window.showInformationMessage("Strata: no block here.");
        return;
      }
      const uri = vscode.Uri.from({ scheme: EFFECTIVE_SCHEME, path: `/${result.address}.tf` });
      text.set(uri, result.text);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.languages.setTextDocumentLanguage(doc, "terraform");
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }),
    vscode.commands.registerCommand("strata.restartServer", async () => {
      if (client) {
        await client.stop();
        client = undefined;
      }
      await startClient(context);
    }),
    // The plan panel follows saves in its module.
    vscode.workspace.onDidSaveTextDocument(async (doc) => {
      const dir = vscode.Uri.joinPath(doc.uri, "..").toString();
      if (previewed.has(dir)) await refreshPlan(text, doc.uri);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("strata")) return;
      // A new binary starts at once; so does any change while no server runs (the binary
      // was not found), instead of waiting for Strata: Restart Server.
      if (e.affectsConfiguration("strata.server.path") || !client) {
        await vscode.commands.executeCommand("strata.restartServer");
        return;
      }
      const s = settings();
      const serverSide = serverSettings(s, vscode.workspace.isTrusted);
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings: serverSide });
      await client.setTrace(traceOf(s));
    }),
    // Trusting the workspace allows its provider binaries: the server loads again.
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      showState(shown.text, shown.tooltip);
      if (!client) return;
      const serverSide = serverSettings(settings(), true);
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings: serverSide });
    }),
  );
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(`Strata: ${RESTRICTED}`);
  }
  void offerToTurnOffHashicorpServer(context);
  // Not awaited: activation ends here, and the server starts in the background (the status
  // bar item says when it is ready).
  const timing = { start: activated, activated: 0 };
  const starting = startClient(context, timing).catch((e) => {
    showState("stopped", `The server did not start: ${e instanceof Error ? e.message : String(e)}`);
  });
  timing.activated = Math.round(performance.now() - activated);
  void starting;
}

/** Offers once to turn off the language server of HashiCorp's extension (keeping its
 * highlighting), so that one server answers each file. */
async function offerToTurnOffHashicorpServer(context: vscode.ExtensionContext) {
  const installed = vscode.extensions.getExtension(HASHICORP_EXTENSION) !== undefined;
  const terraform = vscode.workspace.getConfiguration("terraform");
  const asked = context.globalState.get<boolean>(ASKED_ABOUT_OTHER_SERVER) === true;
  if (!offerToTurnOffOtherServer(installed, terraform.get("languageServer.enable"), asked)) return;
  await context.globalState.update(ASKED_ABOUT_OTHER_SERVER, true);
  const turnOff = "Turn Off Its Language Server";
  const answer = await vscode.window.showInformationMessage(
    "Strata: HashiCorp's Terraform extension runs a language server for the same files, so two " +
      "servers answer each of them. Turn its language server off (its syntax highlighting stays)?",
    turnOff,
    "Keep Both",
  );
  if (answer === turnOff) {
    await terraform.update("languageServer.enable", false, vscode.ConfigurationTarget.Global);
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
