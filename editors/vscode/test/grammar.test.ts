// The TextMate grammar: valid JSON whose every pattern compiles, with the scopes the
// extension promises (blocks, labels, attributes, strings with ${} and %{}, heredocs,
// comments, numbers, booleans, functions).
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const grammarPath = path.join(__dirname, "..", "syntaxes", "terraform.tmLanguage.json");
const grammar = JSON.parse(fs.readFileSync(grammarPath, "utf8"));

function* walk(node: unknown): Generator<[string, unknown]> {
  if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      yield [k, v];
      yield* walk(v);
    }
  }
}

test("every pattern compiles", () => {
  let count = 0;
  for (const [key, value] of walk(grammar)) {
    if ((key === "match" || key === "begin" || key === "end") && typeof value === "string") {
      // Oniguruma-only syntax is not used, so JavaScript's engine can check them; a
      // back-reference to the begin capture is filled in by TextMate at run time.
      assert.doesNotThrow(() => new RegExp(value.replace(/\\2/g, "X")), value);
      count++;
    }
  }
  assert.ok(count > 20, `${count} patterns`);
});

test("the promised scopes exist", () => {
  const names = new Set<string>();
  for (const [key, value] of walk(grammar)) {
    if (key === "name" && typeof value === "string") names.add(value);
  }
  for (const scope of [
    "entity.name.type.block.terraform",
    "entity.name.label.terraform",
    "variable.other.property.terraform",
    "string.quoted.double.terraform",
    "meta.embedded.line.terraform",
    "meta.embedded.directive.terraform",
    "string.unquoted.heredoc.terraform",
    "comment.line.terraform",
    "comment.block.terraform",
    "constant.numeric.terraform",
    "constant.language.boolean.terraform",
    "support.function.terraform",
  ]) {
    assert.ok(names.has(scope), scope);
  }
});

test("the block pattern reads a header's type and labels", () => {
  const block = new RegExp(grammar.repository.blocks.patterns[0].begin);
  const m = block.exec('resource "aws_instance" "web" {');
  assert.ok(m);
  assert.equal(m[1], "resource");
  assert.equal(m[2].trim(), '"aws_instance" "web"');
  const heredoc = new RegExp(grammar.repository.heredoc.patterns[0].begin);
  assert.equal(heredoc.exec("  user_data = <<-EOT")?.[2], "EOT");
});
