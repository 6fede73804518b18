//! The tests that start the real `studio` binary, gathered in one test binary: each file of this directory
//! is a module here, so that a change links one test program instead of one per file.

mod support;

/// The misbehaving server that `upstream` puts behind `studio serve --upstream`.
use studio_testkit::http as remote_support;

mod cli_data;
mod cli_pull;
mod client_credentials;
mod config_apply;
mod config_folder;
mod config_gateway;
mod config_pipeline;
mod config_promote;
mod conformance;
mod crash_safety;
mod designer;
mod full_disk;
mod load;
mod load_driver;
mod oidc_serve;
mod packaging;
mod real_servers;
mod security;
mod server_process;
mod service;
mod service_notify;
mod service_reload;
mod store_faults;
mod store_recover;
mod upstream;
mod web_sign_in;
