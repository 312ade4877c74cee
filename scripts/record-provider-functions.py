#!/usr/bin/env python3
"""Records the functions of the AWS provider 5.100.0 and of Terraform's builtin provider.

A scratch module requires both; `terraform init` installs the AWS provider offline from the
filesystem mirror (../shared/tools/tf-plugin-mirror, or TF_PLUGIN_MIRROR), and `terraform
providers schema -json` prints their schemas. Only each provider's `functions` are kept,
into fixtures/providers/functions.json, which tests/providers.rs compares with what the
provider binary answers over the plugin protocol (its schema's functions and
GetFunctions). Terraform 1.11.4 writes no top-level `functions` (the built-in functions are
`terraform metadata functions -json`'s, scripts/record-functions.py).

Usage: scripts/record-provider-functions.py
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "providers" / "functions.json"
MODULE = """terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "5.100.0"
    }
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
"""


def main():
    sys.path.insert(0, str(ROOT / "scripts"))
    record = __import__("importlib").import_module("record-validate")
    with tempfile.TemporaryDirectory() as scratch:
        rc = record.cli_config(scratch)
        module = pathlib.Path(scratch) / "module"
        module.mkdir()
        (module / "main.tf").write_text(MODULE)
        env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
        subprocess.run(
            ["terraform", "init", "-backend=false", "-input=false", "-no-color"],
            cwd=module, env=env, check=True, capture_output=True,
        )
        printed = subprocess.run(
            ["terraform", "providers", "schema", "-json"],
            cwd=module, env=env, check=True, capture_output=True, text=True,
        )
    full = json.loads(printed.stdout)
    out = {"format_version": full["format_version"], "provider_schemas": {}}
    for address, schema in sorted(full["provider_schemas"].items()):
        out["provider_schemas"][address] = {"functions": schema.get("functions", {})}
    extra = sorted(set(full) - {"format_version", "provider_schemas"})
    if extra:
        sys.exit(f"terraform printed fields this script does not keep: {extra}")
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
