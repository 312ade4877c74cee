// Highlighted Terraform in Markdown: hover code blocks are fenced ```hcl, which VS Code
// resolves by language alias, and Markdown documents get an injection grammar that
// embeds the Terraform grammar in ```hcl / ```terraform / ```tf fences.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.join(__dirname, "..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const fence = JSON.parse(
  fs.readFileSync(path.join(root, "syntaxes", "markdown-fence.tmLanguage.json"), "utf8"),
).repository["fenced-terraform"];

test("a ```hcl fence names the terraform language (the hover's code blocks)", () => {
  const terraform = manifest.contributes.languages.find((l: { id: string }) => l.id === "terraform");
  const aliases = terraform.aliases.map((a: string) => a.toLowerCase());
  assert.ok(aliases.includes("hcl"), aliases.join());
  assert.ok(aliases.includes("terraform"), aliases.join());
});

test("the fence grammar is injected into Markdown and embeds the Terraform grammar", () => {
  const entry = manifest.contributes.grammars.find(
    (g: { scopeName: string }) => g.scopeName === "markdown.terraform.codeblock",
  );
  assert.ok(entry, "contributed");
  assert.deepEqual(entry.injectTo, ["text.html.markdown"]);
  assert.equal(entry.embeddedLanguages["meta.embedded.block.terraform"], "terraform");
  assert.ok(fs.existsSync(path.join(root, entry.path)), entry.path);
  assert.deepEqual(fence.patterns[0].patterns, [{ include: "source.terraform" }]);
});

test("the fence opens on Terraform's language names only and closes on its own marker", () => {
  const begin = new RegExp(fence.begin);
  for (const line of ["```hcl", "```terraform", "~~~tf", "  ```tofu", "```hcl title=main.tf", "````opentofu"]) {
    assert.ok(begin.test(line), line);
  }
  for (const line of ["```json", "```hclx", "```", "``hcl", "text ```hcl"]) {
    assert.ok(!begin.test(line), line);
  }
  const m = begin.exec("  ~~~hcl");
  assert.equal(m?.[3], "~~~");
  // TextMate fills the back-references with the opening fence's indentation and marker.
  const end = (indent: string, marker: string) =>
    new RegExp(fence.end.replace("\\2", indent).replace("\\3", marker));
  assert.ok(end("  ", "~~~").test("  ~~~"));
  assert.ok(!end("", "```").test("~~~"));
});
