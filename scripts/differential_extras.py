"""Constructs the differential generator (`scripts/differential.py`) adds beside its main
parts, each in a file of its own (`extras.tf`), with random choices of their own (a
second random stream, so that the main parts of a seed stay what they were):

- a resource repeated over a map of objects, its arguments reading `each.value`'s
  attributes, and an object holding a sensitive value beside plain ones;
- `templatefile` of a template beside the module and `templatestring` of a local;
- a `check` block with a scoped `terraform_remote_state` data source (reading the peer
  state when the module has one, a missing file otherwise: a warning);
- in the second version, an `import` block with `for_each` into a `for_each` resource,
  and a `count` known only after apply (`Invalid count argument`).

An extra is a dict with its kind and values; the second version changes some of them.
"""

import copy
import json
import random

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "fox", "golf", "hotel"]


def hcl(value):
    """A JSON-compatible value as an HCL literal (objects' keys as identifiers)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {hcl(x)}" for k, x in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(hcl(x) for x in value) + "]"
    return json.dumps(value)


class Extras:
    """One seed's extras: `first()` and `second(first)` make them,
    `render` and `files` write them."""

    def __init__(self, seed):
        self.rng = random.Random(seed * 7919 + 13)

    def word(self):
        return self.rng.choice(WORDS)

    def objects(self):
        return {
            self.word(): {"name": self.word(), "size": self.rng.randint(0, 9)}
            for _ in range(self.rng.randint(1, 3))
        }

    def first(self):
        extras = []
        if self.rng.random() < 0.5:
            extras.append(
                {
                    "kind": "objects",
                    "name": "x_objects",
                    "over": self.objects(),
                    "whole": self.rng.random() < 0.5,
                    "secret": self.rng.random() < 0.5,
                }
            )
        if self.rng.random() < 0.4:
            extras.append(
                {
                    "kind": "template",
                    "text": f"hello ${{name}}%{{ for w in words }} ${{w}}%{{ endfor }}",
                    "name": self.word(),
                    "words": [self.word() for _ in range(self.rng.randint(0, 2))],
                    "string": self.rng.random() < 0.5,
                }
            )
        if self.rng.random() < 0.3:
            extras.append({"kind": "scoped_check", "word": self.word()})
        return extras

    def second(self, first):
        extras = copy.deepcopy(first)
        for extra in extras:
            if self.rng.random() < 0.5:
                continue
            if extra["kind"] == "objects":
                over = extra["over"]
                key = self.rng.choice(sorted(over))
                what = self.rng.choice(["name", "size", "drop", "add", "secret"])
                if what == "name":
                    over[key]["name"] = self.word()
                elif what == "size":
                    over[key]["size"] = self.rng.randint(0, 9)
                elif what == "drop":
                    del over[key]
                elif what == "add":
                    over.update(self.objects())
                else:
                    extra["secret"] = not extra["secret"]
            elif extra["kind"] == "template":
                extra["words"] = [self.word() for _ in range(self.rng.randint(0, 2))]
                extra["name"] = self.word()
            elif extra["kind"] == "scoped_check":
                extra["word"] = self.word()
        if self.rng.random() < 0.2:
            keys = sorted({self.word() for _ in range(self.rng.randint(1, 3))})
            imported = [k for k in keys if self.rng.random() < 0.6]
            extras.append({"kind": "import_for_each", "keys": keys, "imported": imported})
        if self.rng.random() < 0.08:
            extras.append({"kind": "unknown_count"})
        return extras


def render(extras, has_peer):
    """The extras as the text of `extras.tf` (empty without any), for a version with or
    without the peer state."""
    parts = []
    for extra in extras:
        kind = extra["kind"]
        if kind == "objects":
            value = "each.value" if extra["whole"] else "each.value.name"
            name = "sensitive(each.value.name)" if extra["secret"] else "each.value.name"
            parts.append(
                f'resource "terraform_data" "{extra["name"]}" {{\n'
                f"  for_each = {hcl(extra['over'])}\n"
                f"  input    = {value}\n"
                f"  triggers_replace = {{ name = {name}, size = each.value.size, key = each.key }}\n"
                "}"
            )
        elif kind == "template":
            args = f"{{ name = {json.dumps(extra['name'])}, words = {hcl(extra['words'])} }}"
            if extra["string"]:
                source = extra["text"].replace("${", "$${").replace("%{", "%%{")
                parts.append(f"locals {{\n  x_template = {json.dumps(source)}\n}}")
                call = f"templatestring(local.x_template, {args})"
            else:
                call = f'templatefile("${{path.module}}/x.tftpl", {args})'
            parts.append(f'resource "terraform_data" "x_template" {{\n  input = {call}\n}}')
        elif kind == "scoped_check":
            path = "peer.tfstate" if has_peer else "missing.tfstate"
            parts.append(
                'check "x_scoped" {\n'
                '  data "terraform_remote_state" "x" {\n'
                '    backend = "local"\n'
                f'    config = {{ path = "${{path.module}}/{path}" }}\n'
                "  }\n"
                "  assert {\n"
                f"    condition     = jsonencode(data.terraform_remote_state.x.outputs) != {json.dumps(extra['word'])}\n"
                '    error_message = "the peer has outputs"\n'
                "  }\n"
                "}"
            )
        elif kind == "import_for_each":
            parts.append(
                'resource "terraform_data" "x_imported" {\n'
                f"  for_each = toset({hcl(extra['keys'])})\n"
                "}\n\n"
                "import {\n"
                f"  for_each = toset({hcl(extra['imported'])})\n"
                "  to       = terraform_data.x_imported[each.key]\n"
                '  id       = "id-${each.key}"\n'
                "}"
            )
        elif kind == "unknown_count":
            parts.append(
                'resource "terraform_data" "x_fresh" {\n  input = "fresh"\n}\n\n'
                'resource "terraform_data" "x_counted" {\n'
                "  count = terraform_data.x_fresh.output == null ? 0 : 1\n"
                "}"
            )
    return "\n\n".join(parts) + "\n" if parts else ""


def files(extras):
    """Other files the extras need beside the module: name to text."""
    out = {}
    for extra in extras:
        if extra["kind"] == "template" and not extra["string"]:
            out["x.tftpl"] = extra["text"]
    return out
