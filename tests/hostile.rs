//! Hostile input, black box: what a hostile or broken client, or a hostile workspace,
//! may send or hold, and what Strata must do about it (issue 12): answer with a clear
//! error and keep serving, never crash, hang, desync or hold memory.
//!
//! One section per area, each in `tests/hostile/`: the server over stdio (`server`:
//! helpers; `transport`: framing and JSON-RPC; `lifecycle`: exit, end of input, memory;
//! `requests`: one failing request or module; `cancel`: cancelled and superseded work
//! stops; `workspace`: a workspace of hostile modules indexed and planned; `functions`:
//! plans whose functions handle many bytes). CLI sections go beside them.

mod support;

#[path = "hostile/server.rs"]
mod server;

#[path = "hostile/transport.rs"]
mod transport;

#[path = "hostile/lifecycle.rs"]
mod lifecycle;

#[path = "hostile/requests.rs"]
mod requests;

#[path = "hostile/cancel.rs"]
mod cancel;

#[path = "hostile/workspace.rs"]
mod workspace;

#[path = "hostile/functions.rs"]
mod functions;
