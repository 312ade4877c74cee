#!/usr/bin/env python3
"""Writes a random configuration and a random second version of it, for the differential
test against real Terraform (`tests/differential.rs`).

`scripts/differential.py SEED DIR` writes into DIR a fixture in the layout of
`fixtures/plan-recorded/` (README there): `prior/`, the first version, which Terraform
applies, and at DIR's top level the second version, which is planned against the state the
first left. The same seed always writes the same files. With `--record`, it then records
Terraform's plan of the fixture with `scripts/record-plan.py` (its `terraform-plan.json`,
`terraform-plan.txt` and `terraform-configuration.json`), so a failing seed saved under
`fixtures/differential/diff-SEED/` needs no Terraform to be tested again.

Everything is built on `terraform_data` and the built-in `terraform_remote_state` data
source (`local` backend, reading a `peer.tfstate` beside the module), which Terraform's
built-in provider serves, so nothing is downloaded. A configuration holds variables of
every type constraint, locals, outputs (some with preconditions), resources with and
without `count`/`for_each` (over a set, a map, or a variable), references between them,
expressions around others (conditionals, object and tuple constructors, `for`,
`jsonencode`, `merge`, `sensitive`), `lifecycle` (`create_before_destroy`, `ignore_changes`,
`replace_triggered_by`, preconditions and postconditions), `depends_on`, `check` blocks,
a local child module called with `count` or `for_each` (which may call a grandchild), and
override files in both syntaxes (`override.tf`, `x_override.tf.json`). The second version
(`differential_changes.py`) changes values, deletes arguments, adds, deletes, renames
(with `moved`, or without), forgets (`removed`) and imports resources, changes repetition
(implied moves between no `count` and `count`), toggles lifecycle settings (also
`prevent_destroy`), changes the peer state, and may plan with flags (`args`: `-destroy`,
`-refresh-only`, `-replace`, `-var`). `differential_extras.py` adds, from a random stream
of its own, a resource over a map of objects with a nested sensitive value,
`templatefile`/`templatestring`, a `check` block with a scoped data source, and in the
second version an `import` with `for_each` and a `count` known only after apply. Not
generated: `dynamic` blocks and nested blocks of any kind (no type the built-in provider
serves has them). References only point backwards, so the configurations have no cycles, and the
first version always applies (its conditions hold, sensitive values leave only through
sensitive outputs); most second versions plan, and the few that do not compare their errors
(an import whose resource a later change deleted, a condition that fails).

A version is a dict of its parts (variables, locals, resources, module calls, outputs,
checks, moved, removed and import blocks, override bodies); `differential_render.py`
writes it as files.

Usage: scripts/differential.py [--record] SEED DIR
"""

import copy
import importlib
import os
import pathlib
import random
import sys
import tempfile

from differential_changes import Changes
from differential_model import has_instances, repetition_context

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "fox", "golf", "hotel"]

# Type constraints of root and child variables, with how to make a value of each.
TYPES = [
    "string",
    "number",
    "bool",
    "list(string)",
    "set(string)",
    "map(string)",
    "map(number)",
    "tuple([string, number])",
    "object({ name = string, size = optional(number, 2) })",
    "any",
]


def load_sibling(name):
    """A script of this folder, imported by name (`record-plan` is no identifier)."""
    folder = str(pathlib.Path(__file__).resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


def load_record_plan():
    """scripts/record-plan.py, whose recording this reuses."""
    return load_sibling("record-plan")


class Generator(Changes):
    """One seed's random choices (the second version's in `differential_changes.py`)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.counter = 0

    def chance(self, p):
        return self.rng.random() < p

    def word(self):
        return self.rng.choice(WORDS)

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    # Values

    def value_of(self, type_):
        r = self.rng
        if type_ == "string":
            return self.word()
        if type_ == "number":
            return r.choice([0, 1, 2, 3, 5, 1.5])
        if type_ == "bool":
            return r.choice([True, False])
        if type_ in ("list(string)", "set(string)"):
            return [self.word() for _ in range(r.randint(0, 3))]
        if type_ == "map(string)":
            return {self.word(): self.word() for _ in range(r.randint(0, 3))}
        if type_ == "map(number)":
            return {self.word(): r.randint(0, 9) for _ in range(r.randint(0, 3))}
        if type_.startswith("tuple"):
            return [self.word(), r.randint(0, 9)]
        if type_.startswith("object"):
            value = {"name": self.word()}
            if self.chance(0.5):
                value["size"] = r.randint(0, 9)
            return value
        return r.choice([self.word(), r.randint(0, 9), [self.word()], {"k": self.word()}])

    def literal(self):
        return ("lit", self.value_of(self.rng.choice(TYPES[:8])))

    # The first version

    def first_version(self):
        v = {
            "variables": {},
            "locals": {},
            "resources": {},
            "modules": {},
            "outputs": {},
            "checks": {},
            "moved": [],
            "removed": [],
            "imports": [],
            "override_native": {},
            "override_json": {},
            "output_conditions": {},
            "nested": False,
            "peer": None,
            "args": [],
        }
        for _ in range(self.rng.randint(1, 4)):
            self.add_variable(v)
        if self.chance(0.15):
            # A terraform_remote_state data source reading a state file beside the module.
            v["peer"] = {"word": self.word(), "words": self.value_of("list(string)")}
        for _ in range(self.rng.randint(0, 3)):
            self.add_local(v)
        for _ in range(self.rng.randint(1, 5)):
            self.add_resource(v)
        if self.chance(0.6):
            self.add_module(v)
            # The child calls a grandchild module of its own.
            v["nested"] = self.chance(0.3)
        for _ in range(self.rng.randint(0, 3)):
            self.add_output(v)
        if self.chance(0.3):
            self.add_check(v)
        self.add_overrides(v)
        # Sensitive values may leave a module only through outputs declared sensitive:
        # the first version must apply.
        for mod in v["modules"].values():
            if self.tainted(v, mod["in"]):
                mod["in"] = self.literal()
        v["sensitive_outputs"] = {n for n, e in v["outputs"].items() if self.tainted(v, e)}
        return v

    def tainted(self, v, e):
        """Whether an expression may carry a sensitive variable's value (an over-estimate:
        through any argument of a resource, and override files included)."""
        kind = e[0]
        if kind == "var":
            return bool(v["variables"].get(e[1], {}).get("sensitive"))
        overrides = (v["override_native"], v["override_json"])
        if kind == "local":
            bodies = [v["locals"].get(e[1], ("lit", None))]
            bodies += [o[("local", e[1])] for o in overrides if ("local", e[1]) in o]
            return any(self.tainted(v, b) for b in bodies)
        if kind == "res":
            bodies = [v["resources"].get(e[1], {})]
            bodies += [o[("resource", e[1])] for o in overrides if ("resource", e[1]) in o]
            arguments = ("input", "triggers_replace")
            return any(self.tainted(v, b[k]) for b in bodies for k in arguments if k in b)
        if kind == "mod":
            return self.tainted(v, v["modules"].get(e[1], {"in": ("lit", None)})["in"])
        if kind == "call":
            return any(self.tainted(v, a) for a in e[2])
        if kind == "op":
            return e[1].startswith("sensitive(") or any(self.tainted(v, a) for a in e[2])
        if kind == "tmpl":
            return any(self.tainted(v, p) for p in e[1] if not isinstance(p, str))
        return False

    def add_variable(self, v):
        type_ = self.rng.choice(TYPES)
        var = {"type": type_, "default": self.value_of(type_)}
        if self.chance(0.2):
            var["nullable"] = False
        if self.chance(0.1):
            var["sensitive"] = True
        if type_ == "string" and self.chance(0.2):
            # A rule the default passes, so that the first version applies.
            var["validation"] = "length(var.{}) " + ("< 6" if len(var["default"]) < 6 else "> 2")
        v["variables"][self.fresh("v")] = var

    def add_local(self, v):
        v["locals"][self.fresh("l")] = self.expression(v)

    def expression(self, v, context=None, nested=False):
        """A random expression over what `v` declares so far (`nested` inside another)."""
        r = self.rng
        choices = ["lit", "lit"]
        if not nested:
            choices.append("op")
        if v.get("peer"):
            choices.append("data")
        if v["variables"]:
            choices += ["var", "var", "fn"]
        if v["locals"]:
            choices.append("local")
        if v["resources"]:
            choices += ["res", "res"]
        if v["modules"]:
            choices.append("mod")
        if context:
            choices.append("context")
        kind = r.choice(choices)
        if kind == "lit":
            return self.literal()
        if kind == "var":
            return ("var", r.choice(sorted(v["variables"])))
        if kind == "fn":
            name = r.choice(sorted(v["variables"]))
            type_ = v["variables"][name]["type"]
            if type_ in ("string",):
                return ("call", "upper", [("var", name)])
            if type_ in ("list(string)", "set(string)", "map(string)", "map(number)"):
                return ("call", "length", [("var", name)])
            return ("tmpl", ["x-", ("call", "jsonencode", [("var", name)])])
        if kind == "local":
            return ("local", r.choice(sorted(v["locals"])))
        if kind == "res":
            return ("res", r.choice(sorted(v["resources"])), r.choice(["output", "id", "input"]))
        if kind == "mod":
            return ("mod", r.choice(sorted(v["modules"])), "out")
        if kind == "data":
            return ("data", r.choice(["word", "words"]))
        if kind == "op":
            return self.operation(v, context)
        if context == "for_each":
            return ("raw", r.choice(["each.key", "each.value"]))
        return ("raw", "count.index")

    def operation(self, v, context):
        """An expression around one or two others: conditionals, constructors, `for`,
        `jsonencode`, `merge`, `sensitive`. Each holds for operands of any type, so the first version
        still applies."""
        form = self.rng.choice(
            [
                '{0} == null ? "none" : "some"',
                "{{ name = {0}, tags = [{1}] }}",
                # Not try({0}[0], ...): Terraform 1.11 fails the first version's apply
                # on an output indexing a string that way (seed 874, `Invalid index`).
                "jsonencode({0})",
                "sensitive({0})",
                "[for x in [{0}, {1}] : x]",
                "merge({{ a = {0} }}, {{ b = {1} }})",
            ]
        )
        operands = [self.expression(v, context, nested=True) for _ in range(form.count("{1}") + 1)]
        return ("op", form, operands)

    def repetition(self, v):
        r = self.rng.random()
        if r < 0.55:
            return None
        if r < 0.8:
            return ("count", self.rng.randint(0, 3))
        # for_each over a set of strings, a map, or a variable of either.
        over = sorted(
            n
            for n, var in v["variables"].items()
            if var["type"] in ("set(string)", "map(string)", "map(number)")
            and not var.get("sensitive")
        )
        if over and self.chance(0.3):
            return ("for_each_var", self.rng.choice(over))
        if self.chance(0.3):
            return ("for_each", {self.word(): self.word() for _ in range(self.rng.randint(0, 3))})
        return ("for_each", sorted({self.word() for _ in range(self.rng.randint(0, 3))}))

    def add_resource(self, v, name=None):
        repetition = self.repetition(v)
        context = repetition_context(repetition)
        res = {"repetition": repetition, "lifecycle": {}, "depends_on": [], "conditions": []}
        if self.chance(0.85):
            res["input"] = self.expression(v, context)
        if self.chance(0.4):
            res["triggers_replace"] = self.expression(v, context)
        life = res["lifecycle"]
        if self.chance(0.2):
            life["create_before_destroy"] = self.chance(0.7)
        if self.chance(0.2):
            life["ignore_changes"] = self.rng.choice(["all", ["input"], ["triggers_replace"]])
        others = sorted(v["resources"])
        # Terraform 1.11 fails the plan (`no change found for ...`) when a
        # replace_triggered_by names a resource without instances: avoided.
        triggers = [n for n in others if has_instances(v["resources"][n])]
        if triggers and self.chance(0.25):
            target = self.rng.choice(triggers)
            life["replace_triggered_by"] = [
                (target, self.rng.choice([None, "input", "output"]))
            ]
        if others and self.chance(0.2):
            res["depends_on"] = [self.rng.choice(others)]
        if self.chance(0.25):
            res["conditions"].append(self.condition(v, "precondition"))
        if self.chance(0.15):
            res["conditions"].append(
                ("postcondition", ("raw", "self.output == self.input"), "output follows input")
            )
        v["resources"][name or self.fresh("r")] = res

    def condition(self, v, kind, holds=True):
        """A condition; one that refers to nothing is an error, so each names something.
        The first version's hold, or its apply would fail."""
        if v["variables"] and self.chance(0.7):
            name = self.rng.choice(sorted(v["variables"]))
            return (kind, ("raw", f"var.{name} != null"), f"{name} is set")
        operator = "==" if holds else "!="
        condition = ("raw", f'terraform.workspace {operator} "default"')
        return (kind, condition, "in the default workspace")

    def add_module(self, v):
        mod = {
            "repetition": self.rng.choice(
                [None, None, ("count", self.rng.randint(0, 2)), ("for_each", ["a", "b"])]
            ),
            "in": self.expression(v),
            "n": self.rng.randint(0, 2),
        }
        v["modules"][self.fresh("m")] = mod

    def add_output(self, v, holds=True):
        name = self.fresh("o")
        v["outputs"][name] = self.expression(v)
        if self.chance(0.15):
            v["output_conditions"][name] = self.condition(v, "precondition", holds)

    def add_check(self, v):
        v["checks"][self.fresh("c")] = self.condition(v, "assert", self.chance(0.7))

    def add_overrides(self, v):
        """Override files replace an argument of a resource, a local or a variable."""
        for which in ("override_native", "override_json"):
            if not self.chance(0.35):
                continue
            target = self.rng.choice(sorted(v["resources"]))
            repetition = v["resources"][target]["repetition"]
            context = repetition_context(repetition)
            # Only values declared before every resource, so that no cycle arises.
            values = dict(v, resources={}, modules={})
            v[which][("resource", target)] = {
                self.rng.choice(["input", "triggers_replace"]): self.expression(values, context)
            }
            if v["locals"] and self.chance(0.5):
                v[which][("local", self.rng.choice(sorted(v["locals"])))] = self.literal()
            unvalidated = sorted(n for n, var in v["variables"].items() if "validation" not in var)
            if unvalidated and self.chance(0.4):
                name = self.rng.choice(unvalidated)
                type_ = v["variables"][name]["type"]
                v[which][("variable", name)] = {"default": self.value_of(type_)}

def generate(seed, target):
    """Writes seed's two versions into `target` (record-plan's fixture layout)."""
    g = Generator(seed)
    first = g.first_version()
    second = g.second_version(first)
    extras = load_sibling("differential_extras").Extras(seed)
    first["extras"] = extras.first()
    second["extras"] = extras.second(first["extras"])
    render = load_sibling("differential_render")
    render.write_version(first, target / "prior")
    render.write_version(second, target)


def main():
    args = sys.argv[1:]
    record = "--record" in args
    args = [a for a in args if a != "--record"]
    if len(args) != 2 or not args[0].isdigit():
        sys.exit(__doc__)
    target = pathlib.Path(args[1]).resolve()
    generate(int(args[0]), target)
    if record:
        with tempfile.TemporaryDirectory() as empty:
            # Only the built-in provider is used: nothing to install, so no mirror needs
            # to be searched for (record-plan's CLI configuration names this empty one).
            os.environ.setdefault("TF_PLUGIN_MIRROR", empty)
            load_record_plan().record(target)


if __name__ == "__main__":
    main()
