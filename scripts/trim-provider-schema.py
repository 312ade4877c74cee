#!/usr/bin/env python3
"""Trims a `terraform providers schema -json` file to what some modules use.

Keeps each provider's configuration schema, and of its resource types, data sources and
ephemeral resource types those the modules' `resource`, `data` and `ephemeral` blocks name,
plus every type Terraform could name in a message about them: the types of any mode within
an edit distance of less than three of a named type (its "Did you mean" candidates) and the
same name in the other modes ("Did you intend to use the data source ..."). Functions are
kept, all of them (a provider has a few, and which ones a module lacks is a rule too).
The full AWS schema is tens of megabytes; the trimmed one holds a few types.

Usage: scripts/trim-provider-schema.py FULL.json OUT.json MODULE_DIR ...
"""

import json
import pathlib
import re
import sys

KINDS = ["resource_schemas", "data_source_schemas", "ephemeral_resource_schemas"]
BLOCK = re.compile(r'^\s*(?:resource|data|ephemeral)\s+"([^"]+)"', re.MULTILINE)


def distance(a, b):
    """Levenshtein distance, as Terraform's suggestions measure it."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[len(b)]


def close(a, b):
    """Within Terraform's suggestion distance (less than three edits)."""
    return abs(len(a) - len(b)) < 3 and distance(a, b) < 3


def used_types(dirs):
    names = set()
    for d in dirs:
        for f in sorted(pathlib.Path(d).glob("*.tf")):
            names.update(BLOCK.findall(f.read_text()))
        for f in sorted(pathlib.Path(d).glob("*.tf.json")):
            names.update(json_types(f))
    return names


def json_types(path):
    """The types a `.tf.json` file's `resource`, `data` and `ephemeral` properties name
    (each an object of types, or an array of such objects)."""
    try:
        root = json.loads(path.read_text())
    except ValueError:
        return set()
    names = set()
    for key in ("resource", "data", "ephemeral"):
        value = root.get(key) if isinstance(root, dict) else None
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                names.update(item)
    return names


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    full = json.loads(pathlib.Path(sys.argv[1]).read_text())
    used = used_types(sys.argv[3:])
    out = {"format_version": full["format_version"], "provider_schemas": {}}
    for address, schema in full["provider_schemas"].items():
        trimmed = {"provider": schema["provider"]}
        for kind in KINDS:
            types = schema.get(kind, {})
            keep = {
                name: body
                for name, body in types.items()
                if name in used or any(close(name, u) for u in used)
            }
            if keep:
                trimmed[kind] = dict(sorted(keep.items()))
        if schema.get("functions"):
            trimmed["functions"] = schema["functions"]
        out["provider_schemas"][address] = trimmed
    pathlib.Path(sys.argv[2]).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
