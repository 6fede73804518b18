//! The remote client's tests, gathered in one test binary: each file of this directory is a module here, so
//! that a change links one test program instead of one per file. They run the client against servers on
//! loopback: the misbehaving one of studio-testkit (exact bytes, faults, retries) and the real OpenID
//! Connect provider (sign-in).

mod decode;
mod faults;
mod other_servers;
mod reading;
mod retries;
mod sign_in;
mod sign_in_client;
