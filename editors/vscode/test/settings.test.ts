// Unit tests of the settings mapping and command arguments (node:test).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import {
  mergedBlockArgument,
  missingServerMessage,
  planPreviewArgument,
  readSettings,
  offerToTurnOffOtherServer,
  resolveServer,
  serverSettings,
} from "../src/settings";

const settings = (values: Record<string, unknown>) => readSettings((k) => values[k]);

test("defaults send no settings, so the server decides", () => {
  const s = settings({});
  assert.deepEqual(s, {
    serverPath: "",
    dialect: "auto",
    statePath: "",
    trace: "off",
    terraformVersion: "",
    schemaFiles: [],
    runPlugins: true,
  });
  assert.deepEqual(serverSettings(s), { strata: {} });
});

test("provider schema settings are sent, and an untrusted workspace never runs plugins", () => {
  const files = settings({ "providerSchemas.files": ["schemas.json", "", 3] });
  assert.deepEqual(serverSettings(files), {
    strata: { providerSchemas: { files: ["schemas.json"], runPlugins: true } },
  });
  assert.deepEqual(serverSettings(settings({ "providerSchemas.runPlugins": false })), {
    strata: { providerSchemas: { files: [], runPlugins: false } },
  });
  assert.deepEqual(serverSettings(settings({}), false), {
    strata: { providerSchemas: { files: [], runPlugins: false } },
  });
});

test("dialect and state path map to the server's shape", () => {
  const s = settings({ dialect: "opentofu", "plan.statePath": " envs/prod.tfstate " });
  assert.deepEqual(serverSettings(s), {
    strata: { dialect: "opentofu", plan: { statePath: "envs/prod.tfstate" } },
  });
  assert.deepEqual(serverSettings(settings({ dialect: "auto" })), { strata: {} });
});

test("the Terraform version is sent when set", () => {
  assert.deepEqual(serverSettings(settings({ terraformVersion: " 1.9.8 " })), {
    strata: { terraformVersion: "1.9.8" },
  });
});

test("values of the wrong type fall back to the defaults", () => {
  assert.equal(settings({ dialect: 3 }).dialect, "auto");
});

test("the server is the setting, else strata on PATH", () => {
  const files = new Set(["/opt/bin/strata", "/custom/strata"]);
  const isFile = (p: string) => files.has(p);
  assert.equal(resolveServer(settings({}), "/usr/bin:/opt/bin", isFile), "/opt/bin/strata");
  assert.equal(resolveServer(settings({}), "/usr/bin", isFile), undefined);
  assert.equal(resolveServer(settings({ "server.path": "/custom/strata" }), "", isFile), "/custom/strata");
  assert.equal(resolveServer(settings({ "server.path": "/nope" }), "/opt/bin", isFile), undefined);
  // The binary a platform package carries comes last: the setting and PATH override it.
  const ext = "/ext/server/strata";
  const withBundled = (p: string) => isFile(p) || p === ext;
  assert.equal(resolveServer(settings({}), "/usr/bin", withBundled, ext), ext);
  assert.equal(resolveServer(settings({}), "/opt/bin", withBundled, ext), "/opt/bin/strata");
  assert.equal(resolveServer(settings({ "server.path": "/custom/strata" }), "", withBundled, ext), "/custom/strata");
  assert.equal(resolveServer(settings({ "server.path": "/nope" }), "", withBundled, ext), undefined);
  assert.equal(resolveServer(settings({}), "/usr/bin", isFile, ext), undefined);
  assert.equal(resolveServer(settings({}), "C:\\bin", (p) => p.endsWith("strata.exe"), undefined, "strata.exe")?.endsWith("strata.exe"), true);
  assert.match(missingServerMessage(settings({})), /cargo install --locked --path server/);
  assert.match(missingServerMessage(settings({ "server.path": "/nope" })), /at \/nope/);
});

test("HashiCorp's language server is offered to be turned off once, when it is on", () => {
  assert.equal(offerToTurnOffOtherServer(true, undefined, false), true);
  assert.equal(offerToTurnOffOtherServer(true, true, false), true);
  assert.equal(offerToTurnOffOtherServer(true, false, false), false);
  assert.equal(offerToTurnOffOtherServer(true, true, true), false);
  assert.equal(offerToTurnOffOtherServer(false, true, false), false);
});

test("command arguments are the objects the server takes", () => {
  assert.deepEqual(planPreviewArgument("file:///w/main.tf", settings({})), { uri: "file:///w/main.tf" });
  assert.deepEqual(planPreviewArgument("file:///w/main.tf", settings({ "plan.statePath": "s.json" })), {
    uri: "file:///w/main.tf",
    state: "s.json",
  });
  assert.deepEqual(mergedBlockArgument("file:///w/main.tf", 3, 9), {
    uri: "file:///w/main.tf",
    position: { line: 3, character: 9 },
  });
});
