// Unit tests of the Plan view's grouping, errors and lines, and the status bar's plan
// summary (node:test).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { actionKind, errorLines, groupChanges, planSummary, PlanAnswer, renderedLineOf } from "../src/plan";

const range = { start: { line: 4, character: 0 }, end: { line: 6, character: 1 } };

const answer: PlanAnswer = {
  resource_changes: [
    { address: "terraform_data.a", change: { actions: ["create"] } },
    { address: "terraform_data.b", change: { actions: ["delete", "create"] } },
    { address: "terraform_data.c", change: { actions: ["update"] } },
    { address: "terraform_data.d", change: { actions: ["no-op"] } },
    { address: "terraform_data.e", change: { actions: ["delete"] } },
    { address: "terraform_data.f", change: { actions: ["create", "delete"] } },
  ],
  places: [
    { description: "will be created", uri: "file:///m/main.tf", range },
    { description: "will be replaced: triggers_replace changed", uri: "file:///m/main.tf", range },
    { description: "will be updated in-place" },
    { description: "no changes" },
    { description: "will be destroyed" },
    { description: "will be replaced" },
  ],
};

test("actions map to the view's kinds", () => {
  assert.equal(actionKind(["create"]), "create");
  assert.equal(actionKind(["delete", "create"]), "replace");
  assert.equal(actionKind(["create", "delete"]), "replace");
  assert.equal(actionKind(["read"]), "read");
  assert.equal(actionKind(["no-op"]), "no-op");
});

test("changes are grouped by action in the view's order, with their words and places", () => {
  const groups = groupChanges(answer);
  assert.deepEqual(groups.map((g) => g.kind), ["create", "update", "replace", "delete", "no-op"]);
  const replace = groups.find((g) => g.kind === "replace")!;
  assert.deepEqual(replace.changes.map((c) => c.address), ["terraform_data.b", "terraform_data.f"]);
  assert.equal(replace.changes[0].description, "will be replaced: triggers_replace changed");
  assert.equal(replace.changes[0].uri, "file:///m/main.tf");
  assert.deepEqual(replace.changes[0].range, range);
  assert.equal(replace.changes[1].uri, undefined);
});

test("the status bar counts creations, updates, destructions and replacements", () => {
  assert.equal(planSummary(answer), "Plan: +1 ~1 -1 ±2");
  assert.equal(planSummary({ resource_changes: [{ address: "x.y", change: { actions: ["no-op"] } }] }), "Plan: no changes");
  assert.equal(planSummary({ resource_changes: [], errors: [{ summary: "Invalid state" }] }), "Plan: errors");
});

test("a lens's resource is found at the line the server gives for it", () => {
  const answer: PlanAnswer = {
    resource_changes: [
      { address: "terraform_data.a", change: { actions: ["no-op"] } },
      { address: "terraform_data.b", change: { actions: ["create"] } },
    ],
    places: [{ description: "no changes" }, { description: "will be created", rendered_line: 7 }],
  };
  assert.equal(renderedLineOf(answer, "terraform_data.b"), 7);
  assert.equal(renderedLineOf(answer, "terraform_data.a"), undefined);
  assert.equal(renderedLineOf(answer, "terraform_data.z"), undefined);
});

test("an error shows the lines of its text under its summary", () => {
  const text = "\nError: Reference to undeclared input variable\n\n" +
    '  on main.tf line 2, in resource "terraform_data" "a":\n   2:   input = var.missing\n\n' +
    "An input variable with the name \"missing\" has not been declared.\n";
  assert.deepEqual(errorLines({ summary: "Reference to undeclared input variable", text }), [
    '  on main.tf line 2, in resource "terraform_data" "a":',
    "   2:   input = var.missing",
    'An input variable with the name "missing" has not been declared.',
  ]);
  assert.deepEqual(errorLines({ summary: "Invalid state" }), []);
});
