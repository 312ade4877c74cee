//! Plan preview (issue 5): the prior state, and later the planner. So far: the state
//! reader.

mod state;

pub use state::{
    parse_state, read_state, InstanceKey, InstanceStatus, ResourceMode, State, StateError,
    StateInstance, StateOutput, StateResource,
};
