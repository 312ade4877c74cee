// Unit tests of the settings mapping and command arguments (node:test).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import {
  mergedBlockArgument,
  missingServerMessage,
  planPreviewArgument,
  readSettings,
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
  assert.match(missingServerMessage(settings({})), /cargo install --locked --path server/);
  assert.match(missingServerMessage(settings({ "server.path": "/nope" })), /at \/nope/);
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
