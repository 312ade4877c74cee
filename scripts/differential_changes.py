"""The second version of a differential configuration (`scripts/differential.py`): the
mutations that turn a first version into the one Terraform plans against the first's state.
A mixin of the generator, whose random choices and first-version parts it uses.
"""

import copy

from differential_model import has_instances, raw_parts, repetition_context, rewrite_references


class Changes:
    """The second version's mutations (mixed into `differential.Generator`)."""

    def second_version(self, first):
        v = copy.deepcopy(first)
        mutations = [
            self.change_values,
            self.delete_argument,
            self.add_new_resource,
            self.delete_resource,
            self.rename_resource,
            self.forget_resource,
            self.import_resource,
            self.change_repetition,
            self.toggle_lifecycle,
            self.change_module,
            self.change_outputs,
            self.change_overrides,
            self.change_peer,
        ]
        for _ in range(self.rng.randint(1, 4)):
            self.rng.choice(mutations)(v)
        v["args"] = self.plan_arguments(first, v)
        return v

    def plan_arguments(self, first, v):
        """Flags of `terraform plan` (and `strata plan`): `-destroy`, `-refresh-only`,
        `-replace` of an instance the first version made, `-var` of a root variable."""
        r = self.rng.random()
        if r < 0.06:
            return ["--destroy"]
        if r < 0.12:
            return ["--refresh-only"]
        if r < 0.2:
            made = [
                n
                for n, res in first["resources"].items()
                if n in v["resources"] and res["repetition"] in (None, ("count", 1))
                and res["repetition"] == v["resources"][n]["repetition"]
            ]
            if made:
                name = self.rng.choice(sorted(made))
                key = "" if v["resources"][name]["repetition"] is None else "[0]"
                return [f"--replace=terraform_data.{name}{key}"]
        if r < 0.3:
            simple = [
                n
                for n, var in v["variables"].items()
                if var["type"] in ("string", "number", "list(string)")
            ]
            if simple:
                name = self.rng.choice(sorted(simple))
                value = self.value_of(v["variables"][name]["type"])
                if isinstance(value, list):
                    value = "[" + ", ".join(f'"{w}"' for w in value) + "]"
                return [f"--var={name}={value}"]
        return []

    def change_peer(self, v):
        """The state file the terraform_remote_state data source reads changes."""
        if v["peer"]:
            v["peer"] = dict(v["peer"], word=self.word())

    def pick_resource(self, v):
        names = sorted(v["resources"])
        return self.rng.choice(names) if names else None

    def change_values(self, v):
        if v["variables"] and self.chance(0.5):
            name = self.rng.choice(sorted(v["variables"]))
            var = v["variables"][name]
            var["default"] = self.value_of(var["type"])
        elif v["locals"] and self.chance(0.5):
            v["locals"][self.rng.choice(sorted(v["locals"]))] = self.literal()
        else:
            name = self.pick_resource(v)
            if name:
                key = self.rng.choice(["input", "triggers_replace"])
                v["resources"][name][key] = self.literal()

    def delete_argument(self, v):
        name = self.pick_resource(v)
        if name:
            res = v["resources"][name]
            for key in ("input", "triggers_replace"):
                if key in res:
                    del res[key]
                    return

    def add_new_resource(self, v):
        self.add_resource(v)

    def delete_resource(self, v):
        name = self.pick_resource(v)
        if name:
            self.drop(v, name)

    def drop(self, v, name):
        """Deletes a resource and every reference to it, so the rest still validates."""
        del v["resources"][name]
        for which in ("override_native", "override_json"):
            v[which].pop(("resource", name), None)
        rewrite_references(v, lambda e: ("lit", "gone") if e[:2] == ("res", name) else e)
        for res in v["resources"].values():
            life = res["lifecycle"]
            life["replace_triggered_by"] = [
                t for t in life.get("replace_triggered_by", []) if t[0] != name
            ]
            if not life["replace_triggered_by"]:
                del life["replace_triggered_by"]
            res["depends_on"] = [d for d in res["depends_on"] if d != name]

    def rename_resource(self, v):
        name = self.pick_resource(v)
        if not name:
            return
        new = self.fresh("r")
        # Renaming keeps the declaration order, so references stay backwards.
        v["resources"] = {(new if k == name else k): r for k, r in v["resources"].items()}
        for which in ("override_native", "override_json"):
            v[which] = {
                (("resource", new) if k == ("resource", name) else k): body
                for k, body in v[which].items()
            }
        rewrite_references(v, lambda e: ("res", new, e[2]) if e[:2] == ("res", name) else e)
        for res in v["resources"].values():
            life = res["lifecycle"]
            if "replace_triggered_by" in life:
                life["replace_triggered_by"] = [
                    (new if t == name else t, a) for t, a in life["replace_triggered_by"]
                ]
            res["depends_on"] = [new if d == name else d for d in res["depends_on"]]
        if self.chance(0.8):
            v["moved"].append((f"terraform_data.{name}", f"terraform_data.{new}"))

    def forget_resource(self, v):
        name = self.pick_resource(v)
        if name:
            self.drop(v, name)
            v["removed"].append((f"terraform_data.{name}", self.chance(0.6)))

    def import_resource(self, v):
        name = self.fresh("r")
        self.add_resource(v, name)
        res = v["resources"][name]
        repetition = res["repetition"]
        if repetition is None:
            v["imports"].append((f"terraform_data.{name}", self.word()))
        elif repetition[0] == "count" and repetition[1] > 0:
            v["imports"].append((f"terraform_data.{name}[0]", self.word()))
        elif repetition[0] == "for_each" and repetition[1]:
            key = sorted(repetition[1])[0]
            v["imports"].append((f'terraform_data.{name}["{key}"]', self.word()))

    def change_repetition(self, v):
        name = self.pick_resource(v)
        if not name:
            return
        res = v["resources"][name]
        old = res["repetition"]
        if old is None:
            res["repetition"] = ("count", self.rng.randint(1, 2))
        elif old[0] == "count" and self.chance(0.5):
            res["repetition"] = None
        elif old[0] == "count":
            res["repetition"] = ("count", self.rng.randint(0, 3))
        elif old[0] == "for_each_var":
            res["repetition"] = None
        else:
            keys = {self.word() for _ in range(self.rng.randint(0, 3))}
            res["repetition"] = ("for_each", sorted(keys))
        # each and count.index only where they mean something.
        context = repetition_context(res["repetition"])
        for key in ("input", "triggers_replace"):
            if key in res and any(
                context != ("count" if r == "count.index" else "for_each")
                for r in raw_parts(res[key])
            ):
                res[key] = self.literal()
        for which in ("override_native", "override_json"):
            body = v[which].get(("resource", name), {})
            for key, e in body.items():
                if raw_parts(e):
                    body[key] = self.literal()

    def toggle_lifecycle(self, v):
        name = self.pick_resource(v)
        if not name:
            return
        life = v["resources"][name]["lifecycle"]
        setting = self.rng.choice(
            [
                "create_before_destroy",
                "ignore_changes",
                "replace_triggered_by",
                "condition",
                "prevent_destroy",
            ]
        )
        if setting == "condition":
            holds = self.chance(0.5)
            v["resources"][name]["conditions"].append(self.condition(v, "precondition", holds))
        elif setting in life:
            del life[setting]
        elif setting in ("create_before_destroy", "prevent_destroy"):
            life[setting] = True
        elif setting == "ignore_changes":
            life[setting] = self.rng.choice(["all", ["input"], ["triggers_replace"]])
        else:
            names = list(v["resources"])
            earlier = [n for n in names[: names.index(name)] if has_instances(v["resources"][n])]
            if earlier:
                life[setting] = [(self.rng.choice(earlier), None)]

    def change_module(self, v):
        if not v["modules"]:
            self.add_module(v)
            return
        name = self.rng.choice(sorted(v["modules"]))
        mod = v["modules"][name]
        what = self.rng.choice(["in", "n", "rename", "repetition", "nested"])
        if what == "nested":
            v["nested"] = not v["nested"]
        elif what == "in":
            mod["in"] = self.literal()
        elif what == "n":
            mod["n"] = self.rng.randint(0, 3)
        elif what == "repetition":
            mod["repetition"] = self.rng.choice([None, ("count", 1), ("for_each", ["a"])])
        else:
            new = self.fresh("m")
            v["modules"] = {(new if k == name else k): m for k, m in v["modules"].items()}
            rewrite_references(v, lambda e: ("mod", new, e[2]) if e[:2] == ("mod", name) else e)
            v["moved"].append((f"module.{name}", f"module.{new}"))

    def change_outputs(self, v):
        if v["outputs"] and self.chance(0.5):
            name = self.rng.choice(sorted(v["outputs"]))
            del v["outputs"][name]
            v["output_conditions"].pop(name, None)
        else:
            self.add_output(v, holds=self.chance(0.8))

    def change_overrides(self, v):
        for which in ("override_native", "override_json"):
            if v[which] and self.chance(0.5):
                del v[which][self.rng.choice(sorted(v[which]))]
        if v["resources"] and self.chance(0.5):
            target = self.rng.choice(sorted(v["resources"]))
            which = self.rng.choice(["override_native", "override_json"])
            v[which][("resource", target)] = {"input": self.literal()}
