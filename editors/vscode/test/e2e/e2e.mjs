// Drives code-server in chromium: the diagnostic in the Problems panel, hover with the
// effective block, and "Strata: Plan Preview". A screenshot per step in OUT_DIR.
//   node e2e.mjs URL OUT_DIR WORKSPACE_DIR
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");
const [url, out, workspace] = process.argv.slice(2);
const shot = (page, name) => page.screenshot({ path: path.join(out, `${name}.png`) });

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
let failed = false;
try {
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
  await page.locator(".explorer-folders-view").waitFor({ timeout: 60000 });

  // Quick Open `name`, choosing the match whose folder is (or is not) `folder`.
  const openFile = async (name, notIn) => {
    await page.locator(".monaco-workbench .part.editor").click({ position: { x: 400, y: 200 } });
    await page.keyboard.press("Control+P");
    await page.locator(".quick-input-widget input").fill(name);
    const rows = page.locator(".quick-input-list .monaco-list-row", notIn ? { hasNotText: notIn } : {});
    await rows.first().waitFor();
    await rows.first().click();
    await page.locator(`.tab.active[aria-label^="${path.basename(name)}"]`).waitFor({ timeout: 30000 });
  };

  // 1. The override error in the Problems panel.
  await openFile("network/override.tf");
  await page.keyboard.press("Control+Shift+M");
  const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "depends_on argument may not be overridden" });
  await problem.first().waitFor({ timeout: 60000 });
  await page.locator(".statusbar-item", { hasText: "Strata: ready" }).first().waitFor({ timeout: 30000 });
  await shot(page, "1-problems");
  console.log("ok: the Problems panel shows the override error; the status bar says ready");

  // 2. Hover on the overridden base resource shows the effective block.
  await openFile("main.tf", "network");
  await page.keyboard.press("Control+J"); // hide the panel to give the editor room
  const line = fs.readFileSync(path.join(workspace, "main.tf"), "utf8").split("\n")
    .findIndex((l) => l.startsWith('resource "null_resource" "web"')) + 1;
  await page.keyboard.press("Control+G");
  await page.locator(".quick-input-widget input").fill(`:${line}`);
  await page.keyboard.press("Enter");
  const label = page.locator(".monaco-editor .view-line span", { hasText: '"web"' }).first();
  await label.waitFor();
  await label.hover();
  const hover = page.locator(".monaco-hover", { hasText: 'version = "2"' });
  await hover.first().waitFor({ timeout: 30000 });
  await shot(page, "2-hover");
  console.log("ok: hover shows the effective block");
  await page.keyboard.press("Escape");

  // 3. Strata: Plan Preview opens the plan beside the editor.
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").fill(">Strata: Plan Preview");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Strata: Plan Preview" }).first().waitFor();
  await page.keyboard.press("Enter");
  const plan = page.locator(".monaco-editor .view-line", { hasText: "Plan: 1 to add, 1 to change, 1 to destroy." });
  await plan.first().waitFor({ timeout: 60000 });
  await shot(page, "3-plan-preview");
  console.log("ok: Plan Preview shows the plan");
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.message}`);
  await shot(page, "failure").catch(() => {});
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
