//! The service manager's readiness protocol (systemd's `sd_notify`, `Type=notify`): datagrams of
//! `KEY=VALUE` lines to the socket `NOTIFY_SOCKET` names. Written here on a plain Unix datagram socket
//! rather than through libsystemd: the protocol is one `sendto` per message, and the binary stays free of
//! a C library the server package would have to depend on.
//!
//! Without `NOTIFY_SOCKET` (not run by systemd) every message is dropped. A message that cannot be sent is
//! logged once at debug level and never stops the server.

use std::time::Duration;

/// Where the messages go, if anywhere.
pub struct Notifier {
    #[cfg(unix)]
    target: Option<(std::os::unix::net::UnixDatagram, std::os::unix::net::SocketAddr)>,
}

impl Notifier {
    /// The notifier `NOTIFY_SOCKET` asks for: a path, or a Linux abstract name written `@name`.
    pub fn from_env() -> Notifier {
        #[cfg(unix)]
        {
            let target = std::env::var_os("NOTIFY_SOCKET").and_then(|name| {
                let address = socket_address(&name)?;
                let socket = std::os::unix::net::UnixDatagram::unbound().ok()?;
                Some((socket, address))
            });
            Notifier { target }
        }
        #[cfg(not(unix))]
        Notifier {}
    }

    /// Sends one message, e.g. `READY=1` or `STATUS=opening the store`.
    pub fn send(&self, message: &str) {
        #[cfg(unix)]
        if let Some((socket, address)) = &self.target {
            if let Err(e) = socket.send_to_addr(message.as_bytes(), address) {
                tracing::debug!("could not tell the service manager {message:?}: {e}");
            }
        }
        #[cfg(not(unix))]
        let _ = message;
    }

    /// Sends `STATUS=…`, the line `systemctl status` shows.
    pub fn status(&self, status: &str) {
        self.send(&format!("STATUS={status}"));
    }

    /// How often the watchdog must be told the server is alive: half of `WATCHDOG_USEC`, when the watchdog
    /// is on and meant for this process (`WATCHDOG_PID`, when set, is its id).
    pub fn watchdog_interval() -> Option<Duration> {
        if let Some(pid) = std::env::var("WATCHDOG_PID").ok().filter(|p| !p.is_empty()) {
            if pid.trim() != std::process::id().to_string() {
                return None;
            }
        }
        let usec: u64 = std::env::var("WATCHDOG_USEC").ok()?.trim().parse().ok()?;
        Some(Duration::from_micros(usec / 2)).filter(|d| !d.is_zero())
    }
}

#[cfg(unix)]
fn socket_address(name: &std::ffi::OsStr) -> Option<std::os::unix::net::SocketAddr> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = name.as_bytes();
    match bytes.split_first() {
        #[cfg(target_os = "linux")]
        Some((b'@', abstract_name)) => {
            use std::os::linux::net::SocketAddrExt;
            std::os::unix::net::SocketAddr::from_abstract_name(abstract_name).ok()
        }
        Some((b'/', _)) => std::os::unix::net::SocketAddr::from_pathname(name).ok(),
        _ => None,
    }
}
