// What the extension sends the server, computed from VS Code's settings without touching
// the VS Code API, so that it can be unit-tested in plain Node.
import * as path from "node:path";

/** The extension's settings, as the user set them. */
export interface StrataSettings {
  /** `strata.server.path`: empty for `strata` on PATH. */
  serverPath: string;
  /** `strata.dialect`: `auto`, `terraform` or `opentofu`. */
  dialect: string;
  /** `strata.plan.statePath`: empty for `terraform.tfstate` in each module. */
  statePath: string;
  /** `strata.trace.server`: `off`, `messages` or `verbose`. */
  trace: string;
  /** `strata.terraformVersion`: the version `required_version` is checked against;
   * empty for version files, else the release the server targets. */
  terraformVersion: string;
  /** `strata.providerSchemas.files`: schema files used before the cache and binaries. */
  schemaFiles: string[];
  /** `strata.providerSchemas.runPlugins`: whether provider binaries inside the
   * workspace may be started. */
  runPlugins: boolean;
}

/** Reads the settings through `get` (VS Code's `WorkspaceConfiguration.get` for `strata`). */
export function readSettings(get: (key: string) => unknown): StrataSettings {
  const text = (key: string, fallback: string) => {
    const value = get(key);
    return typeof value === "string" ? value : fallback;
  };
  const strings = (key: string) => {
    const value = get(key);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
  };
  return {
    serverPath: text("server.path", ""),
    dialect: text("dialect", "auto"),
    statePath: text("plan.statePath", ""),
    trace: text("trace.server", "off"),
    terraformVersion: text("terraformVersion", ""),
    schemaFiles: strings("providerSchemas.files"),
    runPlugins: get("providerSchemas.runPlugins") !== false,
  };
}

/** The server's settings object: `initializationOptions`, and the `settings` of
 * `workspace/didChangeConfiguration`. Defaults are left out so the server decides. In a
 * workspace VS Code does not trust (`trusted` false), provider binaries inside it are
 * never started, whatever the setting says. */
export function serverSettings(s: StrataSettings, trusted = true): { strata: Record<string, unknown> } {
  const strata: Record<string, unknown> = {};
  if (s.dialect === "terraform" || s.dialect === "opentofu") {
    strata.dialect = s.dialect;
  }
  if (s.statePath.trim() !== "") {
    strata.plan = { statePath: s.statePath.trim() };
  }
  if (s.terraformVersion.trim() !== "") {
    strata.terraformVersion = s.terraformVersion.trim();
  }
  const runPlugins = s.runPlugins && trusted;
  if (s.schemaFiles.length > 0 || !runPlugins) {
    strata.providerSchemas = { files: s.schemaFiles, runPlugins };
  }
  return { strata };
}

/** The binary to start: the setting when set (and only it), else `exe` found on `PATH`,
 * else `bundled`, the binary a platform-specific package carries. */
export function resolveServer(
  s: StrataSettings,
  pathEnv: string | undefined,
  isFile: (p: string) => boolean,
  bundled?: string,
  exe = "strata",
): string | undefined {
  if (s.serverPath.trim() !== "") {
    return isFile(s.serverPath) ? s.serverPath : undefined;
  }
  for (const dir of (pathEnv ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, exe);
    if (isFile(candidate)) return candidate;
  }
  return bundled !== undefined && isFile(bundled) ? bundled : undefined;
}

/** Whether to offer turning off HashiCorp's language server: its extension is installed,
 * its `terraform.languageServer.enable` is not already false, and the user was not asked. */
export function offerToTurnOffOtherServer(installed: boolean, enabled: unknown, asked: boolean): boolean {
  return installed && enabled !== false && !asked;
}

/** What to tell a user whose server cannot be found. */
export function missingServerMessage(s: StrataSettings): string {
  const where = s.serverPath.trim() !== "" ? `at ${s.serverPath} (strata.server.path)` : "on PATH";
  return `Strata: the strata binary was not found ${where}. Install it with ` +
    "`cargo install --locked --path server` from a Strata clone, or set strata.server.path.";
}

/** The argument of the server's `strata.planPreview` command for a document. */
export function planPreviewArgument(documentUri: string, s: StrataSettings): Record<string, unknown> {
  const argument: Record<string, unknown> = { uri: documentUri };
  if (s.statePath.trim() !== "") argument.state = s.statePath.trim();
  return argument;
}

/** The argument of the server's `strata.mergedBlock` command. */
export function mergedBlockArgument(
  documentUri: string,
  line: number,
  character: number,
): { uri: string; position: { line: number; character: number } } {
  return { uri: documentUri, position: { line, character } };
}
