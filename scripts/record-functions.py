#!/usr/bin/env python3
"""Records the signatures of Terraform's built-in functions into
server/src/schema/functions.json, which the schema layer reads: names, parameters (name,
type), the variadic parameter and the return type, from `terraform metadata functions
-json`. Terraform's descriptions are left out (they are its prose, not facts Strata needs).

Usage: scripts/record-functions.py
"""

import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "server" / "src" / "schema" / "functions.json"


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in ("description", "description_kind")}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def main():
    version = subprocess.run(["terraform", "version"], capture_output=True, text=True).stdout.splitlines()[0]
    raw = subprocess.run(
        ["terraform", "metadata", "functions", "-json"], capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(raw)
    signatures = strip(data["function_signatures"])
    out = {"recorded_with": version, "function_signatures": dict(sorted(signatures.items()))}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=False) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {len(signatures)} functions ({version})")


if __name__ == "__main__":
    main()
