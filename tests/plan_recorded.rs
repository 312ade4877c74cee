//! `strata plan --format json` over every fixture in `fixtures/plan-recorded/` against
//! Terraform's own plan of it, `terraform-plan.json`, recorded by `scripts/record-plan.py`
//! (the fixture's `prior/` applied by real Terraform gives `terraform.tfstate`; the
//! top-level configuration is planned against it). Each resource change must match in
//! address, previous address, action reason, actions, before, after and after_unknown, and
//! the errors and warnings in summary and detail, the `output_changes`, and `strata plan`'s
//! text with `terraform show`'s (the warnings `strata plan` prints after the plan must be
//! Terraform's). Where Terraform's plan failed it wrote no plan, so only the diagnostics
//! are compared, and Strata must exit with 1. The test
//! never runs Terraform. A fixture's `args` and `env` files are the plan's arguments and
//! environment variables, for Terraform and Strata alike. The comparison itself is
//! `support::recorded_plan`'s, which `differential.rs` shares.

mod support;

use support::recorded_plan::{plan_differences, strata_plan, text_difference};

#[test]
fn every_recorded_plan_fixture_plans_as_terraform_planned() {
    let recordings = support::recordings("plan-recorded", "terraform-plan.json");
    assert!(
        !recordings.is_empty(),
        "fixtures/plan-recorded has fixtures"
    );
    let mut failures = Vec::new();
    for (dir, recorded) in recordings {
        let (actual, code) = strata_plan(&dir);
        let differences: Vec<String> = plan_differences(&recorded, &actual, code)
            .into_iter()
            .chain(text_difference(&dir, &recorded))
            .map(|d| format!("  {}", d.detail))
            .collect();
        if !differences.is_empty() {
            failures.push(format!("{}:\n{}", dir.display(), differences.join("\n")));
        }
    }
    assert!(
        failures.is_empty(),
        "Strata's plan differs from Terraform's recording:\n\n{}",
        failures.join("\n\n")
    );
}
