// Unit tests of the status bar's progress text (node:test).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { progressText } from "../src/status";

test("indexing progress reads in the status bar", () => {
  assert.equal(progressText({ kind: "begin", title: "Indexing" }), "indexing");
  assert.equal(progressText({ kind: "report", percentage: 41.6, message: "12/29 modules" }), "indexing 42% (12/29 modules)");
  assert.equal(progressText({ kind: "end" }), "ready");
});
