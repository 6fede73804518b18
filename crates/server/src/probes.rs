//! The probes a service manager or an orchestrator asks, both without a token: `/healthz` (the process
//! answers) and `/readyz` (the store is open and can be written: 503 with the reason while it is being
//! opened and migrated, once a damaged file was met, and while the disk refuses writes).
//!
//! Readiness is learnt from what the server does (the start's phases, the faults requests meet, carried in
//! their answers as [`StoreFault`]) and from one small write into the data directory while a full disk is
//! suspected; it never reads a store file, so a probe costs next to nothing.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ErrorBody, StoreFault};

/// Why `/readyz` answers 503, as the `reason` of its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotReadyReason {
    /// The store is being opened: its files checked, its schema migrated.
    Starting,
    /// A store file is damaged: `studio recover` rebuilds it (with the server stopped).
    Damaged,
    /// The disk holding the store refuses writes.
    DiskFull,
}

/// The 503 body of `/readyz`: the error body and the reason's code.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotReadyBody {
    #[serde(flatten)]
    pub error: ErrorBody,
    pub reason: NotReadyReason,
}

#[derive(Debug, Clone)]
enum Phase {
    Starting(String),
    Open,
}

#[derive(Debug)]
struct Condition {
    phase: Phase,
    damaged: Option<String>,
    disk_full: Option<String>,
}

/// The server's readiness, shared by the start, the requests and the probe. Cheap to clone.
#[derive(Clone)]
pub struct Readiness {
    state: Arc<Mutex<Condition>>,
    /// The data directory a test write goes to while a full disk is suspected (none in front of an upstream).
    data_dir: Option<PathBuf>,
}

/// How much the test write of a suspected full disk writes: more than a save of a configuration needs.
const TEST_WRITE_BYTES: usize = 256 * 1024;

impl Readiness {
    /// A server that is starting, saying `what` it does; `data_dir` is where its store lies.
    pub fn starting(what: impl Into<String>, data_dir: Option<PathBuf>) -> Readiness {
        let state = Condition { phase: Phase::Starting(what.into()), damaged: None, disk_full: None };
        Readiness { state: Arc::new(Mutex::new(state)), data_dir }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Condition> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Says what the start does now (`/readyz` says it too).
    pub fn set_starting(&self, what: impl Into<String>) {
        self.lock().phase = Phase::Starting(what.into());
    }

    /// The store is open: requests are served.
    pub fn set_open(&self) {
        self.lock().phase = Phase::Open;
    }

    /// Learns from a fault a request met.
    pub fn record(&self, fault: &StoreFault) {
        let mut state = self.lock();
        match fault {
            StoreFault::Damaged(message) => state.damaged = Some(message.clone()),
            StoreFault::DiskFull(message) => state.disk_full = Some(message.clone()),
        }
    }

    /// Whether the server is ready, or why not. A suspected full disk is tried with a test write, and
    /// forgotten once the write succeeds.
    pub async fn check(&self) -> Result<(), (NotReadyReason, String)> {
        let suspected_full = {
            let state = self.lock();
            if let Phase::Starting(what) = &state.phase {
                return Err((NotReadyReason::Starting, what.clone()));
            }
            if let Some(message) = &state.damaged {
                return Err((NotReadyReason::Damaged, message.clone()));
            }
            state.disk_full.clone()
        };
        let Some(message) = suspected_full else { return Ok(()) };
        let Some(dir) = self.data_dir.clone() else { return Ok(()) };
        let written = tokio::task::spawn_blocking(move || test_write(&dir)).await.unwrap_or(Ok(()));
        match written {
            Ok(()) => {
                self.lock().disk_full = None;
                Ok(())
            }
            Err(e) => Err((NotReadyReason::DiskFull, format!("{message} (a test write failed too: {e})"))),
        }
    }
}

/// Writes and removes a file in `dir`: whether the disk takes writes now.
fn test_write(dir: &std::path::Path) -> std::io::Result<()> {
    let path = dir.join(".readyz-test-write");
    let written = std::fs::File::create(&path).and_then(|mut file| {
        file.write_all(&vec![0u8; TEST_WRITE_BYTES])?;
        file.sync_all()
    });
    let _ = std::fs::remove_file(&path);
    written
}

/// The 200 body of a probe: `{"status": "ok"}` (alive) or `{"status": "ready"}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeBody {
    pub status: &'static str,
}

/// `GET /healthz`: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "probes", security(()),
    responses((status = 200, body = ProbeBody, description = "`{\"status\": \"ok\"}`: the server answers, whatever the store's or an upstream's state")))]
pub async fn healthz() -> Json<ProbeBody> {
    Json(ProbeBody { status: "ok" })
}

/// `GET /readyz`: 200 `{"status": "ready"}`, or 503 with the reason.
#[utoipa::path(get, path = "/readyz", tag = "probes", security(()),
    responses(
        (status = 200, body = ProbeBody, description = "`{\"status\": \"ready\"}`: the store is open and takes writes"),
        (status = 503, body = NotReadyBody, description = "Not ready: `reason` is `starting` (the store is being opened \
            and migrated), `damaged` (a store file is damaged: stop the server, run `studio recover`) or `disk_full` \
            (the disk refuses writes). There is no other reason: the server never recovers a store itself")))]
pub async fn readyz(State(readiness): State<Readiness>) -> Response {
    match readiness.check().await {
        Ok(()) => Json(ProbeBody { status: "ready" }).into_response(),
        Err((reason, message)) => {
            let status = StatusCode::SERVICE_UNAVAILABLE;
            let error = ErrorBody {
                status: status.as_u16(),
                error: status.canonical_reason().unwrap_or("Service Unavailable").to_owned(),
                message,
            };
            (status, Json(NotReadyBody { error, reason })).into_response()
        }
    }
}
