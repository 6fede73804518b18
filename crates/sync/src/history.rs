//! The history of one configuration: the backend's own `/logs` (a server that does not offer them simply
//! has none) and, for remote servers, the versions this app published there, newest first.

use studio_model::{Backend, BackendError};

use crate::drafts::SyncStore;
use crate::error::SyncError;
use crate::types::{HistoryEntry, HistorySource, LOCAL_KEY};

/// Every known earlier version of configuration `id` on backend `key`, newest first.
pub async fn history(
    store: &SyncStore,
    backend: &dyn Backend,
    key: &str,
    id: i32,
) -> Result<Vec<HistoryEntry>, SyncError> {
    let mut entries: Vec<HistoryEntry> = match backend.configuration_logs(id).await {
        Ok(logs) => logs
            .into_iter()
            .map(|l| HistoryEntry {
                at: l.at,
                user: l.user,
                action: l.action.as_str().to_owned(),
                source: HistorySource::Server,
                config: l.config,
            })
            .collect(),
        // A server of the plain API has no /logs.
        Err(BackendError::NotOffered(_)) | Err(BackendError::NotFound(_)) | Err(BackendError::Upstream { .. })
            if key != LOCAL_KEY =>
        {
            Vec::new()
        }
        Err(e) => return Err(e.into()),
    };
    if key != LOCAL_KEY {
        entries.extend(store.published(key, id)?.into_iter().map(|(at, user, config)| HistoryEntry {
            at,
            user,
            action: "publish".to_owned(),
            source: HistorySource::Published,
            config,
        }));
    }
    entries.sort_by(|a, b| b.at.cmp(&a.at));
    Ok(entries)
}
