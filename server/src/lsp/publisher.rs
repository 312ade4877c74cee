//! The one task that publishes diagnostics, fed by two lanes of module snapshots.
//!
//! Edits come first: the snapshots of modules whose documents the client opened,
//! changed, saved or closed, or of any module with an open document, are checked in
//! their own lane, one at a time, at the priority of requests. Everything else (every
//! module after indexing, after new provider schemas or settings, after files changed on
//! disk, or whose role another module's edit changed) waits in the background lane, checked one at a time on the
//! background thread (`background.rs`). An edit therefore never waits behind the
//! thousands of checks indexing a large workspace queues, nor shares the core with them.
//!
//! Each snapshot gets a serial as it is queued, and only this task sends, so the order
//! of what the client sees stays sound: a snapshot that is no longer its module's
//! current one when its turn comes, or once checked, is skipped (a newer edit
//! superseded it), and so is one whose module already had the diagnostics of a later
//! serial sent (the same revision checked again, with other provider schemas). A check
//! still running when a newer snapshot of its module is queued is cancelled
//! (`crate::cancel`), so that the newer one does not wait for it; a background snapshot
//! cancels only a background check.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;
use tower_lsp_server::Client;

use super::background::Background;
use super::diagnostics::{check_snapshot, clear, is_current, send, Checked};
use super::state::State;
use crate::cancel::Cancel;
use crate::module::Module;
use crate::workspace::{ChildLookup, ModuleRoles, Workspace};

/// Where a snapshot waits for its check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lane {
    /// A module whose document the client edited.
    Edits = 0,
    /// Any other module.
    Background = 1,
}

/// What the publishing task does next.
enum Job {
    /// Publish a module snapshot.
    Module(Arc<Module>),
    /// Clear the diagnostics of these files.
    Clear(Vec<PathBuf>),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Job::Module(m) => write!(f, "publish {}", m.dir.display()),
            Job::Clear(paths) => write!(f, "clear {} files", paths.len()),
        }
    }
}

/// The task that publishes diagnostics; it ends when every clone is dropped, once what
/// was queued is done.
#[derive(Debug, Clone)]
pub struct Publisher {
    queue: mpsc::UnboundedSender<(Lane, Job)>,
    running: Arc<Running>,
}

impl Publisher {
    /// Starts the task.
    pub fn start(client: Client, ws: Arc<Workspace>, state: Arc<State>) -> Self {
        let (queue, jobs) = mpsc::unbounded_channel();
        let running = Arc::new(Running::default());
        let task = Task {
            client,
            ws,
            state,
            running: running.clone(),
            background: Background::start(),
            serial: 0,
            edits: VecDeque::new(),
            later: VecDeque::new(),
            newest_later: HashMap::new(),
            published: Published::default(),
        };
        tokio::spawn(task.run(jobs));
        Self { queue, running }
    }

    /// Queues the diagnostics of a module whose document the client edited, ahead of
    /// the background; a check of the same module still running stops.
    pub fn publish(&self, module: Arc<Module>) {
        self.running.supersede(&module.dir, Lane::Edits);
        let _ = self.queue.send((Lane::Edits, Job::Module(module)));
    }

    /// Queues the diagnostics of a module no edit touched, behind every edit; a
    /// background check of the same module still running stops.
    pub fn publish_later(&self, module: Arc<Module>) {
        self.running.supersede(&module.dir, Lane::Background);
        let _ = self.queue.send((Lane::Background, Job::Module(module)));
    }

    /// Queues clearing the diagnostics of `paths`, after the edits queued already.
    pub fn clear(&self, paths: Vec<PathBuf>) {
        let _ = self.queue.send((Lane::Edits, Job::Clear(paths)));
    }
}

/// A check in progress: its result, `None` if its thread went away.
type Check = Pin<Box<dyn Future<Output = Option<Checked>> + Send>>;

/// A check in progress, of which snapshot.
struct InProgress {
    check: Check,
    serial: u64,
    module: Arc<Module>,
    cancel: Cancel,
}

/// What the task woke up for.
enum Event {
    Queued(Option<(Lane, Job)>),
    Checked(Lane, Option<Checked>),
}

/// The publishing task's state.
struct Task {
    client: Client,
    ws: Arc<Workspace>,
    state: Arc<State>,
    running: Arc<Running>,
    background: Background,
    /// The serial of the last job queued.
    serial: u64,
    edits: VecDeque<(u64, Job)>,
    later: VecDeque<(u64, Arc<Module>)>,
    /// The serial of the newest background snapshot queued for each directory: an older
    /// one still waiting is skipped.
    newest_later: HashMap<PathBuf, u64>,
    published: Published,
}

impl Task {
    async fn run(mut self, mut jobs: mpsc::UnboundedReceiver<(Lane, Job)>) {
        let mut open = true;
        let mut lanes: [Option<InProgress>; 2] = [None, None];
        loop {
            if lanes[Lane::Edits as usize].is_none() {
                lanes[Lane::Edits as usize] = self.next_edit().await;
            }
            if lanes[Lane::Background as usize].is_none() {
                lanes[Lane::Background as usize] = self.next_later();
            }
            if !open && lanes.iter().all(Option::is_none) {
                return;
            }
            let [edit, later] = &mut lanes;
            let event = tokio::select! {
                job = jobs.recv(), if open => Event::Queued(job),
                checked = finish(edit) => Event::Checked(Lane::Edits, checked),
                checked = finish(later) => Event::Checked(Lane::Background, checked),
            };
            match event {
                Event::Queued(None) => open = false,
                Event::Queued(Some((lane, job))) => self.queue(lane, job),
                Event::Checked(lane, checked) => {
                    self.running.end(lane);
                    let Some(done) = lanes[lane as usize].take() else {
                        continue;
                    };
                    if let Some(checked) = checked {
                        self.publish(done, checked).await;
                    }
                }
            }
        }
    }

    fn queue(&mut self, lane: Lane, job: Job) {
        self.serial += 1;
        match (lane, job) {
            // What the editor shows is never background work.
            (Lane::Background, Job::Module(module)) if !self.shown(&module) => {
                self.queue_later(module);
            }
            (_, job) => self.edits.push_back((self.serial, job)),
        }
    }

    /// Whether a document of `module` is open.
    fn shown(&self, module: &Module) -> bool {
        module.sources.iter().any(|s| self.ws.is_open(&s.path))
    }

    fn queue_later(&mut self, module: Arc<Module>) {
        self.newest_later.insert(module.dir.clone(), self.serial);
        self.later.push_back((self.serial, module));
    }

    /// Starts the check of the next edited module still current, clearing what is to
    /// be cleared before it; `None` once the lane is empty.
    async fn next_edit(&mut self) -> Option<InProgress> {
        while let Some((serial, job)) = self.edits.pop_front() {
            match job {
                Job::Clear(paths) => clear(&self.client, &self.state, &paths).await,
                Job::Module(module) if is_current(&self.ws, &module) => {
                    let cancel = self.running.start(Lane::Edits, &module.dir);
                    let (ws, checked, flag) = (self.ws.clone(), module.clone(), cancel.clone());
                    let check = tokio::task::spawn_blocking(move || {
                        check_snapshot(&ws, &checked, &flag, ChildLookup::Built)
                    });
                    return Some(InProgress {
                        check: Box::pin(async { check.await.ok() }),
                        serial,
                        module,
                        cancel,
                    });
                }
                Job::Module(_) => {} // superseded
            }
        }
        None
    }

    /// Starts the check of the next background module still current and not queued
    /// again since; `None` once the lane is empty.
    fn next_later(&mut self) -> Option<InProgress> {
        while let Some((serial, module)) = self.later.pop_front() {
            let newest = self.newest_later.get(&module.dir).copied();
            if newest == Some(serial) {
                self.newest_later.remove(&module.dir);
            }
            if newest > Some(serial) || !is_current(&self.ws, &module) {
                continue;
            }
            let cancel = self.running.start(Lane::Background, &module.dir);
            let (ws, checked, flag) = (self.ws.clone(), module.clone(), cancel.clone());
            // Never making a request wait behind a check at the lowest priority.
            let check = self.background.run(move || {
                check_snapshot(&ws, &checked, &flag, ChildLookup::BuiltWithoutWaiting)
            });
            return Some(InProgress {
                check: Box::pin(check),
                serial,
                module,
                cancel,
            });
        }
        None
    }

    /// Sends what the check of `done` found, unless it is stale; queues again the modules
    /// whose role changed.
    async fn publish(&mut self, done: InProgress, checked: Checked) {
        let module = &done.module;
        if done.cancel.is_cancelled()
            || !is_current(&self.ws, module)
            || self.published.has_newer(&module.dir, done.serial)
        {
            return; // Partial or stale: the newer snapshot queued after it publishes.
        }
        send(
            &self.client,
            &self.ws,
            &self.state,
            module,
            checked.diagnostics,
        )
        .await;
        let stale = self
            .published
            .changed(&self.ws, module, done.serial, &checked.roles);
        for m in stale {
            self.serial += 1;
            self.queue_later(m);
        }
    }
}

/// The result of the check `running` holds; never, without one.
async fn finish(running: &mut Option<InProgress>) -> Option<Checked> {
    match running {
        Some(r) => r.check.as_mut().await,
        None => std::future::pending().await,
    }
}

/// The serial of the snapshot each module's published diagnostics come from, and the
/// role it was checked in (its module paths when called), so that a module whose role
/// an edit elsewhere changed (a call added, renamed or removed) is checked again.
#[derive(Debug, Default)]
struct Published {
    modules: HashMap<PathBuf, (u64, Option<Vec<String>>)>,
    /// The roles every module's recorded role agrees with, as of the last comparison.
    compared: Option<Arc<ModuleRoles>>,
}

impl Published {
    /// Whether the diagnostics of a snapshot of `dir` queued after `serial` were sent.
    fn has_newer(&self, dir: &Path, serial: u64) -> bool {
        self.modules.get(dir).is_some_and(|(s, _)| *s > serial)
    }

    /// Records that `module` (queued as `serial`) was just published in the role `roles`
    /// give it, and returns the modules published in another role than `roles` now give
    /// them.
    fn changed(
        &mut self,
        ws: &Workspace,
        module: &Module,
        serial: u64,
        roles: &Arc<ModuleRoles>,
    ) -> Vec<Arc<Module>> {
        let paths_of = |dir: &Path| roles.paths_of(dir).map(<[String]>::to_vec);
        self.modules
            .insert(module.dir.clone(), (serial, paths_of(&module.dir)));
        // The workspace keeps its roles while no module's calls change: every module
        // recorded since the last comparison was recorded in these same roles.
        if self
            .compared
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, roles))
        {
            return Vec::new();
        }
        self.compared = Some(roles.clone());
        let mut stale = Vec::new();
        self.modules
            .retain(|dir, (_, published)| match ws.module(dir) {
                None => false, // forgotten
                Some(m) => {
                    let now = paths_of(dir);
                    if *published != now {
                        *published = now;
                        stale.push(m);
                    }
                    true
                }
            });
        stale
    }
}

/// The module whose check is running in each lane, and its cancellation flag.
#[derive(Debug, Default)]
struct Running(Mutex<[Option<(PathBuf, Cancel)>; 2]>);

impl Running {
    /// Records that the check of `dir` starts in `lane`; returns its flag.
    fn start(&self, lane: Lane, dir: &Path) -> Cancel {
        let cancel = Cancel::new();
        self.lock()[lane as usize] = Some((dir.to_path_buf(), cancel.clone()));
        cancel
    }

    /// Records that the check in `lane` ended.
    fn end(&self, lane: Lane) {
        self.lock()[lane as usize] = None;
    }

    /// Cancels the checks of `dir` that a newer snapshot queued in `lane` supersedes:
    /// an edit supersedes both lanes' checks, a background snapshot only the
    /// background's (an edit's check in progress is newer, or as new).
    fn supersede(&self, dir: &Path, lane: Lane) {
        let running = self.lock();
        let superseded = match lane {
            Lane::Edits => &running[..],
            Lane::Background => &running[Lane::Background as usize..],
        };
        for (running, cancel) in superseded.iter().flatten() {
            if running == dir {
                cancel.cancel();
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, [Option<(PathBuf, Cancel)>; 2]> {
        // Nothing can panic while it is held; a poisoned lock still holds a sound value.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
