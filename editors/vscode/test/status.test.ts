// Unit tests of the status bar's progress text (node:test).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { progressText, schemaStatusText } from "../src/status";

test("indexing progress reads in the status bar", () => {
  assert.equal(progressText({ kind: "begin", title: "Indexing" }), "indexing");
  assert.equal(progressText({ kind: "report", percentage: 41.6, message: "12/29 modules" }), "indexing 42% (12/29 modules)");
  assert.equal(progressText({ kind: "end" }), "ready");
});

test("provider schemas read in the status bar, with every provider in the tooltip", () => {
  const status = {
    loading: false,
    summary: "provider schemas: 1 of 2 loaded; …",
    providers: [
      { provider: "registry.terraform.io/hashicorp/aws", state: { state: "loaded" } },
      { provider: "registry.terraform.io/hashicorp/null", state: { state: "untrusted" } },
    ],
    errors: [],
    lines: ["aws: loaded from the cache", "null: no schema: untrusted"],
  };
  assert.deepEqual(schemaStatusText(status), {
    text: "schemas 1/2",
    tooltip: "aws: loaded from the cache\nnull: no schema: untrusted",
  });
  assert.equal(schemaStatusText({ ...status, loading: true }).text, "schemas loading");
});
