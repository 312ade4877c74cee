#!/usr/bin/env python3
"""Records Terraform's builtin provider schema (terraform.io/builtin/terraform) for the
schema store (server/src/providers/store/builtin.json): `terraform providers schema -json`
in a scratch module that uses only `terraform_data`, which needs no provider download.

Usage: scripts/record-builtin-schema.py
"""

import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "server" / "src" / "providers" / "store" / "builtin.json"


def main():
    with tempfile.TemporaryDirectory() as scratch:
        pathlib.Path(scratch, "main.tf").write_text('resource "terraform_data" "x" {}\n')
        run = lambda *args: subprocess.run(
            ["terraform", *args], cwd=scratch, check=True, capture_output=True, text=True
        ).stdout
        version = json.loads(run("version", "-json"))["terraform_version"]
        run("init", "-backend=false", "-input=false")
        schema = json.loads(run("providers", "schema", "-json"))
    OUT.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    print(f"recorded the builtin provider of Terraform {version} in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
