//! Calls of provider-defined functions (`provider::aws::arn_parse(...)`). Strata never
//! calls a provider, so such a call is an unknown value: of the function's return type
//! where the scope knows its signature (`Scope::provider_function`), after HCL's checks of
//! the arguments against the parameters (conversion to each parameter's type, null where
//! it is not allowed: go-cty's checks, which run before Terraform asks the provider);
//! wholly unknown otherwise. Too few or too many arguments written out are the caller's
//! to report (`check/functions.rs`), as for the built-in functions; evaluation counts
//! them once an argument is expanded with `...`.

use super::{arguments, Call, EvalError, Evaluator, Value};
use crate::eval::Refinement;
use crate::syntax::{Expr, Span};
use crate::types::Type;

/// Calls the provider-defined function `name` with `args` as written at `span`.
pub(super) fn call(
    ev: &mut Evaluator,
    name: &str,
    args: &[Expr],
    expand_final: bool,
    span: Span,
) -> Result<Value, EvalError> {
    // Without a signature, HCL would not evaluate the arguments of a function it lacks,
    // and Strata cannot tell whether Terraform has it: nothing more is known.
    let Some(function) = ev.provider_function(name) else {
        return Ok(Value::Unknown);
    };
    let result = match Type::from(&function.return_type) {
        Type::Dynamic => Value::Unknown,
        known => Value::UnknownOf(known, Refinement::NONE),
    };
    let Some((values, places)) = arguments(ev, args, expand_final, span)? else {
        return Ok(result);
    };
    let signature = function.signature(name);
    let call = Call {
        name,
        signature: Some(&signature),
        places: &places,
        expanded: expand_final,
        span,
    };
    call.convert(&values)?;
    Ok(result)
}
