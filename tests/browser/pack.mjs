// pack.mjs: `npm pack` of this repository, installed offline into an empty author's project
// in a temporary folder, as a user would get it from the registry.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = fileURLToPath(new URL("../../", import.meta.url));

/** Runs a command; its standard output, as text. */
export const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: "utf8" });

/**
 * Packs and installs; returns { folder, app, remove }: app is the project, inside folder, which
 * is made in base (the system's temporary folder unless given).
 */
export function packInto(prefix, base = tmpdir()) {
  mkdirSync(base, { recursive: true });
  const folder = mkdtempSync(join(base, prefix));
  const app = join(folder, "app");
  run("npm", ["pack", "--silent", "--pack-destination", folder], repo);
  const tarball = readdirSync(folder).find((f) => f.endsWith(".tgz"));
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true, "type": "module" }');
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", join(folder, tarball)], app);
  return { folder, app, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
